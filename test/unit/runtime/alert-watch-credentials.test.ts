/** The alert of the venue refusing a key's credentials: one per refusal, saying what follows. */
import { expect, it } from 'vitest';
import { AlertWatch } from '../../../src/runtime/control/alert-watch.ts';
import type { Alert } from '../../../src/runtime/control/notifier.ts';
import type { CredentialRefusal } from '../../../src/account/refusal-spacing.ts';

const SIGNER = '0x45f8924221D9Da55123C8E2569A52f0622Ec663D';
const NEWEST = '0x0aB7d8a5cbcF4f1dD3dE4C2a1f0b9e8D7c6B5A49';

function watch(): { watch: AlertWatch; alerts: Alert[] } {
  const alerts: Alert[] = [];
  const w = new AlertWatch({
    notify: (alert) => alerts.push(alert),
    wantsFills: false,
    now: () => 1_000,
    pausedStrategies: () => [],
    refusals: () => ({}),
    symbolOf: (id) => String(id),
    staleAfterMs: 5_000,
  });
  return { watch: w, alerts };
}

/** A refusal of {@link SIGNER}. */
function refusal(
  newest: boolean,
  waitMs: number,
  inARow: number,
  signingRefusal: string | undefined,
  registering: boolean,
): CredentialRefusal {
  return { signer: SIGNER, newest, waitMs, inARow, signingRefusal, registering };
}

it('says whether orders stop, and for how long, in each case', () => {
  const { watch: w, alerts } = watch();
  const refusedNewest = `the venue refused the credentials of signing key ${NEWEST}; a new key is due`;
  w.credentialsRefused(refusal(true, 0, 1, refusedNewest, false));
  w.credentialsRefused(refusal(true, 20_000, 3, refusedNewest, false));
  w.credentialsRefused(refusal(false, 0, 0, undefined, false));
  // An earlier key refused after the newest was: no "the newest still signs".
  w.credentialsRefused(refusal(false, 0, 0, refusedNewest, false));
  // The newest refused while a renewal registers its successor: that key is on its way; a wait
  // set by refusals in a row applies only if it fails.
  w.credentialsRefused(refusal(true, 0, 1, refusedNewest, true));
  w.credentialsRefused(refusal(true, 10_000, 2, refusedNewest, true));
  expect(alerts.map((a) => [a.kind, a.at])).toEqual([
    ['credentials-refused', 1_000],
    ['credentials-refused', 1_000],
    ['credentials-refused', 1_000],
    ['credentials-refused', 1_000],
    ['credentials-refused', 1_000],
    ['credentials-refused', 1_000],
  ]);
  expect(alerts.map((a) => a.message)).toEqual([
    `the venue refused the credentials of signing key ${SIGNER}: orders are refused until a new key registers, at the next poll`,
    `the venue refused the credentials of signing key ${SIGNER}: 3 keys refused in a row: orders are refused until a new key registers in 20 s (a venue or proxy refusing every key: check venue.headerPrefix, venue.brokerId and the venue's URL)`,
    `the venue refused the credentials of signing key ${SIGNER}: an earlier key; the newest still signs`,
    `the venue refused the credentials of signing key ${SIGNER}: an earlier key; orders cannot be signed either: ${refusedNewest}`,
    `the venue refused the credentials of signing key ${SIGNER}: orders are refused until the new key being registered now is in place`,
    `the venue refused the credentials of signing key ${SIGNER}: 2 keys refused in a row: orders are refused until the new key being registered now is in place; if that fails, the next one registers in 10 s (a venue or proxy refusing every key: check venue.headerPrefix, venue.brokerId and the venue's URL)`,
  ]);
  expect(alerts[1]?.details).toEqual({
    signer: SIGNER,
    newest: true,
    waitMs: 20_000,
    inARow: 3,
    registering: false,
  });
});
