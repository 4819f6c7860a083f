/**
 * Issue 29 in the backtest report: the doubling strategy of margin.test.ts (1000 USDC, ETH-USD
 * IMF 5 %, MMF 2 %) is liquidated at 2800 on the tenth snapshot; its report marks the closing
 * fill on the candles as `liquidation` (the same marker mechanism as the protective exits) and
 * names the round trip it closed.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { buildReport, type BacktestReport } from '../../../src/backtest/report-json.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import type { BacktestTrace } from '../../../src/backtest/trace.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { RECORDING_T0, recordSnapshots } from '../../helpers/recordings.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';
import { marginSnapshots } from './margin-prices.ts';

const tempDir = tempDirs('quanta-margin-report-');

const MARGIN_CONFIG = `
venue: { writeUrl: embedded, readUrl: embedded }
risk: { maxOrderNotional: '100000000', maxPositionNotional: '100000000', capital: '1000' }
paper: { balance: '1000' }
backtest: { startingCapital: '1000', latencyMs: 0 }
strategies:
  - module: test/fixtures/strategies/doubler.ts
    markets: [ETH-USD]
    params: { start: '0.5' }
`;

let trace: BacktestTrace;
let report: BacktestReport;

beforeAll(async () => {
  const data = await recordSnapshots({ path: join(tempDir(), 'margin.jsonl') }, marginSnapshots());
  trace = await runBacktest({
    config: parseConfig(MARGIN_CONFIG, 'margin.yaml', ROOT),
    data,
    projectRoot: ROOT,
  });
  report = buildReport(trace, computeMetrics(trace));
}, 60_000);

describe('a liquidation in the backtest report', () => {
  it('marks the closing fill on the candles and names the trip it closed', () => {
    expect(trace.liquidations).toHaveLength(1);
    const chart = report.tearsheet.priceCharts.find((c) => c.symbol === 'ETH-USD');
    expect(chart?.fills.filter((f) => f.exit === 'liquidation')).toEqual([
      { t: RECORDING_T0 + 9000, side: 'SELL', price: '2800', exit: 'liquidation' },
    ]);
    // The other fills are the strategy's own buys: no exit named.
    expect(chart?.fills.filter((f) => f.exit !== 'liquidation').map((f) => f.exit)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(
      report.tearsheet.trades.map((t) => [t.direction, t.amount, t.exitPrice, t.exit]),
    ).toEqual([['LONG', '4', '2800', 'liquidation']]);
    expect(report.tearsheet.exits.map((e) => [e.exit, e.closed])).toEqual([['liquidation', 1]]);
  });
});
