import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../src/backtest/format-summary.ts';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { buildReport, serializeReport } from '../../../src/backtest/report-json.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

const RECORDING = join(ROOT, 'test/fixtures/recording');

async function backtest(
  strategy: string,
): Promise<{ summary: string; report: string; orders: number }> {
  const config = await loadConfig(join(ROOT, `test/fixtures/configs/${strategy}.yaml`));
  const trace = await runBacktest({ config, data: RECORDING, projectRoot: ROOT });
  const metrics = computeMetrics(trace);
  return {
    summary: formatSummary(metrics, trace),
    report: serializeReport(buildReport(trace, metrics)),
    orders: trace.orders.length,
  };
}

describe('backtests of the example strategies on the fixture recording', () => {
  it.each(['dca', 'new-listing', 'mean-reversion'])(
    '%s: byte-identical across two runs, trades, and matches the golden summary and report.json',
    async (strategy) => {
      const first = await backtest(strategy);
      const second = await backtest(strategy);
      expect(second.report).toBe(first.report);
      expect(second.summary).toBe(first.summary);
      expect(first.orders).toBeGreaterThan(0);
      // A missing golden fails (vitest.config.ts: update 'none'); npm run golden:update writes them.
      await expect(first.summary).toMatchFileSnapshot(
        `../../fixtures/golden/${strategy}.summary.txt`,
      );
      // Paths on this machine (the recording, strategy modules) read as <root>.
      await expect(first.report.replaceAll(ROOT, '<root>')).toMatchFileSnapshot(
        `../../fixtures/golden/${strategy}.report.json`,
      );
    },
    60_000,
  );

  it('quanta backtest prints a readable summary in a terminal', () => {
    const result = spawnSync(
      process.execPath,
      [
        'bin/quanta.js',
        'backtest',
        '--config',
        'test/fixtures/configs/dca.yaml',
        '--data',
        'test/fixtures/recording',
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Backtest: \d+ snapshots/m);
    expect(result.stdout).toMatch(/^TOTAL /m);
    expect(result.stderr).toContain('backtest: done');
    // One pass over the recording: progress is its bytes read, with a percentage and an ETA.
    expect(result.stderr).toMatch(/^backtest: 50% \(\d+ snapshots\), .+, ETA \d+:\d\d$/m);
  }, 60_000);
});
