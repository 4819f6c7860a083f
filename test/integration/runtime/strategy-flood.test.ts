/**
 * Issue 25, "one strategy takes the others down": a strategy returning 10,000 intents per
 * snapshot beside a healthy one that wants one order per snapshot, against the paper venue on
 * port 0, on an injected clock that moves only when the bot's requests are answered. Before,
 * the flood took every permit of the rate budget: polls were skipped (11 of 153 in 40 s), data
 * went stale and the healthy strategy placed 3 orders instead of 76. Now each strategy keeps to
 * its share of the order budget, polls keep a reserve, and the flood is throttled and reported.
 */
import { afterEach, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { loadConfig } from '../../../src/config/index.ts';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { startBot } from '../../../src/runtime/bot.ts';
import type { RateBudgetStatus } from '../../../src/execution/rate-budget/rate-budget.ts';
import type { Snapshot } from '../../../src/market/snapshot.ts';
import { virtualTime } from '../../helpers/virtual-time.ts';
import {
  captureLogs,
  FIXTURE_MARKETS,
  journalPath,
  readJournal,
  ROOT,
  runVirtualUntil,
  startOrderProxy,
  strategyModule,
  tempDir,
  WALLET_ENV,
  writeBotConfig,
} from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const RUN_MS = 40_000;
const INTERVAL_MS = 250;

it('a flooding strategy is throttled to its share: polls keep their rate, the healthy one keeps trading', async () => {
  const time = virtualTime(Date.now());
  const venue = await startPaperVenue({
    port: 0,
    seed: 25,
    markets: FIXTURE_MARKETS,
    clock: time.now,
  });
  cleanups.push(() => venue.close());
  // Every request of the bot passes here, so the test knows when all of them are answered.
  const proxy = await startOrderProxy(venue.url, () => 'forward');
  cleanups.push(() => proxy.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const path = await writeBotConfig(dir, {
    writeUrl: proxy.url,
    poll: { intervalMs: INTERVAL_MS, quotes: true },
    execution: { rateLimit: { requests: 20, perMs: 1000 }, countPolls: true },
    risk: { maxOrderNotional: '1000000', maxPositionNotional: '100000000' },
    strategies: [
      {
        module: strategyModule('fixtures/flood'),
        markets: ['ETH-USD'],
        params: { count: 10_000, amount: '0.001' },
      },
      {
        module: strategyModule('fixtures/raw-intents'),
        markets: ['ETH-USD'],
        params: { intents: [{ symbol: 'ETH-USD', side: 'BUY', type: 'MARKET', amount: '0.001' }] },
      },
    ],
  });
  const env = { [WALLET_ENV]: generatePrivateKey() };
  const config = await loadConfig(path, { env });
  const logs = captureLogs();
  const snapshots: Snapshot[] = [];
  const bot = await startBot({
    config,
    env,
    log: logs.log,
    projectRoot: ROOT,
    now: time.now,
    // Virtual time: durations pass on it too (the wall clock is not stepped).
    monotonic: time.now,
    sleep: time.sleep,
    onSnapshot: (snapshot) => snapshots.push(snapshot),
  });
  const controller = new AbortController();
  const running = bot.run(controller.signal);
  const startedAt = time.now();

  // Time moves to the next wake-up only once every request the bot made is answered.
  await runVirtualUntil(time, proxy, startedAt + RUN_MS);
  controller.abort();
  await running;
  const budget = bot.status().rateBudget as RateBudgetStatus;
  const summary = await bot.shutdown();

  const fresh = snapshots.filter((snapshot) => !snapshot.stale).length;
  const healthy = readJournal(journalPath(dir)).filter((row) => row.strategy === 'raw-intents');
  // 40 s at 250 ms: 160 polls. Polls keep their rate…
  expect(budget.skippedPolls).toBe(0);
  expect(fresh).toBeGreaterThanOrEqual(150);
  // …the healthy strategy places an order on (almost) every one of them…
  expect(healthy.length).toBeGreaterThanOrEqual(fresh - 5);
  expect(healthy.filter((row) => row.state === 'FILLED').length).toBeGreaterThanOrEqual(
    healthy.length - 5,
  );
  // …and the flood is refused past its share, counted, and said once per episode.
  const throttled = summary.stats.refusalsByStrategy.flood?.STRATEGY_THROTTLED ?? 0;
  expect(throttled).toBeGreaterThan(1_000_000);
  expect(summary.stats.refusalsByStrategy['raw-intents']?.STRATEGY_THROTTLED).toBeUndefined();
  const warnings = logs.withMessage('strategy flood asks for more orders than its share');
  expect(warnings.length).toBeGreaterThanOrEqual(1);
  expect(warnings.length).toBeLessThan(5);
}, 240_000);
