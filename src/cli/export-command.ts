import { stdout } from 'node:process';
import { readReport, reportTable } from '../backtest/report-tables.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { barTable } from '../market/history/bar-table.ts';
import { snapshotTable } from '../market/history/snapshot-table.ts';
import { writeTable } from '../market/history/table-export.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';

const TABLES = ['snapshots', 'bars', 'orders', 'fills', 'equity'] as const;

/** `quanta export`: one table of a recording or a backtest report as CSV or Parquet. */
export async function run({ flags }: CommandInput<typeof COMMANDS.export>): Promise<number> {
  const what = flags.what;
  if (!(TABLES as readonly string[]).includes(what))
    throw new QuantaError(
      ErrorCodes.USAGE,
      `--what must be ${TABLES.join(', ')}, got ${JSON.stringify(what)}`,
    );
  if (flags.format !== 'csv' && flags.format !== 'parquet')
    throw new QuantaError(
      ErrorCodes.USAGE,
      `--format must be csv or parquet, got ${JSON.stringify(flags.format)}`,
    );
  const table =
    what === 'snapshots'
      ? await snapshotTable(flags.data)
      : what === 'bars'
        ? await barTable(flags.data)
        : reportTable(await readReport(flags.data), what as 'orders' | 'fills' | 'equity');
  const rows = await writeTable(flags.out, table, flags.format);
  stdout.write(`exported ${rows} ${what} rows to ${flags.out} (${flags.format})\n`);
  return 0;
}
