import { describe, expect, it } from 'vitest';
import { compareRuns, journalPnlX18 } from '../../../src/backtest/compare.ts';
import { samples, order, trace, x18 } from './trace-fixtures.ts';

const T = 1_700_000_000_000;

describe('compareRuns', () => {
  it('pairs by snapshot, strategy and intent, and splits the gap exactly', () => {
    const list = samples([[], [], []]);
    // Live: a BUY journaled 30 ms after snapshot 2 filled 1 at 101 (fee 0.1).
    const live = [
      order({
        id: 7,
        amountX18: x18('1'),
        createdAt: T + 1030,
        updatedAt: T + 1090,
        filledX18: x18('1'),
        avgFillPriceX18: x18('101'),
        feesX18: x18('0.1'),
      }),
    ];
    // Backtest: its twin filled half at 100 (fee 0.05); a SELL of 1 at 103 live never sent.
    const bt = [
      order({
        id: 1,
        amountX18: x18('1'),
        createdAt: T + 1000,
        updatedAt: T + 2000,
        filledX18: x18('0.5'),
        avgFillPriceX18: x18('100'),
        feesX18: x18('0.05'),
        state: 'CANCELLED',
      }),
      order({
        id: 2,
        side: 'SELL',
        amountX18: x18('1'),
        createdAt: T + 2000,
        updatedAt: T + 2000,
        filledX18: x18('1'),
        avgFillPriceX18: x18('103'),
        feesX18: x18('0.1'),
      }),
    ];
    const t = trace({ samples: list, orders: bt, finalMarks: new Map([[1, x18('102')]]) });
    const btPnl = journalPnlX18(bt, t.finalMarks);
    // 0.5 × (102 − 100) − 0.05 + 1 × (103 − 102) − 0.1
    expect(btPnl).toBe(x18('1.85'));
    const report = compareRuns(live, t, btPnl, 'journal.sqlite');
    expect(report.totals).toMatchObject({
      liveOrders: 1,
      backtestOrders: 2,
      paired: 1,
      liveOnly: 0,
      backtestOnly: 1,
      livePnl: '0.9',
      backtestPnl: '1.85',
      pnlGap: '-0.95',
      gap: { slippage: '-0.5', fees: '0.05', missed: '-1', extra: '0.5', total: '-0.95' },
      rounding: '0',
      meanAbsSlippageBps: '100.0000',
    });
    expect(
      report.orders.map((o) => [
        o.seq,
        o.live?.orderId ?? null,
        o.backtest?.orderId ?? null,
        o.slippageBps,
        o.sizeDiff,
      ]),
    ).toEqual([
      [2, 7, 1, '100.0000', '0.5'],
      [3, null, 2, null, '-1'],
    ]);
    expect(report.orders[0]?.live?.latencyMs).toBe(60);
  });

  it('leaves out live orders from outside the recording', () => {
    const t = trace({ samples: samples([[], []]) });
    const report = compareRuns([order({ createdAt: T - 5000 })], t, 0n, 'j');
    expect(report.run.liveOrdersOutside).toBe(1);
    expect(report.totals.liveOrders).toBe(0);
  });
});
