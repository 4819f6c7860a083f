/**
 * Issue 5, "Done when" 1 at the bot level: a running bot whose clock passes the renewal margin
 * registers a new signing key inside its poll loop and keeps trading: every order of the run is
 * journaled FILLED, those after the renewal signed by the new key. No order is dropped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CredentialStore } from '../../../src/account/credential-store.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { WALLET_ENV, botConfig, runBotFor } from './bot-run.ts';
import { MARGIN_MS, MINUTE_MS, T0, TTL_MS, WALLET_KEY, type TestClock } from './helpers.ts';

const AUTH = '/api/v1/auth';

let clock: TestClock;
let venue: PaperVenue;
let dir: string;

beforeEach(async () => {
  clock = { now: T0 };
  venue = await startPaperVenue({ port: 0, seed: 3, clock: () => clock.now });
  dir = mkdtempSync(join(tmpdir(), 'quanta-bot-renewal-'));
});

afterEach(async () => {
  await venue.close();
  rmSync(dir, { recursive: true, force: true });
});

it('renews credentials mid-run past the margin and fills every order before and after', async () => {
  const config = botConfig(dir, {
    venueUrl: venue.url,
    stateDir: join(dir, 'state'),
    credentialTtlMs: TTL_MS,
    renewMarginMs: MARGIN_MS,
  });
  const JUMP_AFTER = 3;
  const POLLS = 6;
  let authAtStart = -1;
  let jumpedTo = 0;
  const authByPoll: number[] = [];
  const { rows, summary } = await runBotFor(
    {
      config,
      env: { [WALLET_ENV]: WALLET_KEY },
      log: silentLogger,
      clock,
      polls: POLLS,
      afterPoll: (n) => {
        authByPoll.push(venue.requestCount(AUTH));
        if (n === JUMP_AFTER) {
          clock.now = T0 + TTL_MS - MARGIN_MS + MINUTE_MS;
          jumpedTo = clock.now;
        }
      },
    },
    () => {
      authAtStart = venue.requestCount(AUTH);
    },
  );

  expect(authAtStart).toBe(1);
  // No renewal while the credential is valid beyond the margin; exactly one after the jump.
  expect(authByPoll).toEqual([1, 1, 1, 2, 2, 2]);
  expect(venue.requestCount(AUTH)).toBe(2);
  expect(summary.snapshots).toBe(POLLS);

  // The credential file: the renewed key first (nonce 1), the first one kept until it expires.
  const stored = new CredentialStore(join(dir, 'state', 'credentials.json')).load();
  expect(stored.map((c) => c.nonce)).toEqual([1, 0]);
  const [renewed, first] = stored;
  // Renewed at the first poll after the jump, one poll interval later.
  expect(renewed?.expiryTs).toBe(jumpedTo + config.poll.intervalMs + TTL_MS);

  // One order per snapshot, none dropped, all FILLED; signed by the key valid at the time.
  expect(rows).toHaveLength(POLLS);
  expect(rows.map((r) => r.state)).toEqual(Array(POLLS).fill('FILLED'));
  expect(rows.map((r) => r.error)).toEqual(Array(POLLS).fill(null));
  const signers: (string | undefined)[] = [
    ...Array<string | undefined>(JUMP_AFTER).fill(first?.signerAddress),
    ...Array<string | undefined>(POLLS - JUMP_AFTER).fill(renewed?.signerAddress),
  ];
  expect(rows.map((r) => r.signer)).toEqual(signers);
  for (const row of rows) expect(row.venueOrderId).not.toBeNull();
  expect(summary.stats.ordersByState).toEqual({ FILLED: POLLS });
});
