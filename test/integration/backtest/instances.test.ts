// Two instances of one strategy module with different params are separate everywhere: their
// own positions, orders, figures, summary rows, report rows and equity lines.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../src/backtest/format-summary.ts';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { renderReportHtml } from '../../../src/backtest/report-html.ts';
import { buildReport } from '../../../src/backtest/report-json.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

const YAML = `
venue: { writeUrl: embedded, readUrl: embedded }
risk: { maxOrderNotional: '5000', maxPositionNotional: '20000' }
strategies:
  - module: strategies/dca.ts
    markets: [ETH-USD]
    params: { quoteAmount: '100', everySnapshots: 5 }
  - module: strategies/dca.ts
    markets: [ETH-USD]
    params: { quoteAmount: '250', everySnapshots: 20 }
`;

describe('per-instance breakdown', () => {
  it('two dca instances with different params are two rows and two equity lines', async () => {
    const config = parseConfig(YAML, 'two-dca.yaml', ROOT);
    const trace = await runBacktest({
      config,
      data: join(ROOT, 'test/fixtures/recording'),
      projectRoot: ROOT,
    });
    const metrics = computeMetrics(trace);
    const [first, second] = metrics.strategies;
    expect(metrics.strategies.map((s) => [s.strategy, s.module, s.params])).toEqual([
      ['dca', 'strategies/dca.ts', { quoteAmount: '100', everySnapshots: 5 }],
      ['dca#2', 'strategies/dca.ts', { quoteAmount: '250', everySnapshots: 20 }],
    ]);
    // Each counts only its own orders; together they are the account's.
    const own = (name: string) => trace.orders.filter((o) => o.strategy === name).length;
    expect(first?.orders.total).toBe(own('dca'));
    expect(second?.orders.total).toBe(own('dca#2'));
    expect(own('dca')).toBeGreaterThan(own('dca#2'));
    expect(own('dca') + own('dca#2')).toBe(metrics.total.orders.total);
    // Both only buy ETH-USD, so nothing nets out: their turnovers and fees add up to the total.
    const sum = (pick: (s: NonNullable<typeof first>) => string) =>
      metrics.strategies.reduce((n, s) => n + Number(pick(s)), 0);
    expect(first?.turnover).not.toBe(second?.turnover);
    expect(sum((s) => s.turnover)).toBeCloseTo(Number(metrics.total.turnover), 9);
    expect(sum((s) => s.fees)).toBeCloseTo(Number(metrics.total.fees), 9);

    expect(formatSummary(metrics)).toMatch(/^dca +\S+/m);
    expect(formatSummary(metrics)).toMatch(/^dca#2 +\S+/m);
    const report = buildReport(trace, metrics);
    expect(report.strategies.map((s) => s.strategy)).toEqual(['dca', 'dca#2']);
    expect(report.series.strategyEquity.map((s) => s.strategy)).toEqual(['dca', 'dca#2']);
    expect(report.series.strategyEquity[1]?.equity).toHaveLength(report.series.t.length);
    const html = renderReportHtml(report);
    expect(html).toContain('<strong>dca#2</strong>');
    expect(html).toContain(
      '{&quot;quoteAmount&quot;:&quot;250&quot;,&quot;everySnapshots&quot;:20}',
    );
  }, 60_000);
});
