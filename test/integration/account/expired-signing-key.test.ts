/**
 * Issue 11, defect 3: an order signed by a key whose credential has expired never leaves the
 * process (the submitter finds no credential for its signer), so it is journaled as refused and
 * never sent, not UNKNOWN ("check the venue"). The whole order path is real: a paper venue on
 * port 0, the CredentialManager, the HTTP submitter and signer the bot uses, the dispatcher, the
 * executor and an in-memory journal; only the clock is the test's.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Dispatcher } from '../../../src/execution/dispatcher.ts';
import { Executor } from '../../../src/execution/executor.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import {
  credentialOrderSigner,
  httpOrderSubmitter,
} from '../../../src/runtime/http-order-submitter.ts';
import { getQuotes, listMarkets } from '../../../src/venue/endpoints/index.ts';
import { DEFAULT_SIGNING_DOMAIN } from '../../../src/venue/types.ts';
import { MINUTE_MS, TTL_MS, startAccountHarness, type AccountHarness } from './helpers.ts';

let h: AccountHarness;
let journal: OrderJournal;

beforeEach(async () => {
  h = await startAccountHarness();
  journal = OrderJournal.open(':memory:');
});

afterEach(async () => {
  journal.close();
  await h.close();
});

it('an order whose signing key expired is REJECTED as never sent, not UNKNOWN, and never reaches the venue', async () => {
  const credentials = h.manager();
  await credentials.ensure();
  const now = (): number => h.clock.now;
  const dispatcher = new Dispatcher({
    submitter: httpOrderSubmitter(h.connection, credentials),
    requests: 10,
    perMs: 1000,
    concurrency: 1,
    maxAttempts: 3,
    now,
    sleep: () => Promise.resolve(),
    log: silentLogger,
    onAttempt: (orderId) => journal.markAttempt(orderId, now()),
  });
  const executor = new Executor({
    journal,
    dispatcher,
    signer: credentialOrderSigner(credentials, DEFAULT_SIGNING_DOMAIN),
    limits: { maxOrderNotionalX18: 10n ** 24n, maxPositionNotionalX18: 10n ** 24n },
    killSwitchOn: () => false,
    now,
    log: silentLogger,
    orderTtlMs: MINUTE_MS,
  });
  const snapshot = createSnapshot({
    seq: 1,
    takenAt: now(),
    markets: await listMarkets(h.connection),
    quotes: (await getQuotes(h.connection)) ?? [],
  });
  // The credential lapses and no renewal has happened (the venue refused it, say): the signer
  // still signs with the newest key, whose credential the submitter no longer holds.
  h.clock.now += TTL_MS + MINUTE_MS;
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
  expect(row?.state).toBe('REJECTED');
  expect(row?.error).toMatch(/^never sent: signing key expired/);
  expect(row?.error).not.toMatch(/check the venue/);
});
