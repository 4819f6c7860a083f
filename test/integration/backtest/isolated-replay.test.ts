// Issue 25, strategy isolation: a strategy run with `isolate: worker` is the same strategy. A
// backtest of the mean-reversion example (quotes, state, plots, positions), dca (the store,
// orders), bar-log (bars built by the host, onBar in the worker), indicator-plot (indicators
// kept by the host, read by the worker) and position-facts (ctx.equity, ctx.freeMargin,
// ctx.liquidationPrice asked of the host), once in the bot's thread
// and once each in a worker thread, gives the same intents, orders, fills, plots and refusals:
// snapshots in, intents out, answers awaited in config order, so the run stays replayable.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import type { BacktestTrace } from '../../../src/backtest/trace.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

// A deadline far beyond one round trip to the worker, on a machine shared with other tests.
const isolated = (isolate: boolean) =>
  isolate ? `\n    isolate: worker\n    heapLimitMb: 64\n    timeoutMs: 20000` : '';

const yaml = (isolate: boolean) => `
venue: { writeUrl: embedded, readUrl: embedded }
risk: { maxOrderNotional: '5000', maxPositionNotional: '20000' }
strategies:
  - module: strategies/mean-reversion.ts
    markets: [BTC-USD, SOL-USD]
    params: { window: 8, entryZ: 1.2, exitZ: 0.3, orderAmount: '0.01', maxPosition: '0.03' }${isolated(isolate)}
  - module: strategies/dca.ts
    markets: [ETH-USD]
    params: { quoteAmount: '100', everySnapshots: 5 }${isolated(isolate)}
  - module: test/fixtures/strategies/bar-log.ts
    markets: [ETH-USD, BTC-USD]
    params: { tradeEvery: 2 }${isolated(isolate)}
  - module: test/fixtures/strategies/indicator-plot.ts
    markets: [ETH-USD]${isolated(isolate)}
  - module: test/fixtures/strategies/position-facts.ts
    markets: [ETH-USD]${isolated(isolate)}
`;

async function backtest(isolate: boolean): Promise<BacktestTrace> {
  return await runBacktest({
    config: parseConfig(yaml(isolate), 'bot.yaml', ROOT),
    data: join(ROOT, 'test/fixtures/recording'),
    projectRoot: ROOT,
  });
}

it('a backtest with isolate: worker replays exactly as one without', async () => {
  const inThread = await backtest(false);
  const inWorkers = await backtest(true);
  expect(inThread.orders.length).toBeGreaterThan(10);
  expect(inThread.plots.length).toBeGreaterThan(100);
  expect(inThread.orders.filter((o) => o.strategy === 'bar-log').length).toBeGreaterThan(2);
  // Indicators are kept by the host and read by the worker through ctx.indicators.
  for (const name of ['ema', 'rsi', 'macd'])
    expect(inThread.plots.filter((p) => p.name.startsWith(name)).length).toBeGreaterThan(5);
  // The account's facts (issue 29) are asked of the main thread through ctx (no liquidation
  // price here: 100000 of capital covers these longs down to 0).
  for (const name of ['equity', 'free'])
    expect(inThread.plots.filter((p) => p.name === name).length).toBeGreaterThan(5);
  expect(inWorkers.intents).toEqual(inThread.intents);
  expect(inWorkers.orders).toEqual(inThread.orders);
  expect(inWorkers.fills).toEqual(inThread.fills);
  // Each strategy's plot series point by point. Across strategies, points of one instant may
  // interleave differently: a worker's plots reach the bot as messages (known gap, issue 25).
  const series = (trace: BacktestTrace) => {
    const byName = new Map<string, (typeof trace.plots)[number][]>();
    for (const point of trace.plots) {
      const key = `${point.strategy} ${point.name}`;
      byName.set(key, [...(byName.get(key) ?? []), point]);
    }
    return byName;
  };
  expect(series(inWorkers)).toEqual(series(inThread));
  expect(inWorkers.refusalsByStrategy).toEqual(inThread.refusalsByStrategy);
  expect(inWorkers.finalMarks).toEqual(inThread.finalMarks);
}, 120_000);
