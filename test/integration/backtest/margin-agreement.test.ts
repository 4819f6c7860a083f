/**
 * Issue 29, "paper venue and backtest agree on every margin refusal and liquidation for the same
 * prices": a bot on the paper venue (HTTP, port 0, an injected clock) whose engine replays the
 * prices of margin.test.ts records what it sees while the doubling strategy trades its first 9
 * snapshots (then holds); the backtest of that recording refuses the same orders for margin,
 * fills the same ones, and liquidates the same position at the same price, mark and fee as the
 * paper venue did.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { RecordingWriter } from '../../../src/market/recording/index.ts';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { startBot } from '../../../src/runtime/bot.ts';
import { DEFAULT_SIM_MARKETS, SimEngine } from '../../../src/sim/index.ts';
import { virtualTime } from '../../helpers/virtual-time.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';
import {
  captureLogs,
  ROOT,
  startOrderProxy,
  strategyModule,
  waitFor,
  WALLET_ENV,
} from '../runtime/harness.ts';
import { settle } from '../../helpers/manual-timer.ts';
import { MARGIN_PRICES } from './margin-prices.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});
const tempDir = tempDirs('quanta-margin-agree-');

it('paper venue and backtest refuse and liquidate alike on the same prices', async () => {
  const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
  const time = virtualTime(T0);
  const eth = DEFAULT_SIM_MARKETS.filter((m) => m.symbol === 'ETH-USD');
  const engine = new SimEngine({ clock: time.now, markets: eth, initialBalance: '1000' });
  const quoteAt = (index: number) => {
    const [bid, ask] = MARGIN_PRICES[Math.min(index, MARGIN_PRICES.length - 1)] ?? ['0', '0'];
    return {
      marketId: 1,
      timestamp: time.now(),
      bids: [{ price: bid, quantity: '1000' }],
      asks: [{ price: ask, quantity: '1000' }],
    };
  };
  engine.setExternalQuotes([quoteAt(0)]);
  const venue = await startPaperVenue({ port: 0, seed: 29, clock: time.now, engine });
  cleanups.push(() => venue.close());
  const proxy = await startOrderProxy(venue.url, () => 'forward');
  cleanups.push(() => proxy.close());
  const dir = tempDir();
  const path = join(dir, 'bot.yaml');
  await writeFile(
    path,
    `venue: { writeUrl: '${proxy.url}', readUrl: '${proxy.url}' }
wallet: { privateKeyEnv: ${WALLET_ENV} }
state: { dir: '${join(dir, 'state')}' }
poll: { intervalMs: 1000, quotes: true }
execution: { countPolls: false }
risk: { maxOrderNotional: '100000000', maxPositionNotional: '100000000', capital: '1000' }
backtest: { startingCapital: '1000', latencyMs: 0 }
strategies:
  - module: ${strategyModule('fixtures/doubler')}
    markets: [ETH-USD]
    params: { start: '0.5', snapshots: 9 }
`,
  );
  const writer = await RecordingWriter.open({ dir: join(dir, 'rec'), source: 'margin test' });
  const env = { [WALLET_ENV]: generatePrivateKey() };
  const config = await loadConfig(path, { env });
  const live = captureLogs();
  let polled = 0;
  const bot = await startBot({
    config,
    env,
    log: live.log,
    projectRoot: ROOT,
    now: time.now,
    monotonic: time.now,
    sleep: time.sleep,
    onSnapshot: (snapshot) => {
      polled += 1;
      writer.write(snapshot);
    },
  });
  const controller = new AbortController();
  const running = bot.run(controller.signal);
  // One price per poll: the engine's quote changes just before each poll reads it.
  let shown = 0;
  while (polled < MARGIN_PRICES.length - 1) {
    await waitFor(
      'the bot to wait for time',
      async () => {
        await settle();
        return proxy.inFlight() === 0 && time.sleepers() > 0;
      },
      30_000,
      1,
    );
    time.advance();
    if (polled > shown) {
      shown = polled;
      engine.setExternalQuotes([quoteAt(shown)]);
    }
  }
  controller.abort();
  await running;
  const summary = await bot.shutdown();
  await writer.close();

  const paperLiquidations = engine.liquidations();
  expect(paperLiquidations).toHaveLength(1);
  const trace = await runBacktest({ config, data: join(dir, 'rec'), projectRoot: ROOT });
  expect(trace.refusals).toEqual(summary.stats.refusals);
  expect(summary.stats.refusals.INSUFFICIENT_MARGIN ?? 0).toBeGreaterThan(0);
  const backtestFills = trace.fills.filter((f) => f.orderId !== 0);
  const accountId = paperLiquidations[0]?.accountId ?? '';
  const paperFills = [];
  for (let id = 1; engine.getOrder(accountId, id) !== undefined; id++) {
    const order = engine.getOrder(accountId, id);
    if (order !== undefined && order.totalFilledX18 > 0n)
      paperFills.push([order.side, order.totalFilledX18, order.avgFillPriceX18, order.feesPaidX18]);
  }
  expect(paperFills).toHaveLength(4);
  expect(backtestFills.map((f) => [f.side, f.amountX18, f.priceX18, f.feeX18])).toEqual(paperFills);
  expect((trace.liquidations ?? []).map(({ t: _t, ...rest }) => rest)).toEqual(
    paperLiquidations.map(({ accountId: _a, at: _at, ...rest }) => rest),
  );
}, 120_000);
