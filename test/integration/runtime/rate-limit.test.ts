/**
 * Done-when 3 (first part): a paper venue limited to R requests/s and an executor set to R
 * requests per second: a burst of 100 intents gets no 429 and every order lands.
 *
 * `execution.rateLimit` is the budget of every request (orders, and the poller's market and
 * quote requests: `countPolls` is on by default, so polls only take what the orders leave).
 * Registration comes before the budget opens, so here the write API (registration and orders)
 * is a paper venue limited to exactly R, and the read API is a second paper venue serving the
 * same engine without a limit, as a deployment with separate read and write base URLs would
 * be. The venue then refuses the first order beyond R in any second: one extra order request
 * in a window, and an order needs a second attempt.
 */
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { SimEngine } from '../../../src/sim/index.ts';
import {
  captureLogs,
  journalPath,
  readJournal,
  runBot,
  strategyModule,
  tempDir,
  venueOrders,
  waitFor,
  writeBotConfig,
} from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const R = 20;
const BURST = 100;
const POLL_MS = 500;
// The burst waits for snapshot 4, at least 1.5 s after registration: registration, the write
// API's one other request, has left the venue's window by then.
const BURST_AT_SEQ = 4;

it(`a burst of ${BURST} intents at the venue's own limit (${R}/s) gets no 429 and all land`, async () => {
  const engine = new SimEngine({ clock: Date.now, seed: 6 });
  const writeApi = await startPaperVenue({ port: 0, engine, rateLimit: R });
  cleanups.push(() => writeApi.close());
  const readApi = await startPaperVenue({ port: 0, engine });
  cleanups.push(() => readApi.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const path = await writeBotConfig(dir, {
    writeUrl: writeApi.url,
    readUrl: readApi.url,
    poll: { intervalMs: POLL_MS },
    execution: { rateLimit: { requests: R, perMs: 1000 }, countPolls: true, concurrency: 4 },
    strategies: [
      {
        module: strategyModule('fixtures/burst'),
        markets: ['ETH-USD'],
        params: {
          count: BURST,
          firstAmount: '0.001',
          step: '0.000001',
          fromSeq: BURST_AT_SEQ,
        },
      },
    ],
  });
  const logs = captureLogs();
  const running = await runBot(path, logs.log);
  cleanups.push(() => running.stop());
  await waitFor('the burst', () => running.intents.length === BURST);
  const started = Date.now();
  await waitFor(
    `${BURST} orders answered`,
    () => {
      const rows = running.bot.journal.all();
      return (
        rows.length === BURST && rows.every((r) => r.state !== 'PENDING' && r.state !== 'SENT')
      );
    },
    30_000,
  );
  const elapsedMs = Date.now() - started;
  await running.stop();

  const rows = readJournal(journalPath(dir));
  expect(rows.map((r) => r.state)).toEqual(Array(BURST).fill('FILLED'));
  // One attempt each: a 429 is answered by a pause and a resend of the same bytes.
  expect(rows.filter((r) => r.attempts !== 1)).toEqual([]);
  expect(writeApi.requestCount('/api/v1/order')).toBe(BURST);
  expect(writeApi.requestCount()).toBe(BURST + 1); // and the one registration
  expect(logs.withMessage('venue rate limit hit')).toEqual([]);
  expect(logs.withMessage('order send attempt failed')).toEqual([]);
  const onVenue = venueOrders(writeApi, running.accountId);
  expect(onVenue.map((o) => o.amountX18).sort()).toEqual(rows.map((r) => r.amountX18).sort());
  // Paced, not merely lucky: 100 orders at 20 per second need at least four full windows.
  expect(elapsedMs).toBeGreaterThan(4000);
  console.info(`rate limit: ${BURST} orders at ${R}/s answered in ${elapsedMs} ms`);
});
