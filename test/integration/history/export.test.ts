/**
 * `quanta export` (issue 28): a recording's snapshots and a backtest report's orders, fills and
 * equity written as Parquet are read back by an independent reader (DuckDB) with every value
 * equal: decimals exact as DECIMAL(38,18), times as UTC timestamps. CSV keeps the same values
 * as text.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { buildReport, type BacktestReport } from '../../../src/backtest/report-json.ts';
import { readReport, reportTable } from '../../../src/backtest/report-tables.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { writeReport } from '../../../src/backtest/write-report.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { snapshotTable } from '../../../src/market/history/snapshot-table.ts';
import {
  PARQUET_ROW_GROUP_ROWS,
  writeTable,
  type Cell,
  type Table,
} from '../../../src/market/history/table-export.ts';
import { readRecording } from '../../../src/market/recording/index.ts';
import { formatX18, parseDecimalToX18, parseSignedDecimalToX18 } from '../../../src/money/index.ts';
import { duckRows } from '../../helpers/duck-rows.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const RECORDING = join(ROOT, 'test/fixtures/recording/recording-2026-11-23T04-03-16-618Z.jsonl.gz');
const tempDir = tempDirs('quanta-export-');
const quiet = { onWarning: () => undefined };

/** What DuckDB must read for each source cell of a column type. */
function expected(cell: Cell, type: Table['columns'][number]['type']): unknown {
  if (cell === null) return null;
  if (type === 'timestamp') return { utcMicros: BigInt(cell) * 1000n };
  if (type === 'decimal') return { decimal: cell, scale: 18, width: 38 };
  if (type === 'integer') return BigInt(cell);
  return cell;
}

async function rowsOf(table: Table): Promise<(readonly Cell[])[]> {
  const rows: (readonly Cell[])[] = [];
  for await (const row of table.rows) rows.push(row);
  return rows;
}

let report: BacktestReport | undefined;
async function backtestReport(): Promise<{ report: BacktestReport; dir: string }> {
  const dir = tempDir();
  const config = await loadConfig(join(ROOT, 'test/fixtures/configs/dca.yaml'), { env: {} });
  const trace = await runBacktest({ config, data: RECORDING, projectRoot: ROOT });
  report = buildReport(trace, computeMetrics(trace));
  await writeReport(dir, report);
  return { report, dir };
}

describe('Parquet export read back by DuckDB', () => {
  it("a recording's snapshots: every value equal, decimals exact, times UTC", async () => {
    const out = join(tempDir(), 'snapshots.parquet');
    const table = await snapshotTable(RECORDING, quiet);
    const written = await writeTable(out, table, 'parquet');
    const { types, rows } = await duckRows(out);
    expect(types).toEqual([
      'TIMESTAMP WITH TIME ZONE',
      'BIGINT',
      'BIGINT',
      'VARCHAR',
      'DECIMAL(38,18)',
      'DECIMAL(38,18)',
      'DECIMAL(38,18)',
      'DECIMAL(38,18)',
      'BOOLEAN',
    ]);
    // The source, read again on its own: one row per market per snapshot.
    const source: unknown[][] = [];
    for await (const snapshot of readRecording(RECORDING, quiet))
      for (const market of snapshot.markets.values()) {
        const quote = snapshot.quotes?.get(market.id);
        const x18 = (text: string | undefined) =>
          text === undefined ? null : { decimal: parseDecimalToX18(text), scale: 18, width: 38 };
        source.push([
          { utcMicros: BigInt(snapshot.takenAt) * 1000n },
          BigInt(snapshot.seq),
          BigInt(market.id),
          market.symbol,
          x18(quote?.bids[0]?.price),
          x18(quote?.bids[0]?.quantity),
          x18(quote?.asks[0]?.price),
          x18(quote?.asks[0]?.quantity),
          snapshot.stale,
        ]);
      }
    expect(written).toBe(source.length);
    expect(source.length).toBe(300);
    expect(rows).toEqual(source);
    // Decimals beyond a double's 15-16 digits survive (9 fraction digits on a 4-digit price).
    const exact = rows.find((r) => (r[3] as string) === 'ETH-USD');
    expect(formatX18((exact?.[5] as { decimal: bigint }).decimal)).toMatch(/^\d+\.\d{9}$/);
  }, 60_000);

  it("a backtest report's orders, fills and equity: every value equal", async () => {
    const { dir } = await backtestReport();
    const read = await readReport(dir);
    expect(read).toEqual(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')));
    for (const what of ['orders', 'fills', 'equity'] as const) {
      const table = reportTable(read, what);
      const out = join(tempDir(), `${what}.parquet`);
      await writeTable(out, table, 'parquet');
      const { rows } = await duckRows(out);
      const source = await rowsOf(reportTable(read, what));
      expect(source.length, what).toBeGreaterThan(0);
      expect(rows, what).toEqual(
        source.map((row) => row.map((cell, i) => expected(cell, table.columns[i]?.type ?? 'text'))),
      );
    }
    // The values are the report's strings, exactly: each fill when it was booked, at its own
    // price and fee; an order's fills add up to its filled amount.
    const fills = await rowsOf(reportTable(read, 'fills'));
    expect(read.fills?.length).toBeGreaterThan(0);
    expect(
      fills.map((r) => [
        r[0],
        new Date(r[1] as number).toISOString(),
        formatX18(r[5] as bigint),
        formatX18(r[6] as bigint),
        formatX18(r[7] as bigint),
      ]),
    ).toEqual(read.fills?.map((f) => [f.orderId, f.time, f.amount, f.price, f.fee]));
    for (const order of read.orders.filter((o) => o.filled !== '0')) {
      const own = fills.filter((r) => r[0] === order.id);
      expect(formatX18(own.reduce((sum, r) => sum + (r[5] as bigint), 0n))).toBe(order.filled);
    }
    // A report written before reports kept each fill: refused, saying what to do.
    const { fills: _kept, ...older } = read;
    expect(() => reportTable(older, 'fills')).toThrow(/run the backtest again with --report DIR/);
    const equity = await rowsOf(reportTable(read, 'equity'));
    expect(equity.map((r) => r[2])).toEqual(
      read.series.equity.map((e) => parseSignedDecimalToX18(e)),
    );
  }, 60_000);
});

describe('Parquet export, a row group at a time', () => {
  it('a table of more rows than a row group holds reads back whole, in order', async () => {
    // Two full row groups and part of a third: each written as it fills, not the whole table
    // held in memory and written as one buffer.
    const rows = 2 * PARQUET_ROW_GROUP_ROWS + 7;
    const table: Table = {
      columns: [
        { name: 'time', type: 'timestamp' },
        { name: 'price', type: 'decimal' },
        { name: 'n', type: 'integer' },
        { name: 'side', type: 'text' },
      ],
      rows: (function* () {
        for (let i = 0; i < rows; i++)
          yield [
            1767571200000 + i,
            2500_000000000000000000n + BigInt(i),
            i,
            i % 2 ? 'BUY' : 'SELL',
          ];
      })(),
    };
    const out = join(tempDir(), 'long.parquet');
    expect(await writeTable(out, table, 'parquet')).toBe(rows);
    const { rows: read } = await duckRows(out);
    expect(read).toHaveLength(rows);
    for (const i of [0, PARQUET_ROW_GROUP_ROWS - 1, PARQUET_ROW_GROUP_ROWS, rows - 1])
      expect(read[i]).toEqual([
        { utcMicros: BigInt(1767571200000 + i) * 1000n },
        { decimal: 2500_000000000000000000n + BigInt(i), scale: 18, width: 38 },
        BigInt(i),
        i % 2 ? 'BUY' : 'SELL',
      ]);
  }, 120_000);

  it('a failed export leaves no file behind, not even its half-written one', async () => {
    const dir = tempDir();
    const out = join(dir, 'big.parquet');
    const table: Table = {
      columns: [{ name: 'price', type: 'decimal' }],
      rows: (function* () {
        for (let i = 0; i < PARQUET_ROW_GROUP_ROWS + 1; i++) yield [1n];
        yield [10n ** 40n]; // past DECIMAL(38,18): the export fails after a row group is written
      })(),
    };
    await expect(writeTable(out, table, 'parquet')).rejects.toThrow(
      /does not fit DECIMAL\(38,18\)/,
    );
    expect(readdirSync(dir)).toEqual([]);
  }, 120_000);
});

describe('CSV export', () => {
  it('writes UTC ISO times and exact decimal text, with a header', async () => {
    const out = join(tempDir(), 'snapshots.csv');
    await writeTable(out, await snapshotTable(RECORDING, quiet), 'csv');
    const lines = readFileSync(out, 'utf8').split('\n');
    expect(lines[0]).toBe(
      'taken_at,seq,market_id,symbol,bid_price,bid_size,ask_price,ask_size,stale',
    );
    expect(lines[1]).toMatch(
      /^2026-11-23T04:03:16\.725Z,1,1,ETH-USD,\d+(\.\d+)?,\d+(\.\d+)?,3001\.5,8\.333333333,false$/,
    );
    expect(lines).toHaveLength(302);
  });

  it('quanta export from the command line (a backtest report to Parquet)', async () => {
    const { dir } = await backtestReport();
    const out = join(tempDir(), 'orders.parquet');
    const result = spawnSync(
      process.execPath,
      [
        'bin/quanta.js',
        'export',
        '--data',
        dir,
        '--what',
        'orders',
        '--format',
        'parquet',
        '--out',
        out,
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      `exported ${report?.orders.length} orders rows to ${out} (parquet)\n`,
    );
    expect((await duckRows(out)).rows.map((r) => r[0])).toEqual(
      report?.orders.map((o) => BigInt(o.id)),
    );
  }, 60_000);
});
