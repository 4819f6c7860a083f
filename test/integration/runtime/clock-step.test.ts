/**
 * Issue 25, "the wall clock stepped back 10 minutes mid-run": the local rate budget held every
 * slot taken before the step until ten minutes after it (its holds were wall times), so polls
 * stopped, and nothing was logged. A bot whose wall clock the test steps (its monotonic clock is
 * the process's own) keeps polling at its budget through a step back and a step forward, and
 * says once per step that the wall clock moved.
 */
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue } from '../../../src/paper/index.ts';
import {
  captureLogs,
  runBot,
  strategyModule,
  tempDir,
  waitFor,
  writeBotConfig,
} from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const TEN_MINUTES = 600_000;
const MARKETS = '/api/v1/market';

it('polls keep to the rate budget through wall-clock steps, each step logged once', async () => {
  const venue = await startPaperVenue({ port: 0 });
  cleanups.push(() => venue.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  // Polls every 100 ms with quotes want 20 requests/s; the budget allows 10: every slot is
  // taken (and held until ~1 s after its answer) at any moment, as in the reproduction.
  const path = await writeBotConfig(dir, {
    writeUrl: venue.url,
    poll: { intervalMs: 100 },
    execution: { rateLimit: { requests: 10, perMs: 1000 }, countPolls: true },
    strategies: [
      {
        module: strategyModule('fixtures/burst'),
        markets: ['ETH-USD'],
        // Never reaches its snapshot: a bot that only polls.
        params: { count: 1, firstAmount: '0.001', step: '0', fromSeq: 1_000_000 },
      },
    ],
  });
  let offset = 0;
  const logs = captureLogs();
  const running = await runBot(path, logs.log, undefined, { now: () => Date.now() + offset });
  cleanups.push(() => running.stop());
  await waitFor('8 polls', () => venue.requestCount(MARKETS) >= 8);

  const polledAfter = async (what: string): Promise<void> => {
    const before = venue.requestCount(MARKETS);
    // 10 polls take about 2 s at 10 requests/s (two per poll); the old budget made none.
    await waitFor(`10 polls after ${what}`, () => venue.requestCount(MARKETS) - before >= 10);
  };
  offset = -TEN_MINUTES;
  await polledAfter('the wall clock stepped back 10 minutes');
  offset = 0;
  await polledAfter('the wall clock stepped forward again');

  const steps = logs.withMessage('wall clock stepped');
  expect(steps.map((record) => record.msg?.split(' ').slice(0, 4).join(' '))).toEqual([
    'wall clock stepped back',
    'wall clock stepped forward',
  ]);
  expect(Math.abs(Number(steps[0]?.stepMs) + TEN_MINUTES)).toBeLessThanOrEqual(2);
  expect(Math.abs(Number(steps[1]?.stepMs) - TEN_MINUTES)).toBeLessThanOrEqual(2);
  // The budget skipped polls it had no slot for, and nothing else went wrong.
  expect(logs.records.filter((record) => (record.level ?? 0) >= 50)).toEqual([]);
});
