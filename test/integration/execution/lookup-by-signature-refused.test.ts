/**
 * Issue 31's open defect: on a venue without the lookup by signature (docs/conventions.md §6; a
 * venue whose only /api/v1/order route is the POST answers a GET with 405), every poll asked it
 * again for every unresolved order and logged a failed lookup each time. Now the refusal is
 * logged once, counted, and the lookup is asked again only after a backoff (a minute, doubling);
 * the order stays unresolved, counted at full size. The venue is a stub HTTP server on port 0
 * reached through the bot's own lookup client (venue/endpoints findOrder).
 */
import { afterEach, expect, it } from 'vitest';
import { OrderJournal } from '../../../src/execution/journal.ts';
import type { VenueConnection } from '../../../src/venue/endpoints/index.ts';
import { lookupOnlyExecutor } from '../../helpers/lookup-executor.ts';
import { newOrder } from '../../helpers/journal-orders.ts';
import { sendJson, startStubServer, type StubServer } from '../../helpers/stub-server.ts';
import { captureLogs } from '../runtime/harness.ts';

let stub: StubServer | undefined;
afterEach(async () => {
  await stub?.close();
});

const T0 = Date.parse('2026-03-02T12:00:00Z');

it('a venue that refuses the lookup by signature is logged once, counted, and asked again only after a backoff', async () => {
  stub = await startStubServer({
    'GET /api/v1/order': (_req, res) =>
      sendJson(res, 405, { body: null, message: 'method GET not allowed', status: 405 }),
  });
  const connection: VenueConnection = { baseUrl: stub.url, timeoutMs: 5000 };
  const clock = { now: T0 };
  const now = (): number => clock.now;
  // An order whose every answer was lost: UNKNOWN, without a venue id, valid for an hour.
  const journal = OrderJournal.open(':memory:');
  const [row] = journal.insertPendingMany(
    [newOrder(`0x${'2'.repeat(130)}`, { expiryTs: T0 + 3_600_000 })],
    T0,
  );
  if (row === undefined) throw new Error('not journaled');
  journal.markAttempt(row.id, T0);
  journal.recordOutcome(row.id, { event: 'outcomeUnknown' }, T0);
  const logs = captureLogs();
  const executor = lookupOnlyExecutor({ journal, connection, now, log: logs.log });
  executor.recover([]);

  // Five minutes of polls, one a second.
  for (let poll = 0; poll < 300; poll++) {
    await executor.refreshOpenOrders();
    clock.now += 1000;
  }

  // Asked at 0 s, then after 60 s, after 120 s more: 3 times, not 300.
  expect(stub.requests.map((r) => r.url.split('?')[0])).toEqual([
    '/api/v1/order',
    '/api/v1/order',
    '/api/v1/order',
  ]);
  expect(executor.stats().lookupFailures).toBe(3);
  expect(logs.withMessage('the venue refused the order lookup by signature')).toHaveLength(1);
  expect(logs.withMessage('order lookup failed')).toEqual([]);
  expect(executor.stats().unresolvedOrders).toBe(1);
  expect(journal.get(row.id).state).toBe('UNKNOWN');
  journal.close();
});
