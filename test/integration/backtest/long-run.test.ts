import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { buildReport } from '../../../src/backtest/report-json.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { buildBenchData, writeConfig, type BenchData } from '../../bench/backtest-data.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

const SNAPSHOTS = 2600;
let data: BenchData;

beforeAll(async () => {
  data = await buildBenchData({ markets: 3, snapshots: SNAPSHOTS, depth: 5, plain: false });
}, 60_000);
afterAll(() => rmSync(data.dir, { recursive: true, force: true }));

describe('a backtest longer than its chart', () => {
  it('keeps a bounded selection of samples and measures exactly what every sample gives', async () => {
    const config = await loadConfig(
      writeConfig(data.dir, 'mr', 'strategies/mean-reversion.ts', ['M1-USD', 'M2-USD'], {
        window: 10,
        entryZ: 2.2,
        exitZ: 0.3,
      }),
    );
    const run = (sampleBuckets?: number) =>
      runBacktest({
        config,
        data: data.ours,
        projectRoot: ROOT,
        ...(sampleBuckets === undefined ? {} : { sampleBuckets }),
      });
    const bounded = await run(200);
    const full = await run(1_000_000);
    expect(bounded.orders.length).toBeGreaterThan(20);
    expect(full.samples).toHaveLength(SNAPSHOTS);
    expect(bounded.sampleCount).toBe(SNAPSHOTS);
    // 3 per stretch and the last, plus the pinned: the first, fills, first mids.
    const fillSamples = new Set(bounded.fills.map((f) => f.t)).size;
    expect(bounded.samples.length).toBeLessThanOrEqual(3 * 200 + 1 + 1 + fillSamples + 2);
    expect(bounded.samples.length).toBeLessThan(SNAPSHOTS);
    // The metrics measured while running equal those of every sample, and the report's totals.
    const { measured: _measured, ...unmeasured } = full;
    const everySample = computeMetrics(unmeasured);
    expect(computeMetrics(bounded)).toEqual(everySample);
    const report = buildReport(bounded, computeMetrics(bounded));
    expect(report.run.samples).toBe(SNAPSHOTS);
    expect(report.series.sampleCount).toBe(SNAPSHOTS);
    expect(report.tearsheet.returnsHistogram).toEqual(
      buildReport(full, everySample).tearsheet.returnsHistogram,
    );
    // The returns per day and month kept while running equal those of every sample.
    expect(report.tearsheet.periodReturns.daily.length).toBeGreaterThan(0);
    expect(report.tearsheet.periodReturns).toEqual(
      buildReport(unmeasured, everySample).tearsheet.periodReturns,
    );
    // Every fill still lands on a drawn sample of its market's price chart.
    const marks = report.tearsheet.priceCharts.flatMap((c) => [...c.buys, ...c.sells]);
    expect(marks.filter((m) => m !== null).length).toBeGreaterThan(0);
    // Measured at another starting capital, a bounded run refuses rather than guess.
    expect(() => computeMetrics(bounded, { startingCapital: '5' })).toThrow(/startingCapital/);
  }, 120_000);
});
