/** The alert of the venue refusing a key's credentials: one per refusal, saying what follows. */
import { expect, it } from 'vitest';
import { AlertWatch } from '../../../src/runtime/control/alert-watch.ts';
import type { Alert } from '../../../src/runtime/control/notifier.ts';

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

it('says whether orders stop, and for how long, in each case', () => {
  const { watch: w, alerts } = watch();
  const refusedNewest = `the venue refused the credentials of signing key ${NEWEST}; a new key is due`;
  w.credentialsRefused({
    signer: SIGNER,
    newest: true,
    waitMs: 0,
    inARow: 1,
    signingRefusal: refusedNewest,
    registering: false,
  });
  w.credentialsRefused({
    signer: SIGNER,
    newest: true,
    waitMs: 20_000,
    inARow: 3,
    signingRefusal: refusedNewest,
    registering: false,
  });
  w.credentialsRefused({
    signer: SIGNER,
    newest: false,
    waitMs: 0,
    inARow: 0,
    signingRefusal: undefined,
    registering: false,
  });
  // An earlier key refused after the newest was: no "the newest still signs".
  w.credentialsRefused({
    signer: SIGNER,
    newest: false,
    waitMs: 0,
    inARow: 0,
    signingRefusal: refusedNewest,
    registering: false,
  });
  // The newest refused while a renewal registers its successor: no wait to announce.
  w.credentialsRefused({
    signer: SIGNER,
    newest: true,
    waitMs: 10_000,
    inARow: 2,
    signingRefusal: refusedNewest,
    registering: true,
  });
  expect(alerts.map((a) => [a.kind, a.at])).toEqual([
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
  ]);
  expect(alerts[1]?.details).toEqual({
    signer: SIGNER,
    newest: true,
    waitMs: 20_000,
    inARow: 3,
    registering: false,
  });
});
