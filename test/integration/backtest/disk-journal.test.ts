import { join } from 'node:path';
import { expect, it } from 'vitest';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { buildReport, serializeReport } from '../../../src/backtest/report-json.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { ErrorCodes } from '../../../src/errors/index.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-disk-journal-');

it('journalPath journals the orders in a SQLite file: same trace as in memory, rows on disk; a used file is refused', async () => {
  const config = await loadConfig(join(ROOT, 'test/fixtures/configs/mean-reversion.yaml'));
  const data = join(ROOT, 'test/fixtures/recording');
  const journalPath = join(tempDir(), 'journal.sqlite');
  const report = async (path?: string): Promise<{ text: string; orders: number }> => {
    const trace = await runBacktest({
      config,
      data,
      projectRoot: ROOT,
      ...(path === undefined ? {} : { journalPath: path }),
    });
    return {
      text: serializeReport(buildReport(trace, computeMetrics(trace))),
      orders: trace.orders.length,
    };
  };
  const inMemory = await report();
  const onDisk = await report(journalPath);
  expect(onDisk.text).toBe(inMemory.text);
  expect(onDisk.orders).toBeGreaterThan(0);
  const journal = OrderJournal.openReadOnly(journalPath);
  try {
    const rows = journal.all();
    expect(rows).toHaveLength(onDisk.orders);
    expect(rows.every((row) => row.state === 'FILLED')).toBe(true);
  } finally {
    journal.close();
  }
  await expect(report(journalPath)).rejects.toMatchObject({
    code: ErrorCodes.BACKTEST_INVALID_OPTION,
    message: expect.stringContaining('already holds orders') as unknown,
  });
}, 120_000);
