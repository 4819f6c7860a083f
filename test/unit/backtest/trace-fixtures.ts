// Hand-built backtest traces for metrics, report and browser tests.
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import { parseDecimalToX18 } from '../../../src/money/index.ts';
import { DEFAULT_FILL_MODEL } from '../../../src/backtest/fill-model.ts';
import type {
  BacktestTrace,
  FillEvent,
  MarketSample,
  PlotPoint,
  Sample,
} from '../../../src/backtest/trace.ts';

/** x18 of a signed decimal string (test convenience). */
export function x18(value: string): bigint {
  return value.startsWith('-') ? -parseDecimalToX18(value.slice(1)) : parseDecimalToX18(value);
}

/** One market's sample from decimal strings; omitted fields are 0. */
export function marketSample(
  marketId: number,
  values: Partial<Record<Exclude<keyof MarketSample, 'marketId'>, string>> = {},
): MarketSample {
  return {
    marketId,
    positionX18: x18(values.positionX18 ?? '0'),
    markPriceX18: x18(values.markPriceX18 ?? '0'),
    avgEntryPriceX18: x18(values.avgEntryPriceX18 ?? '0'),
    realizedPnlX18: x18(values.realizedPnlX18 ?? '0'),
    feesX18: x18(values.feesX18 ?? '0'),
    turnoverX18: x18(values.turnoverX18 ?? '0'),
  };
}

/**
 * Samples 1 s apart from t = 1_700_000_000_000, one per entry, all traded by the one instance
 * `strategy` (default dca).
 */
export function samples(
  perSample: readonly (readonly MarketSample[])[],
  stepMs = 1000,
  strategy = 'dca',
): Sample[] {
  return perSample.map((markets, i) => ({
    seq: i + 1,
    t: 1_700_000_000_000 + i * stepMs,
    markets,
    byStrategy: markets.length === 0 ? [] : [{ strategy, markets }],
    tops: [],
  }));
}

/** Samples of one market whose cumulative realized PnL follows `realized`. */
export function realizedPath(marketId: number, realized: readonly string[]): Sample[] {
  return samples(realized.map((r) => [marketSample(marketId, { realizedPnlX18: r })]));
}

let nextId = 1;

/** A journal row with sensible defaults. */
export function order(overrides: Partial<OrderRecord> = {}): OrderRecord {
  const id = overrides.id ?? nextId++;
  return {
    id,
    strategy: 'dca',
    tag: null,
    marketId: 1,
    symbol: 'ETH-USD',
    side: 'BUY',
    type: 'MARKET',
    amountX18: x18('0.5'),
    priceX18: 0n,
    reduceOnly: false,
    body: '{}',
    signature: '0x',
    signer: '0x0000000000000000000000000000000000000001',
    expiryTs: 1_700_000_060_000,
    referencePriceX18: x18('3000.5'),
    state: 'FILLED',
    venueOrderId: 1000 + id,
    filledX18: x18('0.5'),
    avgFillPriceX18: x18('3000.5'),
    fillPriceEstimated: false,
    feesX18: 0n,
    attempts: 1,
    createdAt: 1_700_000_000_000 + id * 1000,
    updatedAt: 1_700_000_000_000 + id * 1000,
    error: null,
    ...overrides,
  };
}

/** A fill event from decimal strings. */
export function fill(
  orderId: number,
  strategy: string,
  marketId: number,
  side: 'BUY' | 'SELL',
  amount: string,
  price: string,
  fee: string,
  t: number,
): FillEvent {
  return {
    orderId,
    strategy,
    marketId,
    side,
    amountX18: x18(amount),
    priceX18: x18(price),
    feeX18: x18(fee),
    t,
  };
}

/** A trace around `samples`; everything else defaults to a small two-market run. */
export function trace(overrides: Partial<BacktestTrace> = {}): BacktestTrace {
  const sampleList = overrides.samples ?? [];
  return {
    data: 'test/fixtures/recording.jsonl',
    strategies: ['dca'],
    symbols: new Map([
      [1, 'ETH-USD'],
      [3, 'BTC-USD'],
      [5, 'SOL-USD'],
    ]),
    precision: new Map([
      [1, { priceExpo: 2, amountExpo: 4 }],
      [3, { priceExpo: 1, amountExpo: 5 }],
      [5, { priceExpo: 6, amountExpo: 2 }],
    ]),
    snapshotIntervalMs: 1000,
    startedAt: sampleList[0]?.t ?? 0,
    endedAt: sampleList[sampleList.length - 1]?.t ?? 0,
    snapshots: sampleList.length,
    fillModel: DEFAULT_FILL_MODEL,
    samples: sampleList,
    orders: [],
    refusals: {},
    instances: [],
    refusalsByStrategy: {},
    config: {},
    finalMarks: new Map(),
    fills: [],
    plots: [],
    intents: [],
    ...overrides,
  };
}

/**
 * A small two-market run with a position that is opened, marked up and down and partly closed,
 * fees, a few orders in different states and some refusals: what the report tests draw.
 */
export function demoTrace(sampleCount = 60): BacktestTrace {
  const list: Sample[] = [];
  const plots: PlotPoint[] = [];
  for (let i = 0; i < sampleCount; i += 1) {
    const ethMark = 3000 + Math.round(40 * Math.sin(i / 5)) + i;
    const btcMark = 65000 - Math.round(300 * Math.cos(i / 7));
    const ethOpen = i >= 5;
    const btcOpen = i >= 10 && i < 40;
    const eth = marketSample(1, {
      positionX18: ethOpen ? (i >= 30 ? '0.5' : '1') : '0',
      markPriceX18: i === 20 ? '0' : `${ethMark}.25`,
      avgEntryPriceX18: ethOpen ? '3005.5' : '0',
      realizedPnlX18: i >= 30 ? '12.75' : '0',
      feesX18: ethOpen ? (i >= 30 ? '2.2541' : '1.502750') : '0',
      turnoverX18: ethOpen ? (i >= 30 ? '4515' : '3005.5') : '0',
    });
    const btc = marketSample(3, {
      positionX18: btcOpen ? '-0.01' : '0',
      markPriceX18: `${btcMark}.5`,
      avgEntryPriceX18: btcOpen ? '64900' : '0',
      realizedPnlX18: i >= 40 ? '-3.5' : '0',
      feesX18: i >= 10 ? (i >= 40 ? '0.6473' : '0.3245') : '0',
      turnoverX18: i >= 10 ? (i >= 40 ? '1294.5' : '649') : '0',
    });
    list.push({
      seq: i + 1,
      t: 1_700_000_000_000 + i * 1000,
      markets: [eth, btc],
      byStrategy: [
        { strategy: 'dca', markets: [eth] },
        { strategy: 'mean-reversion', markets: [btc] },
      ],
      tops: [
        { marketId: 1, bidX18: x18(`${ethMark}`), askX18: x18(`${ethMark}.5`) },
        { marketId: 3, bidX18: x18(`${btcMark}`), askX18: x18(`${btcMark + 1}`) },
      ],
    });
    plots.push({
      strategy: 'mean-reversion',
      name: 'mean',
      value: `${65000 - Math.round(100 * Math.cos(i / 7))}`,
      t: 1_700_000_000_000 + i * 1000,
    });
  }
  return trace({
    samples: list,
    strategies: ['dca', 'mean-reversion'],
    orders: [
      order({ id: 1, createdAt: list[5]?.t ?? 0, avgFillPriceX18: x18('3005.5') }),
      order({
        id: 2,
        strategy: 'mean-reversion',
        marketId: 3,
        symbol: 'BTC-USD',
        side: 'SELL',
        type: 'LIMIT',
        amountX18: x18('0.01'),
        priceX18: x18('64900'),
        filledX18: x18('0.01'),
        avgFillPriceX18: x18('64900'),
        createdAt: list[10]?.t ?? 0,
      }),
      order({
        id: 3,
        side: 'SELL',
        state: 'CANCELLED',
        filledX18: 0n,
        avgFillPriceX18: null,
        createdAt: list[20]?.t ?? 0,
        tag: 'take <profit> & "run"',
      }),
      order({
        id: 4,
        side: 'SELL',
        amountX18: x18('0.5'),
        avgFillPriceX18: x18('3031'),
        fillPriceEstimated: true,
        createdAt: list[30]?.t ?? 0,
      }),
      order({
        id: 5,
        strategy: 'mean-reversion',
        marketId: 3,
        symbol: 'BTC-USD',
        side: 'BUY',
        type: 'LIMIT',
        amountX18: x18('0.01'),
        priceX18: x18('65250'),
        state: 'REJECTED',
        filledX18: 0n,
        avgFillPriceX18: null,
        error: 'venue 400: market 3: price off grid </script><script>alert(1)</script>',
        createdAt: list[39]?.t ?? 0,
      }),
    ],
    refusals: { BELOW_MIN_AMOUNT: 3, ABOVE_MAX_ORDER_NOTIONAL: 1 },
    instances: [
      {
        name: 'dca',
        module: 'strategies/dca.ts',
        markets: ['ETH-USD'],
        params: { quoteAmount: '100' },
        paramsUsed: [
          { name: 'quoteAmount', value: '100', source: 'config' },
          { name: 'everySnapshots', value: 10, source: 'default' },
        ],
      },
      {
        name: 'mean-reversion',
        module: 'strategies/mean-reversion.ts',
        markets: ['BTC-USD'],
        params: { window: 4 },
      },
    ],
    refusalsByStrategy: {
      dca: { BELOW_MIN_AMOUNT: 3 },
      'mean-reversion': { ABOVE_MAX_ORDER_NOTIONAL: 1 },
    },
    // The fills behind the samples: dca buys 1 ETH and sells half; mean reversion shorts BTC
    // and buys it back.
    fills: [
      fill(1, 'dca', 1, 'BUY', '1', '3005.5', '1.50275', list[5]?.t ?? 0),
      fill(2, 'mean-reversion', 3, 'SELL', '0.01', '64900', '0.3245', list[10]?.t ?? 0),
      fill(4, 'dca', 1, 'SELL', '0.5', '3031', '0.75135', list[30]?.t ?? 0),
      fill(6, 'mean-reversion', 3, 'BUY', '0.01', '65250', '0.3228', list[40]?.t ?? 0),
    ],
    plots,
  });
}
