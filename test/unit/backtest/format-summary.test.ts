import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../src/backtest/format-summary.ts';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { demoTrace, trace } from './trace-fixtures.ts';

describe('formatSummary', () => {
  it('prints the run, aligned PnL and risk tables with totals, orders and refusals', () => {
    expect(formatSummary(computeMetrics(demoTrace()))).toMatchInlineSnapshot(`
      "Backtest: 60 snapshots, every 1000 ms, 2 markets, starting capital 100000
      Fill model: latency: one snapshot later; depth walked level by level (MARKET rest cancelled); slippage 0 bps; fees: the markets' own; starting capital 100000
      Net PnL 19.2236 (0.02%), final equity 100019.2236, max drawdown 69.2995 (0.07%)

      market   realized  unrealized    fees      net   turnover  position
      ETH-USD   12.7500     12.8750  2.2541  23.3709  4515.0000       0.5
      BTC-USD   -3.5000      0.0000  0.6473  -4.1473  1294.5000         0
      TOTAL      9.2500     12.8750  2.9014  19.2236  5809.5000

      market    max DD  max DD %   Sharpe  Sortino  win rate  in market  orders
      ETH-USD  65.0000     0.06%   373.44   768.73   100.00%     91.67%       3
      BTC-USD   5.0878     0.01%  -549.13  -569.34     0.00%     50.00%       2
      TOTAL    69.2995     0.07%   298.70   594.84    50.00%     91.67%       5

      strategy            net  return    fees  max DD %   Sharpe  win rate  orders  refused
      dca             23.3709   0.02%  2.2541     0.06%   373.44   100.00%       3        3
      mean-reversion  -4.1473   0.00%  0.6473     0.01%  -549.13     0.00%       2        1

      Orders (5): CANCELLED 1, FILLED 3, REJECTED 1
      Refusals (4): ABOVE_MAX_ORDER_NOTIONAL 1, BELOW_MIN_AMOUNT 3
      "
    `);
  });

  it('prints an empty run with only the total rows and n/a for undefined ratios', () => {
    expect(formatSummary(computeMetrics(trace({ snapshotIntervalMs: 0 })))).toMatchInlineSnapshot(`
      "Backtest: 0 snapshots, 0 markets, starting capital 100000
      Fill model: latency: one snapshot later; depth walked level by level (MARKET rest cancelled); slippage 0 bps; fees: the markets' own; starting capital 100000
      Net PnL 0.0000 (0.00%), final equity 100000.0000, max drawdown 0.0000 (0.00%)

      market  realized  unrealized    fees     net  turnover  position
      TOTAL     0.0000      0.0000  0.0000  0.0000    0.0000

      market  max DD  max DD %  Sharpe  Sortino  win rate  in market  orders
      TOTAL   0.0000     0.00%     n/a      n/a       n/a        n/a       0

      strategy     net  return    fees  max DD %  Sharpe  win rate  orders  refused
      dca       0.0000   0.00%  0.0000     0.00%     n/a       n/a       0        0

      Orders (0): none
      Refusals (0): none
      "
    `);
  });
});
