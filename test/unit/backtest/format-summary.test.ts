import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../src/backtest/format-summary.ts';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { demoTrace, trace } from './trace-fixtures.ts';

describe('formatSummary', () => {
  it('prints the run, aligned PnL and risk tables with totals, orders and refusals', () => {
    const run = demoTrace();
    expect(formatSummary(computeMetrics(run), run)).toMatchInlineSnapshot(`
      "Backtest: 60 snapshots, every 1000 ms, 2 markets, starting capital 100000
      Fill model: latency: one snapshot later; depth walked level by level (MARKET rest cancelled); slippage 0 bps; fees: the markets' own; starting capital 100000
      Net PnL 19.22 (0.02%), final equity 100019.22, max drawdown 69.30 (0.07%)

      market   realized  unrealized  fees    net  turnover  position
      ETH-USD     12.75       12.88  2.25  23.37   4515.00       0.5
      BTC-USD     -3.50        0.00  0.65  -4.15   1294.50         0
      TOTAL        9.25       12.88  2.90  19.22   5809.50

      market   max DD  max DD %   Sharpe  Sortino  win rate  in market  orders
      ETH-USD   65.00     0.06%   373.44   768.73       n/a     91.67%       3
      BTC-USD    5.09     0.01%  -549.13  -569.34     0.00%     50.00%       2
      TOTAL     69.30     0.07%   298.70   594.84     0.00%     91.67%       5

      strategy          net  return  fees  max DD %   Sharpe  win rate  orders  refused
      dca             23.37   0.02%  2.25     0.06%   373.44       n/a       3        3
      mean-reversion  -4.15   0.00%  0.65     0.01%  -549.13     0.00%       2        1

      Read with care: Annualized figures rest on 60 samples over 0.0007 days: Sharpe and Sortino are scaled to a year from that, so read them as noise (they mean something from about 100 samples over 30 days).

      Orders (5): CANCELLED 1, FILLED 3, REJECTED 1
      Refusals (4): ABOVE_MAX_ORDER_NOTIONAL 1, BELOW_MIN_AMOUNT 3
      "
    `);
  });

  it('prints an empty run with only the total rows and n/a for undefined ratios', () => {
    expect(formatSummary(computeMetrics(trace({ snapshotIntervalMs: 0 })))).toMatchInlineSnapshot(`
      "Backtest: 0 snapshots, no market traded, starting capital 100000
      Fill model: latency: one snapshot later; depth walked level by level (MARKET rest cancelled); slippage 0 bps; fees: the markets' own; starting capital 100000
      Net PnL 0.00 (0.00%), final equity 100000.00, max drawdown 0.00 (0.00%)

      market  realized  unrealized  fees   net  turnover  position
      TOTAL       0.00        0.00  0.00  0.00      0.00

      market  max DD  max DD %  Sharpe  Sortino  win rate  in market  orders
      TOTAL     0.00     0.00%     n/a      n/a       n/a        n/a       0

      strategy   net  return  fees  max DD %  Sharpe  win rate  orders  refused
      dca       0.00   0.00%  0.00     0.00%     n/a       n/a       0        0

      Orders (0): none
      Refusals (0): none
      "
    `);
  });

  it('says which markets were configured and why nothing traded, not "0 markets"', () => {
    const instances = [
      { name: 'dca', module: 'strategies/dca.ts', markets: ['ETH-USD'], params: {} },
    ];
    const quiet = trace({ snapshots: 39, instances, intents: [] });
    expect(formatSummary(computeMetrics(quiet), quiet).split('\n')[0]).toMatchInlineSnapshot(
      `"Backtest: 39 snapshots, every 1000 ms, nothing traded on ETH-USD (configured): the strategies asked for no orders, starting capital 100000"`,
    );
    const intents = [{ seq: 1, strategy: 'dca', intent: {} }];
    const refused = trace({ snapshots: 39, instances, intents, refusals: { BELOW_MIN_AMOUNT: 1 } });
    expect(formatSummary(computeMetrics(refused), refused).split('\n')[0]).toMatchInlineSnapshot(
      `"Backtest: 39 snapshots, every 1000 ms, nothing traded on ETH-USD (configured): all 1 intent refused (reasons below), starting capital 100000"`,
    );
  });
});
