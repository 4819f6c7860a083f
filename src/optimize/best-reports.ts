import { join } from 'node:path';
import { computeMetrics } from '../backtest/metrics.ts';
import { buildReport } from '../backtest/report-json.ts';
import { runBacktest } from '../backtest/run-backtest.ts';
import { writeReport } from '../backtest/write-report.ts';
import { loadConfig } from '../config/index.ts';
import type { OptimizeRun } from './optimize.ts';
import { decodedSnapshots } from './run-set.ts';

/** Where the best runs' reports are, relative to the output folder, by set id. */
export type ReportLinks = ReadonlyMap<string, string>;

/**
 * Backtests the `count` best sets again, in this process, with the full report (report.json and
 * report.html in `outDir/runs/<rank>-<id>/`), on the span the search ran on.
 */
export async function writeBestReports(
  run: OptimizeRun,
  options: { readonly count: number; readonly outDir: string; readonly projectRoot: string },
): Promise<ReportLinks> {
  const links = new Map<string, string>();
  const best = run.result.ranking.filter((row) => row.score !== null).slice(0, options.count);
  if (best.length === 0) return links;
  const config = await loadConfig(run.configPath, { env: process.env });
  const snapshots = (await decodedSnapshots(run.data)).filter(
    (snapshot) => snapshot.takenAt >= run.search.from && snapshot.takenAt < run.search.to,
  );
  for (const row of best) {
    const strategies = config.strategies.map((entry, i) =>
      i === run.strategyIndex
        ? { ...entry, params: { ...(entry.params as object), ...row.params } }
        : entry,
    );
    const trace = await runBacktest({
      config: { ...config, strategies },
      data: run.data,
      projectRoot: options.projectRoot,
      snapshots,
    });
    const folder = `runs/${row.rank}-${row.id}`;
    await writeReport(join(options.outDir, folder), buildReport(trace, computeMetrics(trace)));
    links.set(row.id, `${folder}/report.html`);
  }
  return links;
}
