/**
 * Issue 27, warm-up: a strategy that declares what it needs before it may trade has every intent
 * returned before then refused (counted as `WARMING_UP`, with what it waits for), trades from
 * the bar that ends it, and the backtest's summary, report.json and report.html say when the
 * warm-up ended, or that it never did and why nothing traded.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { formatSummary } from '../../../src/backtest/format-summary.ts';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { buildReport } from '../../../src/backtest/report-json.ts';
import { renderReportHtml } from '../../../src/backtest/report-html.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { importEthCandles } from '../../helpers/eth-candles.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-warmup-backtest-');
const T0 = Date.UTC(2026, 0, 5);
const MIN = 60_000;

async function backtest(candles: number, strategy = 'eager-bars') {
  const dir = tempDir();
  const csv = ['timestamp,open,high,low,close,volume'];
  for (let i = 0; i < candles; i++) csv.push(`${T0 + i * MIN},100,101,99,100.5,1`);
  const data = await importEthCandles(dir, `${csv.join('\n')}\n`, T0);
  const module = join(ROOT, `test/fixtures/strategies/${strategy}.ts`);
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      'venue: { writeUrl: embedded, readUrl: embedded }',
      "risk: { maxOrderNotional: '5000', maxPositionNotional: '20000' }",
      'strategies:',
      `  - module: ${module}`,
      '    markets: [ETH-USD]',
      '',
    ].join('\n'),
  );
  const trace = await runBacktest({
    config: await loadConfig(config, { env: {} }),
    data,
    projectRoot: ROOT,
  });
  const metrics = computeMetrics(trace);
  return { trace, summary: formatSummary(metrics, trace), report: buildReport(trace, metrics) };
}

describe('warm-up in a backtest', () => {
  it('refuses the intents before the declared bars, counts them, and trades from the bar that ends it', async () => {
    const { trace, summary, report } = await backtest(6);
    // Bars 1 and 2 are refused; the third bar (closed at minute 3) ends the warm-up: its intent
    // and those of bars 4 and 5 are sent (bar 6 is closed by the last candle: its order has no
    // next candle to fill at).
    expect(trace.refusals).toEqual({ WARMING_UP: 2 });
    expect(trace.refusalsByStrategy).toEqual({ 'eager-bars': { WARMING_UP: 2 } });
    expect(trace.instances[0]?.warmup).toEqual({ endedAt: T0 + 3 * MIN });
    expect(trace.intents.map((produced) => produced.seq)).toEqual([3, 4, 5, 6]);
    expect(trace.fills[0]?.t).toBe(T0 + 3 * MIN);
    expect(summary).toContain(
      'Warm-up: eager-bars warmed up at 2026-01-05T00:03:00.000Z, 2 min into the run; intents before were refused (WARMING_UP)',
    );
    expect(summary).toContain('Refusals (2): WARMING_UP 2');
    expect(report.run.warmups).toEqual([
      { strategy: 'eager-bars', endedAt: '2026-01-05T00:03:00.000Z' },
    ]);
    const html = renderReportHtml(report);
    expect(html).toContain(
      '<p class="warmup" data-warmup>Warm-up: eager-bars warmed up at 2026-01-05T00:03:00.000Z',
    );
  });

  it('says why nothing traded when the warm-up never ended', async () => {
    const { trace, summary, report } = await backtest(6, 'cold-bars');
    expect(trace.fills).toEqual([]);
    expect(trace.refusals).toEqual({ WARMING_UP: 6 });
    expect(summary).toMatch(
      /^Backtest: 6 snapshots, .*nothing traded on ETH-USD \(configured\): cold never warmed up \(see Warm-up\),/m,
    );
    expect(summary).toContain(
      'Warm-up: cold never warmed up: at the end it still waited for 50 closed 1m bars of ETH-USD (6 so far); every intent it returned was refused (WARMING_UP)',
    );
    expect(report.run.warmups).toEqual([
      { strategy: 'cold', waitingFor: '50 closed 1m bars of ETH-USD (6 so far)' },
    ]);
  });
});
