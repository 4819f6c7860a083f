/**
 * An order of unknown outcome that the venue has no record of is taken for one that never
 * landed (EXPIRED, its exposure released) only once its expiry plus the allowed skew has passed
 * on this host's clock while that clock is known to be within the skew of the venue's. A clock
 * stepped ahead after the order was signed read the expiry as long past while the venue's clock
 * had not reached it, and a copy of the order still on its way could land after the bot had
 * released it (found by a review of the simulator's late-landing requests). The venue is a stub
 * HTTP server on port 0 that dates its answers on the venue's clock; the executor's clock check
 * is a real VenueClock fed by those answers through the bot's own lookup client.
 */
import { afterEach, expect, it } from 'vitest';
import { VenueClock } from '../../../src/clock/venue-clock.ts';
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
const EXPIRY = T0 + 20_000;

it('a host clock stepped ahead keeps an unseen order of unknown outcome counted until the clock is right again', async () => {
  const time = { venue: T0, hostAhead: 0, monotonic: 0 };
  stub = await startStubServer({
    'GET /api/v1/order': (_req, res) => {
      res.setHeader('Date', new Date(time.venue).toUTCString());
      sendJson(res, 404, { body: null, message: 'order not found', status: 404 });
    },
  });
  const logs = captureLogs();
  const clock = { now: () => time.venue + time.hostAhead, monotonic: () => time.monotonic };
  const venueClock = new VenueClock({ clock, log: logs.log });
  const connection: VenueConnection = {
    baseUrl: stub.url,
    timeoutMs: 5000,
    timing: venueClock.probe,
  };
  // An order whose every answer was lost: UNKNOWN, without a venue id, valid for 20 s.
  const journal = OrderJournal.open(':memory:');
  const [row] = journal.insertPendingMany(
    [newOrder(`0x${'2'.repeat(130)}`, { expiryTs: EXPIRY })],
    T0,
  );
  if (row === undefined) throw new Error('not journaled');
  journal.markAttempt(row.id, T0);
  journal.recordOutcome(row.id, { event: 'outcomeUnknown' }, T0);
  const executor = lookupOnlyExecutor({
    journal,
    connection,
    now: clock.now,
    log: logs.log,
    venueClock,
  });
  executor.recover([]);
  const advance = async (ms: number): Promise<void> => {
    time.venue += ms;
    time.monotonic += ms;
    await executor.refreshOpenOrders();
  };

  // One second in, the host clock steps 3 minutes ahead: it reads the expiry as long past.
  await advance(1_000);
  expect(venueClock.withinSkew()).toBe(true);
  time.hostAhead = 180_000;
  for (let second = 0; second < 10; second++) await advance(1_000);
  expect(venueClock.withinSkew()).toBe(false);
  expect(journal.get(row.id).state).toBe('UNKNOWN');
  expect(executor.stats().unresolvedOrders).toBe(1);

  // Stepped back: still before the expiry plus the skew, the order may still land.
  time.hostAhead = 0;
  await advance(1_000);
  expect(venueClock.withinSkew()).toBe(true);
  expect(journal.get(row.id).state).toBe('UNKNOWN');

  // Past it on a clock within the skew: it can no longer land.
  while (time.venue < EXPIRY + 5_000) await advance(1_000);
  expect(journal.get(row.id).state).toBe('EXPIRED');
  expect(executor.stats().unresolvedOrders).toBe(0);
  journal.close();
});
