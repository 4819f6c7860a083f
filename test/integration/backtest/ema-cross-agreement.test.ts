/**
 * Issue 27, "The example strategy runs on the embedded paper venue … and its backtest on a
 * recording of that run makes the same decisions": the shipped `strategies/ema-cross.ts` runs in
 * a bot on the paper venue (port 0, an injected clock that moves once the bot's requests are
 * answered) that records its snapshots; the backtest of that recording produces the same intents
 * (the strategy's entries and exits, and the framework's protective exits) in the same order, and
 * the same orders (market, side, amount, tag, reduce-only) in the same order.
 */
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { resolveFillModel } from '../../../src/backtest/fill-model.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../../src/config/index.ts';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import type { ProducedIntent } from '../../../src/stack/trading-session.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { RecordingWriter } from '../../../src/market/recording/index.ts';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { startBotWithParts } from '../../../src/runtime/bot.ts';
import { virtualTime } from '../../helpers/virtual-time.ts';
import {
  ROOT,
  runVirtualUntil,
  startOrderProxy,
  strategyModule,
  tempDir,
  WALLET_ENV,
  writeBotConfig,
} from '../runtime/harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const RUN_MS = 90 * 60_000;

const decisions = (list: readonly { seq: number; strategy: string; intent: unknown }[]) =>
  list.map(({ seq, strategy, intent }) => ({ seq, strategy, intent }));
const orders = (list: readonly OrderRecord[]) =>
  list.map(({ marketId, side, type, amountX18, tag, reduceOnly, state, avgFillPriceX18 }) => ({
    avgFillPriceX18,
    marketId,
    side,
    type,
    amountX18,
    tag,
    reduceOnly,
    state,
  }));

it('the example ema-cross strategy on the paper venue, and the backtest of its recording, decide the same', async () => {
  const time = virtualTime(Date.UTC(2026, 0, 5, 12, 0, 3));
  const venue = await startPaperVenue({ port: 0, seed: 27, clock: time.now, volatilityBps: 20 });
  cleanups.push(() => venue.close());
  const proxy = await startOrderProxy(venue.url, () => 'forward');
  cleanups.push(() => proxy.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const path = await writeBotConfig(dir, {
    writeUrl: proxy.url,
    poll: { intervalMs: 5000, quotes: true },
    risk: { maxOrderNotional: '1000000', maxPositionNotional: '100000000' },
    strategies: [
      {
        module: strategyModule('ema-cross'),
        markets: ['ETH-USD', 'BTC-USD'],
        // Short periods and a tight stop, so 90 minutes of 1-minute bars cross and stop out.
        params: {
          fast: 3,
          slow: 8,
          rsiPeriod: 5,
          rsiMax: 90,
          stopLoss: '0.2%',
          takeProfit: '0.4%',
        },
      },
    ],
  });
  const writer = await RecordingWriter.open({ dir: join(dir, 'rec'), source: 'ema-cross test' });
  const env = { [WALLET_ENV]: generatePrivateKey() };
  const config = await loadConfig(path, { env });
  const live: ProducedIntent[] = [];
  const bot = await startBotWithParts({
    config,
    env,
    log: silentLogger,
    projectRoot: ROOT,
    now: time.now,
    monotonic: time.now,
    sleep: time.sleep,
    onSnapshot: (snapshot) => writer.write(snapshot),
    onIntent: (produced) => live.push(produced),
  });
  const controller = new AbortController();
  const running = bot.run(controller.signal);
  await runVirtualUntil(time, proxy, time.now() + RUN_MS);
  controller.abort();
  await running;
  const liveOrders = bot.journal.all();
  await bot.shutdown();
  await writer.close();

  const trace = await runBacktest({
    config,
    data: join(dir, 'rec'),
    projectRoot: ROOT,
    log: silentLogger,
    // Live, an order meets the venue's book at the virtual instant of the snapshot that made it
    // (the clock waits for the answer): the backtest fills it at that snapshot's recorded book
    // too, so entry prices, and the percentage stops and targets made from them, are the same.
    fillModel: { ...resolveFillModel(config.backtest), latencyMs: 0 },
  });

  // It traded: entries on an upward cross and exits, its own or the framework's stop/target.
  const tags = liveOrders.map((order) => order.tag ?? '');
  expect(tags.filter((tag) => tag === 'cross-up').length).toBeGreaterThanOrEqual(2);
  expect(tags.some((tag) => tag === 'cross-down' || tag.startsWith('exit:'))).toBe(true);
  expect(decisions(trace.intents)).toEqual(decisions(live));
  expect(liveOrders.length).toBeGreaterThanOrEqual(3);
  expect(orders(trace.orders)).toEqual(orders(liveOrders));
}, 240_000);
