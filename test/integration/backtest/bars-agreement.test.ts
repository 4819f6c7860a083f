/**
 * Issue 27, "Live, paper and backtest build the same bars from the same snapshots": a bot on
 * the paper venue (port 0, an injected clock that moves once its requests are answered) records
 * its snapshots while a strategy logs every bar of three timeframes it is given and trades now
 * and then (so bars carry its own volume); the backtest of that recording gives the strategy the
 * very same bars.
 */
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { startBot } from '../../../src/runtime/bot.ts';
import { RecordingWriter } from '../../../src/market/recording/index.ts';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { virtualTime } from '../../helpers/virtual-time.ts';
import {
  captureLogs,
  ROOT,
  runVirtualUntil,
  startOrderProxy,
  strategyModule,
  tempDir,
  WALLET_ENV,
  writeBotConfig,
  type LogRecord,
} from '../runtime/harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const RUN_MS = 5 * 60_000;

const barsOf = (records: readonly LogRecord[]) =>
  records.filter((record) => record.msg === 'bar closed').map((record) => record.bar);

it('a paper run and the backtest of its recording give a strategy the same bars, for 3 timeframes', async () => {
  // A few seconds past a minute boundary, so the run closes whole bars of every timeframe.
  const time = virtualTime(Date.UTC(2026, 0, 5, 12, 0, 3));
  const venue = await startPaperVenue({ port: 0, seed: 27, clock: time.now, volatilityBps: 20 });
  cleanups.push(() => venue.close());
  const proxy = await startOrderProxy(venue.url, () => 'forward');
  cleanups.push(() => proxy.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const path = await writeBotConfig(dir, {
    writeUrl: proxy.url,
    poll: { intervalMs: 1000, quotes: true },
    risk: { maxOrderNotional: '1000000', maxPositionNotional: '100000000' },
    strategies: [
      { module: strategyModule('fixtures/bar-log'), markets: ['ETH-USD', 'BTC-USD'], params: {} },
    ],
  });
  const writer = await RecordingWriter.open({ dir: join(dir, 'rec'), source: 'bars test' });
  const live = captureLogs();
  const env = { [WALLET_ENV]: generatePrivateKey() };
  const config = await loadConfig(path, { env });
  const bot = await startBot({
    config,
    env,
    log: live.log,
    projectRoot: ROOT,
    now: time.now,
    monotonic: time.now,
    sleep: time.sleep,
    onSnapshot: (snapshot) => writer.write(snapshot),
  });
  const controller = new AbortController();
  const running = bot.run(controller.signal);
  await runVirtualUntil(time, proxy, time.now() + RUN_MS);
  controller.abort();
  await running;
  await bot.shutdown();
  await writer.close();

  const replay = captureLogs();
  await runBacktest({ config, data: join(dir, 'rec'), projectRoot: ROOT, log: replay.log });

  const paper = barsOf(live.records);
  const backtest = barsOf(replay.records);
  const count = (timeframe: string) =>
    paper.filter((bar) => (bar as { timeframe: string }).timeframe === timeframe).length;
  // 5 minutes of two markets: about 60 bars of 5 s, 20 of 15 s and 5 of 1 m per market.
  expect(count('5s')).toBeGreaterThanOrEqual(2 * 55);
  expect(count('15s')).toBeGreaterThanOrEqual(2 * 18);
  expect(count('1m')).toBeGreaterThanOrEqual(2 * 4);
  // The strategy traded, and its fills show as bar volume.
  expect(paper.some((bar) => (bar as { volume: string }).volume !== '0')).toBe(true);
  expect(backtest).toEqual(paper);
}, 120_000);
