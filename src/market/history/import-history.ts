/**
 * `quanta import`'s work: CSV history files (plain or gzip, read as streams) → one recording in
 * the format `quanta backtest` reads (docs/recording-format.md). Every row is checked (fields,
 * time, symbol, grid, order); a row that fails is refused with `file:line` and why, or with
 * `onBad: 'skip'` dropped and counted by kind: never changed to fit.
 */
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Market } from '../../domain/index.ts';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { listRecordingFiles } from '../recording/index.ts';
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
} from './history-row.ts';
import { QuoteSink } from './quote-sink.ts';
import { isoOfMs } from './timestamp.ts';

/**
 * The folder in `--out` an import writes to until it is whole (then its files move into `--out`);
 * nothing reads it: readers take only the recording and candle files of `--out` itself.
 */
export const STAGING = '.import-partial';

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
   * Rows whose time falls in the millisecond of the next row (finer sources, e.g. µs, and
   * updates a source stamped with one time): the snapshot of that millisecond is the last of
   * them, the others are counted here.
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

/** The input files' total size in bytes (for progress), refusing a missing file. */
async function totalSizeOf(files: readonly string[]): Promise<number> {
  let totalBytes = 0;
  for (const file of files) {
    try {
      totalBytes += (await stat(file)).size;
    } catch (error) {
      throw new QuantaError(ErrorCodes.HISTORY_INVALID, `${file}: no such file`, { cause: error });
    }
  }
  return totalBytes;
}

/** Refused rows: the first ends the import (`fail`), or each is counted (`skip`). */
class Refusals {
  readonly skipped: Record<BadRowKind, number> = {
    malformed: 0,
    'time-back': 0,
    duplicate: 0,
    'off-grid': 0,
    'other-market': 0,
    crossed: 0,
  };
  readonly examples: RefusedRow[] = [];

  constructor(readonly onBad: 'fail' | 'skip') {}

  refuse(file: string, line: number, bad: BadRow): void {
    if (this.onBad === 'fail')
      throw new QuantaError(ErrorCodes.HISTORY_INVALID, `${file}:${line}: ${bad.reason}`, {
        details: ['Fix the row, or pass --on-bad skip to drop such rows (each is counted).'],
      });
    this.skipped[bad.kind] += 1;
    if (this.examples.length < EXAMPLES) this.examples.push({ file, line, ...bad });
  }
}

/** Where the accepted rows go: candles to a candle file, quotes and books to a recording. */
type Sink =
  | { readonly kind: 'candles'; readonly to: CandleSink }
  | { readonly kind: 'quotes'; readonly to: QuoteSink };

/** The last row taken: its time, where it was read, and its fields (to tell a repeat). */
interface AcceptedRow {
  readonly exact: bigint;
  readonly file: string;
  readonly line: number;
  readonly fields: string;
}

/** One import under way: what it has read so far. */
interface ImportRun {
  readonly options: ImportOptions;
  readonly sink: Sink;
  readonly refusals: Refusals;
  readonly totalBytes: number;
  readonly layouts: string[];
  symbol: string | undefined;
  previous: AcceptedRow | undefined;
  rows: number;
  /** Bytes of the files read before the current one. */
  before: number;
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
  // Written aside and moved into --out once whole: an import killed midway (Ctrl-C, SIGKILL)
  // leaves nothing in --out a backtest would read as the whole history. A folder left by an
  // earlier import that was killed is this import's to clear.
  const staging = join(options.out, STAGING);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const refusals = new Refusals(options.onBad ?? 'fail');
  const run: ImportRun = {
    options,
    sink: sinkOf(kind, market, { ...options, out: staging }, refusals),
    refusals,
    totalBytes: await totalSizeOf(files),
    layouts: [],
    symbol: options.sourceSymbol,
    previous: undefined,
    rows: 0,
    before: 0,
  };
  const sink = run.sink.to;
  try {
    for (const file of files) await importFile(run, file);
    await sink.finish();
    options.onProgress?.(run.rows, run.before, run.totalBytes);
  } catch (error) {
    // Nothing half-imported is left behind to be backtested as if it were the whole history.
    await sink.abandon();
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  if (sink.count === 0) {
    await rm(staging, { recursive: true, force: true });
    throw new QuantaError(
      ErrorCodes.HISTORY_INVALID,
      `${files.join(', ')}: no row was imported (${run.rows} rows read, all refused)`,
    );
  }
  const recording: string[] = [];
  try {
    for (const file of sink.files) {
      const to = join(options.out, basename(file));
      await rename(file, to);
      recording.push(to);
    }
  } catch (error) {
    // Part of a recording moved is no recording: what moved goes too.
    for (const moved of recording) await rm(moved, { force: true });
    await rm(staging, { recursive: true, force: true });
    throw new QuantaError(
      ErrorCodes.HISTORY_INVALID,
      `--out ${options.out}: the imported files could not be moved into it; nothing was kept`,
      { cause: error },
    );
  }
  await rm(staging, { recursive: true, force: true });
  return summaryOf(run, recording);
}

function sinkOf(
  kind: HistoryKind,
  market: Market,
  options: ImportOptions,
  refusals: Refusals,
): Sink {
  const source = `quanta import --kind ${kind} ${market.symbol}`;
  const to = { dir: options.out, market, source, now: options.now };
  // Candles held to find their timeframe are refused later than they were read: by file:line.
  const refuse = (file: string, line: number, bad: BadRow) => refusals.refuse(file, line, bad);
  return kind === 'candles'
    ? { kind: 'candles', to: new CandleSink({ ...to, refuse }) }
    : { kind: 'quotes', to: new QuoteSink(to) };
}

function summaryOf(run: ImportRun, recording: readonly string[]): ImportSummary {
  const { sink, refusals } = run;
  return {
    files: run.options.files,
    layouts: run.layouts,
    recording,
    rows: run.rows,
    snapshots: sink.to.count,
    superseded: sink.kind === 'quotes' ? sink.to.superseded : 0,
    skipped: refusals.skipped,
    examples: refusals.examples,
    firstMs: sink.to.firstMs,
    lastMs: sink.to.lastMs,
    symbol: run.symbol,
    ...(sink.kind === 'candles' ? { timeframe: sink.to.timeframe } : {}),
  };
}

/** Reads one file's rows into the sink. */
async function importFile(run: ImportRun, file: string): Promise<void> {
  const { options } = run;
  let plan: ColumnPlan | undefined;
  const position = { bytes: 0 };
  for await (const { text, line } of readCsvLines(file, position)) {
    if (text === '') continue;
    const fields = splitCsvLine(text);
    if (typeof fields === 'string') {
      run.refusals.refuse(file, line, { kind: 'malformed', reason: fields });
      continue;
    }
    if (plan === undefined) {
      const found = planColumns(options.kind, fields, options.mapping);
      if (typeof found === 'string')
        throw new QuantaError(ErrorCodes.HISTORY_INVALID, `${file}:${line}: ${found}`);
      plan = found;
      run.layouts.push(plan.layout);
      if (plan.header) continue;
    }
    run.rows += 1;
    if (run.rows % PROGRESS_EVERY === 0)
      options.onProgress?.(run.rows, run.before + position.bytes, run.totalBytes);
    const refused = await takeRow(run, fields, plan, { file, line });
    if (refused !== undefined) run.refusals.refuse(file, line, refused);
  }
  if (plan === undefined)
    throw new QuantaError(ErrorCodes.HISTORY_INVALID, `${file}: empty file (no header, no rows)`);
  run.before += position.bytes;
}

/** Reads, checks and takes one row: why it was refused, or undefined when it was taken. */
async function takeRow(
  run: ImportRun,
  fields: readonly string[],
  plan: ColumnPlan,
  { file, line }: { readonly file: string; readonly line: number },
): Promise<BadRow | undefined> {
  const { market } = run.options;
  const { sink } = run;
  const row =
    sink.kind === 'candles'
      ? readCandleRow(fields, plan, market)
      : readBookRow(fields, plan, market);
  if (isBadRow(row)) return row;
  if (row.symbol !== undefined) {
    run.symbol ??= row.symbol;
    if (row.symbol !== run.symbol)
      return {
        kind: 'other-market',
        reason: `a row of ${JSON.stringify(row.symbol)}, not of ${JSON.stringify(run.symbol)} (the market imported as ${market.symbol})`,
      };
  }
  const text = fields.join('\u0000');
  const order = orderOf(row, text, run.previous, sink.kind);
  if (order !== undefined) return order;
  const refused =
    sink.kind === 'candles'
      ? await sink.to.take(row as CandleRow, file, line)
      : await sink.to.take(row as BookRow);
  if (refused === undefined) run.previous = { exact: row.time.exact, file, line, fields: text };
  return refused;
}

/**
 * A row out of time order, or undefined when it comes after the last accepted row. A quote or
 * book row at the same time as the last one, and different from it, is a later update of that
 * instant (a source that stamps several updates with one time): taken, and its snapshot is the
 * last row's (`superseded`), as for rows of a finer source within one millisecond. The same row
 * again, or a second candle of one time, is a `duplicate`.
 */
function orderOf(
  row: { readonly time: { readonly exact: bigint; readonly ms: number } },
  fields: string,
  previous: AcceptedRow | undefined,
  kind: Sink['kind'],
): BadRow | undefined {
  if (previous === undefined || row.time.exact > previous.exact) return undefined;
  const at = `${previous.file}:${previous.line}`;
  if (row.time.exact === previous.exact && kind === 'quotes' && fields !== previous.fields)
    return undefined;
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
