// `quanta compare` backtests a live run's recording with each order arriving as late as its live
// twin did (issue 24): live MARKET orders were answered in 12-37 ms while the recording's
// snapshots are a second apart. With the fill model's "one snapshot later" the backtest's first
// BUY met the next, thin book, filled a part, and the strategy (the one `quanta init` writes,
// which sells back what it holds) then sold another amount than live did: orders stopped pairing.
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../src/backtest/compare.ts';
import { liveLatencies } from '../../../src/backtest/live-latency.ts';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { parseDecimalToX18 } from '../../../src/money/index.ts';
import { testMarket } from '../../helpers/markets.ts';
import { buyHoldConfig, ROOT } from '../../helpers/strategy-harness.ts';
import { order } from '../../unit/backtest/trace-fixtures.ts';

const T0 = Date.parse('2026-03-02T10:00:00Z');
const at = (seq: number): number => T0 + (seq - 1) * 1000;
const x18 = (text: string): bigint => parseDecimalToX18(text);

/** Nine snapshots a second apart; at seq 2 the ask is thin (0.004 ETH at 3010). */
function snapshots(): Snapshot[] {
  const eth = testMarket();
  return Array.from({ length: 9 }, (_, i) => {
    const seq = i + 1;
    const asks =
      seq === 2 ? [{ price: '3010', quantity: '0.004' }] : [{ price: '3000', quantity: '100' }];
    return createSnapshot({
      seq,
      takenAt: at(seq),
      markets: [eth],
      quotes: [
        { marketId: 1, timestamp: at(seq), bids: [{ price: '2999', quantity: '100' }], asks },
      ],
    });
  });
}

/** The live run's journal: what `quanta init`'s strategy did, each answered within 40 ms. */
function liveJournal(): OrderRecord[] {
  const row = (id: number, seq: number, side: 'BUY' | 'SELL', price: string, latency: number) =>
    order({
      id,
      strategy: 'my-strategy',
      side,
      amountX18: x18('0.01'),
      reduceOnly: side === 'SELL',
      createdAt: at(seq) + 3,
      updatedAt: at(seq) + 3 + latency,
      filledX18: x18('0.01'),
      avgFillPriceX18: x18(price),
      // The market's taker fee, 5 bps.
      feesX18: (x18(price) * x18('0.01') * 5n) / 10n ** 22n,
    });
  return [
    row(1, 1, 'BUY', '3000', 20),
    row(2, 4, 'SELL', '2999', 15),
    row(3, 5, 'BUY', '3000', 37),
    row(4, 8, 'SELL', '2999', 12),
    // Bought on the last snapshot, as the run stopped.
    row(5, 9, 'BUY', '3000', 25),
  ];
}

async function compare(live: readonly OrderRecord[], useLiveLatencies: boolean) {
  const config = buyHoldConfig(3, 'compare-latency.yaml');
  const latencies = useLiveLatencies ? liveLatencies(live) : undefined;
  const trace = await runBacktest({
    config,
    data: 'recorded',
    snapshots: snapshots(),
    projectRoot: ROOT,
    keepTimeline: true,
    ...(latencies === undefined
      ? {}
      : {
          orderLatency: (o: OrderRecord, from: number, before: number) =>
            latencies.latencyOf(o, from, before),
        }),
  });
  const net = computeMetrics(trace).total.netPnl;
  const netX18 = net.startsWith('-') ? -x18(net.slice(1)) : x18(net);
  return compareRuns(live, trace, netX18, 'journal.sqlite', {
    ...(latencies === undefined ? {} : { latency: latencies.describe() }),
  });
}

describe('quanta compare with the live run latencies', () => {
  it('pairs every order: each backtest order meets the book its live twin met', async () => {
    const report = await compare(liveJournal(), true);
    expect(report.totals).toEqual({
      liveOrders: 5,
      backtestOrders: 5,
      paired: 5,
      liveOnly: 0,
      backtestOnly: 0,
      // Live: two round trips of 0.01 bought at 3000 and sold at 2999 (5 bps taker fee each
      // way, 0.015 and 0.014995), and the last BUY of 0.01 at 3000 (fee 0.015) marked at the
      // final mid 2999.5: 2 × (−0.01 − 0.029995) − 0.005 − 0.015.
      livePnl: '-0.09999',
      // The backtest's last BUY, sent on the last snapshot, reaches no book: refused.
      backtestPnl: '-0.07999',
      pnlGap: '-0.02',
      gap: { slippage: '0', fees: '-0.015', missed: '0', extra: '-0.005', total: '-0.02' },
      rounding: '0',
      meanAbsSlippageBps: '0.0000',
    });
    // Each backtest twin was answered as late as its live order: 20, 15, 37 and 12 ms (the
    // last was never sent on: no snapshot followed).
    expect(
      report.orders.map((o) => [
        o.seq,
        o.side,
        o.backtest?.state,
        o.backtest?.filled,
        o.live?.latencyMs,
        o.backtest?.latencyMs,
      ]),
    ).toEqual([
      [1, 'BUY', 'FILLED', '0.01', 20, 20],
      [4, 'SELL', 'FILLED', '0.01', 15, 15],
      [5, 'BUY', 'FILLED', '0.01', 37, 37],
      [8, 'SELL', 'FILLED', '0.01', 12, 12],
      [9, 'BUY', 'REJECTED', '0', 25, 0],
    ]);
    expect(report.run.fillModel).toMatch(
      /^latency: each order's as the live journal measured it \(4 of 4 orders; the others 20 ms, the median of 5\), meeting the book of the last snapshot at or before its arrival;/,
    );
  });

  it('one snapshot later (what compare did before) meets the thin book: orders stop pairing', async () => {
    const report = await compare(liveJournal(), false);
    expect(report.totals).toMatchObject({ paired: 4, liveOnly: 1, backtestOnly: 1 });
    // The first BUY filled 0.004 at 3010, so the strategy sold 0.004 at seq 4, not 0.01.
    expect(
      report.orders.map((o) => [
        o.seq,
        o.side,
        o.amount,
        o.live?.orderId ?? null,
        o.backtest?.filled ?? null,
      ]),
    ).toEqual([
      [1, 'BUY', '0.01', 1, '0.004'],
      [4, 'SELL', '0.01', 2, null],
      [5, 'BUY', '0.01', 3, '0.01'],
      [8, 'SELL', '0.01', 4, '0.01'],
      [9, 'BUY', '0.01', 5, '0'],
      [4, 'SELL', '0.004', null, '0.004'],
    ]);
  });
});
