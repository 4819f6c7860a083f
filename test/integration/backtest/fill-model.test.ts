// The fill model on hand-built recordings: which snapshot's book an order meets (latency), the
// exact VWAP and size of a walk through the recorded depth, LIMIT orders filling only once the
// book crosses them, slippage, fee override and starting capital.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { roundTrips } from '../../../src/backtest/round-trips.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import type { BacktestTrace } from '../../../src/backtest/trace.ts';
import { parseConfig } from '../../../src/config/index.ts';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import { RecordingWriter } from '../../../src/market/recording/index.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import { formatX18, parseDecimalToX18 } from '../../../src/money/index.ts';
import { testMarket } from '../../helpers/markets.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

const T0 = Date.parse('2026-03-02T10:00:00Z');
const STEP = 1000;

/** One side of a book: `[price, quantity]` pairs, best first. */
type Side = readonly (readonly [string, string])[];

// Snapshot n (1-based) is taken at T0 + (n - 1) s. Each has its own asks, so the fill price
// says which book the order met.
const BOOKS: readonly { bids: Side; asks: Side }[] = [
  { bids: [['99', '10']], asks: [['100', '10']] },
  {
    bids: [
      ['100', '1'],
      ['99.5', '1'],
    ],
    asks: [
      ['101', '1'],
      ['102', '1'],
    ],
  },
  { bids: [['101', '10']], asks: [['103', '10']] },
  { bids: [['98', '10']], asks: [['98.5', '0.4']] },
  { bids: [['97', '10']], asks: [['97.5', '10']] },
];

let dir: string;
let recording: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quanta-fill-model-'));
  recording = join(dir, 'rec');
  const writer = await RecordingWriter.open({ dir: recording, source: 'fill model test' });
  BOOKS.forEach((book, i) => {
    writer.write(
      createSnapshot({
        seq: i + 1,
        takenAt: T0 + i * STEP,
        markets: [testMarket()],
        quotes: [
          {
            marketId: 1,
            timestamp: T0 + i * STEP,
            bids: book.bids.map(([price, quantity]) => ({ price, quantity })),
            asks: book.asks.map(([price, quantity]) => ({ price, quantity })),
          },
        ],
      }),
    );
  });
  await writer.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Intent {
  readonly side: 'BUY' | 'SELL';
  readonly type?: 'MARKET' | 'LIMIT';
  readonly amount: string;
  readonly price?: string;
}

/** Backtests the scripted strategy emitting `intents` at snapshot `fromSeq`. */
async function run(
  intents: readonly Intent[],
  options: { fromSeq?: number; backtest?: string } = {},
): Promise<BacktestTrace> {
  const yaml = `
venue: { writeUrl: embedded, readUrl: embedded }
risk: { maxOrderNotional: '100000', maxPositionNotional: '1000000' }
${options.backtest === undefined ? '' : `backtest: ${options.backtest}`}
strategies:
  - module: test/fixtures/strategies/scripted.ts
    markets: [ETH-USD]
    params:
      fromSeq: ${options.fromSeq ?? 1}
      intents: ${JSON.stringify(intents.map((intent) => ({ symbol: 'ETH-USD', ...intent })))}
`;
  const config = parseConfig(yaml, 'fill-model.yaml', ROOT);
  return runBacktest({ config, data: recording, projectRoot: ROOT });
}

function only(trace: BacktestTrace): OrderRecord {
  expect(trace.orders).toHaveLength(1);
  return trace.orders[0] as OrderRecord;
}

/** What the journal says became of an order, in decimal strings. */
function outcome(order: OrderRecord) {
  return {
    state: order.state,
    filled: formatX18(order.filledX18),
    avgFillPrice: order.avgFillPriceX18 === null ? null : formatX18(order.avgFillPriceX18),
    fee: order.feesX18 === null ? null : formatX18(order.feesX18),
    filledAt: order.updatedAt - T0,
  };
}

/** `amount × price × fraction` of each fill, each rounded up like the venue's fee. */
function fee(...fills: readonly [string, string][]): string {
  const fraction = testMarket().takerFeeX18;
  let total = 0n;
  for (const [amount, price] of fills) {
    const x54 = parseDecimalToX18(amount) * parseDecimalToX18(price) * fraction;
    const scale = 10n ** 36n;
    total += (x54 + scale - 1n) / scale;
  }
  return formatX18(total);
}

describe('latency: which snapshot an order meets', () => {
  it('by default an order meets the next snapshot, never the one that produced it', async () => {
    // Snapshot 1 asks 100; snapshot 2 asks 101 (1) then 102 (1).
    const order = only(await run([{ side: 'BUY', amount: '1.5' }]));
    expect(order.createdAt).toBe(T0);
    expect(outcome(order)).toEqual({
      state: 'FILLED',
      filled: '1.5',
      // (1 × 101 + 0.5 × 102) / 1.5, floored at 18 places.
      avgFillPrice: '101.333333333333333333',
      fee: fee(['1', '101'], ['0.5', '102']),
      filledAt: STEP,
    });
  });

  it('latencyMs: 0, written explicitly, fills at the snapshot that produced the order', async () => {
    const order = only(
      await run([{ side: 'BUY', amount: '1.5' }], { backtest: '{ latencyMs: 0 }' }),
    );
    expect(outcome(order)).toMatchObject({ state: 'FILLED', avgFillPrice: '100', filledAt: 0 });
  });

  it('a latency below one interval still means the next snapshot', async () => {
    const order = only(await run([{ side: 'BUY', amount: '1' }], { backtest: '{ latencyMs: 1 }' }));
    expect(outcome(order)).toMatchObject({ avgFillPrice: '101', filledAt: STEP });
  });

  it('the first snapshot at or after send time + latency: exactly on a snapshot', async () => {
    const order = only(
      await run([{ side: 'BUY', amount: '1' }], { backtest: `{ latencyMs: ${2 * STEP} }` }),
    );
    expect(outcome(order)).toMatchObject({ avgFillPrice: '103', filledAt: 2 * STEP });
  });

  it('the first snapshot at or after send time + latency: between two snapshots', async () => {
    const trace = await run([{ side: 'BUY', amount: '1' }], { backtest: '{ latencyMs: 1500 }' });
    const order = only(trace);
    expect(outcome(order)).toMatchObject({ avgFillPrice: '103', filledAt: 2 * STEP });
    // In flight at snapshot 2: no position yet; filled by snapshot 3.
    const positions = trace.samples.map((s) => formatX18(s.markets[0]?.positionX18 ?? 0n));
    expect(positions).toEqual(['0', '0', '1', '1', '1']);
  });

  it('an order still on its way when the recording ends never fills', async () => {
    const order = only(await run([{ side: 'BUY', amount: '1' }], { fromSeq: 5 }));
    expect(order.state).toBe('REJECTED');
    expect(order.filledX18).toBe(0n);
    expect(order.error).toContain('recording ended before this order reached the venue');
  });
});

describe('depth: walking the recorded book level by level', () => {
  it('a MARKET order larger than the depth fills what is there; the rest is cancelled', async () => {
    // Snapshot 2 asks: 1 at 101, 1 at 102; the order wants 3.
    const order = only(await run([{ side: 'BUY', amount: '3' }]));
    expect(outcome(order)).toEqual({
      state: 'CANCELLED',
      filled: '2',
      avgFillPrice: '101.5',
      fee: fee(['1', '101'], ['1', '102']),
      filledAt: STEP,
    });
  });

  it('a SELL walks the bids best first', async () => {
    // Snapshot 2 bids: 1 at 100, 1 at 99.5.
    const order = only(await run([{ side: 'SELL', amount: '1.25' }]));
    expect(outcome(order)).toMatchObject({
      state: 'FILLED',
      filled: '1.25',
      // (1 × 100 + 0.25 × 99.5) / 1.25
      avgFillPrice: '99.9',
    });
  });
});

describe('LIMIT orders rest and fill only when the recorded book crosses them', () => {
  it('a BUY at 99 waits through asks of 101 and 103, then fills when asks reach 98.5', async () => {
    const trace = await run([{ side: 'BUY', type: 'LIMIT', amount: '1', price: '99' }]);
    const order = only(trace);
    // Snapshot 4 offers 0.4 at 98.5 (crosses): filled at its own price, as maker; snapshot 5
    // (asks 97.5) fills the rest.
    expect(outcome(order)).toMatchObject({
      state: 'FILLED',
      filled: '1',
      avgFillPrice: '99',
      filledAt: 4 * STEP,
    });
    const positions = trace.samples.map((s) => formatX18(s.markets[0]?.positionX18 ?? 0n));
    expect(positions).toEqual(['0', '0', '0', '0.4', '1']);
  });

  it('a LIMIT that crosses when it arrives takes what crosses at once, then rests', async () => {
    // Arrives at snapshot 2 (asks 101, 102): a BUY limited at 101.5 takes only the 101 level
    // there, rests, and fills its other 1 at its own 101.5 once asks fall (snapshots 4 and 5).
    const trace = await run([{ side: 'BUY', type: 'LIMIT', amount: '2', price: '101.5' }], {
      backtest: '{ latencyMs: 500 }',
    });
    const positions = trace.samples.map((s) => formatX18(s.markets[0]?.positionX18 ?? 0n));
    expect(positions).toEqual(['0', '1', '1', '1.4', '2']);
    expect(outcome(only(trace))).toMatchObject({
      state: 'FILLED',
      filled: '2',
      avgFillPrice: '101.25',
      filledAt: 4 * STEP,
    });
  });

  it("the trace's fills are each at its own price: a trade's PnL adds up to the realized PnL", async () => {
    // A MARKET BUY of 2 meets snapshot 2 (asks 101, 102): 2 at 101.5 on average. A SELL LIMIT
    // of 2 at 99.75, sent with it, takes the 100 bid at once (taker) and rests; snapshot 3's
    // bids of 101 fill its other 1 at its own 99.75 (maker). The portfolio books that second
    // fill at 99.75; the trace said 99.875, the order's average, and so did the trade built
    // from it.
    const trace = await run(
      [
        { side: 'BUY', amount: '2' },
        { side: 'SELL', type: 'LIMIT', amount: '2', price: '99.75' },
      ],
      { backtest: '{ latencyMs: 500 }' },
    );
    const fills = trace.fills.map((fill) => [
      fill.side,
      formatX18(fill.amountX18),
      formatX18(fill.priceX18),
    ]);
    expect(fills).toEqual([
      ['BUY', '2', '101.5'],
      ['SELL', '1', '100'],
      ['SELL', '1', '99.75'],
    ]);
    const metrics = computeMetrics(trace);
    expect(metrics.total.realizedPnl).toBe('-3.25');
    const trips = roundTrips(trace.fills);
    expect(trips).toHaveLength(1);
    expect(formatX18(trips[0]?.pnlX18 ?? 0n)).toBe(metrics.total.realizedPnl);
    expect(formatX18(trips[0]?.exitPriceX18 ?? 0n)).toBe('99.875');
  });

  it('a SELL above every bid never fills', async () => {
    const order = only(await run([{ side: 'SELL', type: 'LIMIT', amount: '1', price: '150' }]));
    expect(outcome(order)).toMatchObject({ state: 'OPEN', filled: '0', avgFillPrice: null });
  });
});

describe('slippage, fees and starting capital', () => {
  it('slippageBps worsens every level the order meets, rounded against it', async () => {
    const order = only(
      await run([{ side: 'BUY', amount: '1.5' }], { backtest: '{ slippageBps: 100 }' }),
    );
    // 101 → 102.01, 102 → 103.02: (102.01 + 0.5 × 103.02) / 1.5
    expect(outcome(order)).toMatchObject({ avgFillPrice: '102.346666666666666666' });
  });

  it('takerFeeBps replaces the market fee in the fills and the PnL', async () => {
    const trace = await run([{ side: 'BUY', amount: '1' }], {
      backtest: "{ takerFeeBps: 10, makerFeeBps: 2, startingCapital: '2500' }",
    });
    // 0.1% of 1 × 101
    expect(outcome(only(trace))).toMatchObject({ fee: '0.101' });
    const metrics = computeMetrics(trace);
    expect(metrics.total.fees).toBe('0.101');
    expect(metrics.startingCapital).toBe('2500');
    expect(trace.fillModel).toEqual({
      latencyMs: null,
      slippageBps: '0',
      makerFeeBps: '2',
      takerFeeBps: '10',
      startingCapital: '2500',
    });
  });
});
