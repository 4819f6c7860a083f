/**
 * Issue 11, defect 3: an order signed by a key whose credential has expired never leaves the
 * process (the submitter finds no credential for its signer), so it is journaled as refused and
 * never sent, not UNKNOWN ("check the venue"); but when an earlier run may have sent it before
 * a crash, it stays UNKNOWN. The whole order path is real: a paper venue on port 0, the
 * CredentialManager, the HTTP venue client and signer the bot uses, the dispatcher, the executor and
 * an in-memory journal; only the clock is the test's.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CredentialManager } from '../../../src/account/credential-manager.ts';
import type { OrderSubmitter } from '../../../src/execution/dispatcher.ts';
import type { Executor } from '../../../src/execution/executor.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import type { Snapshot } from '../../../src/market/snapshot.ts';
import { httpVenueClient } from '../../../src/venue/http-venue-client.ts';
import {
  MINUTE_MS,
  TTL_MS,
  firstSnapshot,
  orderPath,
  startAccountHarness,
  type AccountHarness,
} from './helpers.ts';

let h: AccountHarness;
let journal: OrderJournal;
let credentials: CredentialManager;
let snapshot: Snapshot;

beforeEach(async () => {
  h = await startAccountHarness();
  journal = OrderJournal.open(':memory:');
  credentials = h.manager();
  await credentials.ensure();
  snapshot = await firstSnapshot(h);
});

afterEach(async () => {
  journal.close();
  await h.close();
});

/** The bot's venue client over HTTP, to the harness's paper venue. */
function httpVenue() {
  return httpVenueClient({ read: h.connection, write: h.connection, credentials });
}

/** The bot's order path over the test's journal, sending through `submitter`. */
function orderPathTo(submitter: OrderSubmitter): Executor {
  return orderPath(h, credentials, journal, submitter);
}

/** Past the credential's expiry, with no renewal (the venue refused it, say). */
function letTheKeyExpire(): void {
  h.clock.now += TTL_MS + MINUTE_MS;
}

it('an order whose signing key expired is REJECTED as never sent, not UNKNOWN, and never reaches the venue', async () => {
  const executor = orderPathTo(httpVenue());
  // The signer still signs with the newest key, whose credential the submitter no longer holds.
  letTheKeyExpire();
  const ordersBefore = h.venue.requestCount('/api/v1/order');

  const outcome = await executor.submit(
    'dca',
    { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.01' },
    snapshot,
  );
  expect(outcome.kind).toBe('sent');
  await executor.settle();

  expect(h.venue.requestCount('/api/v1/order')).toBe(ordersBefore);
  const [row] = journal.all();
  expect(row).toMatchObject({ state: 'REJECTED', attempts: 1 });
  expect(row?.error).toMatch(/^never sent: signing key expired: no valid credential for signer/);
  expect(row?.error).not.toMatch(/check the venue/);
});

it('an order a crashed run may have sent stays UNKNOWN when its key has expired by the restart', async () => {
  // Run 1 sends once and never hears back: the venue may hold the order.
  let sent: () => void = () => undefined;
  const reachedTheWire = new Promise<void>((resolve) => (sent = resolve));
  const crashed = orderPathTo({
    createOrder: () => {
      sent();
      return new Promise(() => undefined);
    },
  });
  await crashed.submit(
    'dca',
    { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.01', expiresInMs: 2 * TTL_MS },
    snapshot,
  );
  await reachedTheWire;
  expect(journal.all()[0]).toMatchObject({ state: 'SENT', attempts: 1 });

  letTheKeyExpire();
  const restarted = orderPathTo(httpVenue());
  restarted.recover(snapshot.markets.values());
  await restarted.settle();

  const [row] = journal.all();
  expect(row).toMatchObject({ state: 'UNKNOWN', attempts: 2 });
  expect(row?.error).toMatch(
    /^the last attempt was never sent, but an earlier attempt may have landed; check the venue: signing key expired/,
  );
});
