/**
 * A backtest report's orders, fills and equity as tables for `quanta export` (CSV or Parquet):
 * the report's decimal strings as exact x18 values, its times as UTC timestamps.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { Cell, Table } from '../market/history/table-export.ts';
import { parseSignedDecimalToX18 } from '../money/index.ts';
import { REPORT_FORMAT, type BacktestReport } from './report-json.ts';

/** What `quanta export` can take from a backtest's result. */
export type ReportTableName = 'orders' | 'fills' | 'equity';

const decimal = (text: string | null): bigint | null =>
  text === null ? null : parseSignedDecimalToX18(text, 'report value');
const time = (iso: string): number => Date.parse(iso);

/**
 * Reads a backtest's report.json (the file, or the `--report` folder holding it).
 *
 * @throws QuantaError `QUANTA_USAGE` when the path holds no backtest report.
 */
export async function readReport(path: string): Promise<BacktestReport> {
  let file = path;
  try {
    if ((await stat(path)).isDirectory()) file = join(path, 'report.json');
  } catch (error) {
    throw new QuantaError(ErrorCodes.USAGE, `${path}: no such file or folder`, { cause: error });
  }
  let report: unknown;
  try {
    report = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new QuantaError(
      ErrorCodes.USAGE,
      `${file}: not a backtest report (write one with quanta backtest --report DIR)`,
      { cause: error },
    );
  }
  if ((report as { format?: unknown } | null)?.format !== REPORT_FORMAT)
    throw new QuantaError(
      ErrorCodes.USAGE,
      `${file}: not a backtest report (format is not ${REPORT_FORMAT})`,
    );
  return report as BacktestReport;
}

/**
 * One table of a report: `orders` (every order), `fills` (every fill as the portfolio booked
 * it: when, how much, at what price and fee; several per order where it filled in parts) or
 * `equity` (the report's equity series, as many points as the report keeps).
 *
 * @throws QuantaError `QUANTA_USAGE` for `fills` of a report written before reports kept them.
 */
export function reportTable(report: BacktestReport, what: ReportTableName): Table {
  if (what === 'equity') {
    const { t, seq, equity, drawdown } = report.series;
    return {
      columns: [
        { name: 'time', type: 'timestamp' },
        { name: 'seq', type: 'integer' },
        { name: 'equity', type: 'decimal' },
        { name: 'drawdown', type: 'decimal' },
      ],
      rows: t.map((at, i): Cell[] => [
        at,
        seq[i] ?? null,
        decimal(equity[i] ?? null),
        decimal(drawdown[i] ?? null),
      ]),
    };
  }
  if (what === 'fills') return fillsTable(report);
  return {
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'time', type: 'timestamp' },
      { name: 'strategy', type: 'text' },
      { name: 'tag', type: 'text' },
      { name: 'symbol', type: 'text' },
      { name: 'side', type: 'text' },
      { name: 'type', type: 'text' },
      { name: 'amount', type: 'decimal' },
      { name: 'price', type: 'decimal' },
      { name: 'state', type: 'text' },
      { name: 'filled', type: 'decimal' },
      { name: 'avg_fill_price', type: 'decimal' },
      { name: 'estimated', type: 'boolean' },
      { name: 'error', type: 'text' },
    ],
    rows: report.orders.map((o): Cell[] => [
      o.id,
      time(o.time),
      o.strategy,
      o.tag,
      o.symbol,
      o.side,
      o.type,
      decimal(o.amount),
      decimal(o.price),
      o.state,
      decimal(o.filled),
      decimal(o.avgFillPrice),
      o.estimated,
      o.error,
    ]),
  };
}

/** Every fill of the report, as the portfolio booked it. */
function fillsTable(report: BacktestReport): Table {
  // Refused rather than made up from the orders: an order's average at its creation time is
  // not a fill (a resting order fills later, in parts, at other prices).
  if (report.fills === undefined)
    throw new QuantaError(
      ErrorCodes.USAGE,
      'this report was written before reports kept each fill: run the backtest again with --report DIR to export its fills (--what orders has each order, its filled amount and average price)',
    );
  return {
    columns: [
      { name: 'order_id', type: 'integer' },
      { name: 'time', type: 'timestamp' },
      { name: 'strategy', type: 'text' },
      { name: 'symbol', type: 'text' },
      { name: 'side', type: 'text' },
      { name: 'amount', type: 'decimal' },
      { name: 'price', type: 'decimal' },
      { name: 'fee', type: 'decimal' },
    ],
    rows: report.fills.map((f): Cell[] => [
      f.orderId,
      time(f.time),
      f.strategy,
      f.symbol,
      f.side,
      decimal(f.amount),
      decimal(f.price),
      decimal(f.fee),
    ]),
  };
}
