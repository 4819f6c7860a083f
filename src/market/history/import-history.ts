/**
 * `quanta import`'s work: CSV history files (plain or gzip, read as streams) → one recording in
 * the format `quanta backtest` reads (docs/recording-format.md). Every row is checked (fields,
 * time, symbol, grid, order); a row that fails is refused with `file:line` and why, or with
 * `onBad: 'skip'` dropped and counted by kind: never changed to fit.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import type { Market, Quote, QuoteLevel } from '../../domain/index.ts';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { formatX18 } from '../../money/index.ts';
import { createSnapshot, type Snapshot } from '../snapshot.ts';
import { listRecordingFiles, RecordingWriter } from '../recording/index.ts';
import { readCsvLines } from './csv-lines.ts';
import { splitCsvLine } from './csv-fields.ts';
import { planColumns, type ColumnPlan, type HistoryKind } from './layouts.ts';
import { CANDLE_FILE } from './candle-file.ts';
import { CandleSink } from './candle-sink.ts';
import {
  isBadRow,
  readBookRow,
  readCandleRow,
  type BadRow,
  type BadRowKind,
  type BookRow,
  type CandleRow,
  type RowLevel,
} from './history-row.ts';
import { isoOfMs } from './timestamp.ts';

/** Options of {@link importHistory}. */
export interface ImportOptions {
  readonly kind: HistoryKind;
  readonly market: Market;
  /** The symbol the files' symbol column must hold; undefined: the first row's. */
  readonly sourceSymbol?: string | undefined;
  /** CSV files, in time order (`.gz`: gzip). */
  readonly files: readonly string[];
  /** The folder the recording goes to (created; must hold no recording yet). */
  readonly out: string;
  /** `--columns`: role → header name, for files whose header names differ. */
  readonly mapping?: ReadonlyMap<string, string>;
  /** `fail` (default): the first bad row ends the import with its file:line; `skip`: counted. */
  readonly onBad?: 'fail' | 'skip';
  /** Clock for the recording's header time and file name. */
  readonly now: () => number;
  /** Called every few thousand rows with rows read and bytes consumed of `totalBytes`. */
  readonly onProgress?: (rows: number, bytes: number, totalBytes: number) => void;
}

/** A refused row: where, and why. */
export interface RefusedRow {
  readonly file: string;
  readonly line: number;
  readonly kind: BadRowKind;
  readonly reason: string;
}

/** What an import did. */
export interface ImportSummary {
  readonly files: readonly string[];
  /** The layout of each input file, in order. */
  readonly layouts: readonly string[];
  readonly recording: readonly string[];
  readonly rows: number;
  readonly snapshots: number;
  /**
   * Rows whose time falls in the millisecond of the next row (finer sources, e.g. µs): the
   * snapshot of that millisecond is the last of them, the others are counted here.
   */
  readonly superseded: number;
  /** Refused rows by kind (with `onBad: 'skip'`). */
  readonly skipped: Readonly<Record<BadRowKind, number>>;
  /** The first refused rows, for the user to look at (at most 20). */
  readonly examples: readonly RefusedRow[];
  readonly firstMs: number | undefined;
  readonly lastMs: number | undefined;
  readonly symbol: string | undefined;
  /** Candles: their timeframe, like `"1m"` (each candle is one snapshot of the backtest). */
  readonly timeframe?: string | undefined;
}

const EXAMPLES = 20;
const PROGRESS_EVERY = 4096;
const DRAIN_EVERY = 256;

function levelsOf(levels: readonly RowLevel[]): QuoteLevel[] {
  return levels.map((l) => ({ price: formatX18(l.priceX18), quantity: formatX18(l.sizeX18) }));
}

/** Refuses an output folder that already holds a recording (two would be read as one). */
async function checkOut(out: string): Promise<void> {
  let isDir = false;
  try {
    isDir = (await stat(out)).isDirectory();
  } catch {
    return; // created by the writer
  }
  if (!isDir)
    throw new QuantaError(
      ErrorCodes.USAGE,
      `--out ${out}: not a folder (give a folder to write the recording to)`,
    );
  const found = [
    ...(await listRecordingFiles(out)),
    ...(await readdir(out)).filter((name) => CANDLE_FILE.test(name)),
  ];
  if (found.length > 0)
    throw new QuantaError(
      ErrorCodes.USAGE,
      `--out ${out}: already holds a recording (${found[0]}); a backtest reads a folder's files as one recording, so give an empty folder`,
    );
}

/**
 * Imports history files into a recording.
 *
 * @throws QuantaError `QUANTA_HISTORY_INVALID` naming `file:line` for a file with no layout
 *   quanta knows, a refused row (with `onBad: 'fail'`), a damaged gzip file or no row at all;
 *   `QUANTA_USAGE` for an `out` that holds a recording already.
 */
export async function importHistory(options: ImportOptions): Promise<ImportSummary> {
  const { kind, market, files } = options;
  if (files.length === 0) throw new QuantaError(ErrorCodes.USAGE, '--in: no file given');
  await checkOut(options.out);
  let totalBytes = 0;
  for (const file of files) {
    try {
      totalBytes += (await stat(file)).size;
    } catch (error) {
      throw new QuantaError(ErrorCodes.HISTORY_INVALID, `${file}: no such file`, { cause: error });
    }
  }
  const onBad = options.onBad ?? 'fail';
  const skipped: Record<BadRowKind, number> = {
    malformed: 0,
    'time-back': 0,
    duplicate: 0,
    'off-grid': 0,
    'other-market': 0,
    crossed: 0,
  };
  const examples: RefusedRow[] = [];
  const refuse = (file: string, line: number, bad: BadRow): void => {
    if (onBad === 'fail')
      throw new QuantaError(ErrorCodes.HISTORY_INVALID, `${file}:${line}: ${bad.reason}`, {
        details: ['Fix the row, or pass --on-bad skip to drop such rows (each is counted).'],
      });
    skipped[bad.kind] += 1;
    if (examples.length < EXAMPLES) examples.push({ file, line, ...bad });
  };

  const markets = new Map([[market.id, market]]);
  let writer: RecordingWriter | undefined;
  let seq = 0;
  let pending: { ms: number; quote: Quote } | undefined;
  let superseded = 0;
  let firstMs: number | undefined;
  let lastMs: number | undefined;
  const emit = async (): Promise<void> => {
    if (pending === undefined) return;
    writer ??= await RecordingWriter.open({
      dir: options.out,
      gzip: true,
      source: `quanta import --kind ${kind} ${market.symbol}`,
      now: options.now,
    });
    seq += 1;
    const snapshot: Snapshot = createSnapshot({
      seq,
      takenAt: pending.ms,
      markets,
      quotes: [pending.quote],
    });
    writer.write(snapshot);
    firstMs ??= pending.ms;
    lastMs = pending.ms;
    if (seq % DRAIN_EVERY === 0) await writer.drained();
  };

  const candles =
    kind === 'candles'
      ? new CandleSink({
          dir: options.out,
          market,
          source: `quanta import --kind candles ${market.symbol}`,
          now: options.now,
        })
      : undefined;
  const layouts: string[] = [];
  let symbol = options.sourceSymbol;
  let previous: { exact: bigint; file: string; line: number } | undefined;
  let rows = 0;
  const position = { bytes: 0 };
  let before = 0;
  try {
    for (const file of files) {
      let plan: ColumnPlan | undefined;
      position.bytes = 0;
      for await (const { text, line } of readCsvLines(file, position)) {
        if (text === '') continue;
        const fields = splitCsvLine(text);
        if (typeof fields === 'string') {
          refuse(file, line, { kind: 'malformed', reason: fields });
          continue;
        }
        if (plan === undefined) {
          const found = planColumns(kind, fields, options.mapping);
          if (typeof found === 'string')
            throw new QuantaError(ErrorCodes.HISTORY_INVALID, `${file}:${line}: ${found}`);
          plan = found;
          layouts.push(plan.layout);
          if (plan.header) continue;
        }
        rows += 1;
        if (rows % PROGRESS_EVERY === 0)
          options.onProgress?.(rows, before + position.bytes, totalBytes);
        const row =
          candles === undefined
            ? readBookRow(fields, plan, market)
            : readCandleRow(fields, plan, market);
        if (isBadRow(row)) {
          refuse(file, line, row);
          continue;
        }
        if (row.symbol !== undefined) {
          symbol ??= row.symbol;
          if (row.symbol !== symbol) {
            refuse(file, line, {
              kind: 'other-market',
              reason: `a row of ${JSON.stringify(row.symbol)}, not of ${JSON.stringify(symbol)} (the market imported as ${market.symbol})`,
            });
            continue;
          }
        }
        const order = orderOf(row, previous);
        if (order !== undefined) {
          refuse(file, line, order);
          continue;
        }
        if (candles !== undefined) {
          const refused = await candles.take(row as CandleRow, file, line);
          if (refused !== undefined) {
            refuse(file, line, refused);
            continue;
          }
          previous = { exact: row.time.exact, file, line };
          continue;
        }
        const book = row as BookRow;
        previous = { exact: row.time.exact, file, line };
        const quote: Quote = {
          marketId: market.id,
          timestamp: row.time.ms,
          bids: levelsOf(book.bids),
          asks: levelsOf(book.asks),
        };
        if (pending !== undefined && pending.ms === row.time.ms) superseded += 1;
        else await emit();
        pending = { ms: row.time.ms, quote };
      }
      if (plan === undefined)
        throw new QuantaError(
          ErrorCodes.HISTORY_INVALID,
          `${file}: empty file (no header, no rows)`,
        );
      before += position.bytes;
    }
    await emit();
    await candles?.finish();
    options.onProgress?.(rows, before, totalBytes);
  } catch (error) {
    // Nothing half-imported is left behind to be backtested as if it were the whole history.
    await writer?.close().catch(() => undefined);
    await candles?.abandon();
    for (const file of [...(writer?.files ?? []), ...(candles?.files ?? [])])
      await rm(file, { force: true });
    throw error;
  }
  await writer?.close();
  if (candles !== undefined && candles.count > 0)
    return {
      files,
      layouts,
      recording: candles.files,
      rows,
      snapshots: candles.count,
      superseded,
      skipped,
      examples,
      firstMs: candles.firstMs,
      lastMs: candles.lastMs,
      symbol,
      timeframe: candles.timeframe,
    };
  if (writer === undefined)
    throw new QuantaError(
      ErrorCodes.HISTORY_INVALID,
      `${files.join(', ')}: no row was imported (${rows} rows read, all refused)`,
    );
  return {
    files,
    layouts,
    recording: writer.files,
    rows,
    snapshots: seq,
    superseded,
    skipped,
    examples,
    firstMs,
    lastMs,
    symbol,
  };
}

/** A row out of time order, or undefined when it comes after the last accepted row. */
function orderOf(
  row: { readonly time: { readonly exact: bigint; readonly ms: number } },
  previous: { exact: bigint; file: string; line: number } | undefined,
): BadRow | undefined {
  if (previous === undefined || row.time.exact > previous.exact) return undefined;
  const at = `${previous.file}:${previous.line}`;
  return row.time.exact === previous.exact
    ? {
        kind: 'duplicate',
        reason: `time ${isoOfMs(row.time.ms)} again (the row at ${at} has it): a duplicated row`,
      }
    : {
        kind: 'time-back',
        reason: `time goes back to ${isoOfMs(row.time.ms)}, before the row at ${at}`,
      };
}
