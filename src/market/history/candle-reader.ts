/**
 * Reads candle files (`candle-file.ts`) as the snapshots a backtest replays: one per candle,
 * taken at the candle's close, holding the candle and a book locked at its close price. Every
 * line's seal is checked before it is used; a damaged line is refused with `file:line`.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Market } from '../../domain/index.ts';
import { tryParseSignedDecimalToX18 } from '../../money/index.ts';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { lockedQuote, withX18, type CandleX18 } from '../candle.ts';
import type { Snapshot } from '../snapshot.ts';
import { openSealedLine, sealProblem } from '../recording/line-seal.ts';
import type { SnapshotBatch } from '../recording/index.ts';
import { timeframeMs } from '../timeframe.ts';
import { CANDLE_FILE, CANDLE_FORMAT, CANDLE_VERSION, MARKET_X18_FIELDS } from './candle-file.ts';
import { readCsvLines } from './csv-lines.ts';

const BATCH = 512;

/** Candle history opened by {@link openCandleHistory}. */
export interface OpenedCandles {
  readonly files: readonly string[];
  /** Bytes of the files on disk (compressed). */
  readonly bytes: number;
  readonly market: Market;
  /** The candles' timeframe, like `"1m"`, and its length in ms. */
  readonly timeframe: string;
  readonly timeframeMs: number;
  /** The snapshots, in batches; each call reads the files again. */
  snapshots(): { readonly dropped: number; batches(): AsyncIterable<SnapshotBatch> };
}

const bad = (file: string, line: number, why: string): QuantaError =>
  new QuantaError(ErrorCodes.RECORDING_INVALID, `${file}:${line}: ${why}`);

/** True when `path` names candle files: a `.candles.gz` file, or a folder holding one. */
export async function isCandleHistory(path: string | readonly string[]): Promise<boolean> {
  const first = typeof path === 'string' ? path : path[0];
  if (first === undefined) return false;
  if (CANDLE_FILE.test(first)) return true;
  try {
    if (!(await stat(first)).isDirectory()) return false;
  } catch {
    return false;
  }
  return (await readdir(first)).some((name) => CANDLE_FILE.test(name));
}

async function candleFiles(path: string | readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const entry of typeof path === 'string' ? [path] : path) {
    if (CANDLE_FILE.test(entry)) {
      files.push(entry);
      continue;
    }
    const names = (await readdir(entry)).filter((name) => CANDLE_FILE.test(name)).sort();
    files.push(...names.map((name) => join(entry, name)));
  }
  return files;
}

/** The opened body of line `line`, or a refusal naming it. */
function open(file: string, text: string, line: number): unknown {
  const body = openSealedLine(text, line);
  if (body === undefined) throw bad(file, line, sealProblem(text, line));
  return JSON.parse(body) as unknown;
}

function readMarket(file: string, value: unknown): Market {
  if (typeof value !== 'object' || value === null || !('symbol' in value))
    throw bad(file, 2, 'expected the market line');
  const fields = { ...(value as Record<string, unknown>) };
  for (const key of MARKET_X18_FIELDS) fields[key] = BigInt(String(fields[key]));
  return fields as unknown as Market;
}

/** The header and market of one file. */
async function head(file: string): Promise<{ market: Market; timeframe: string; ms: number }> {
  let header: unknown;
  for await (const { text, line } of readCsvLines(file)) {
    if (line === 1) {
      header = open(file, text, line);
      continue;
    }
    const h = header as { format?: unknown; version?: unknown; timeframe?: unknown };
    if (h.format !== CANDLE_FORMAT || h.version !== CANDLE_VERSION)
      throw bad(file, 1, `not a ${CANDLE_FORMAT} version ${CANDLE_VERSION} header`);
    const ms = timeframeMs(String(h.timeframe));
    if (typeof ms === 'string') throw bad(file, 1, ms);
    return { market: readMarket(file, open(file, text, line)), timeframe: String(h.timeframe), ms };
  }
  throw bad(file, 1, 'no header and market line: not a candle file');
}

/**
 * Opens candle history: a `.candles.gz` file, a folder of them (name order), or a list. The
 * files must be of one market and one timeframe.
 *
 * @throws QuantaError `QUANTA_RECORDING_INVALID` naming `file:line` for a line that fails its
 *   check, a file of another market or timeframe, or candles out of order (when read).
 */
export async function openCandleHistory(path: string | readonly string[]): Promise<OpenedCandles> {
  const files = await candleFiles(path);
  const firstFile = files[0];
  if (firstFile === undefined)
    throw new QuantaError(ErrorCodes.RECORDING_INVALID, `${String(path)}: no candle file`);
  const first = await head(firstFile);
  let bytes = 0;
  for (const file of files) {
    bytes += (await stat(file)).size;
    if (file === firstFile) continue;
    const other = await head(file);
    if (other.market.symbol !== first.market.symbol || other.ms !== first.ms)
      throw bad(
        file,
        2,
        `candles of ${other.market.symbol} ${other.timeframe}, not of ${first.market.symbol} ${first.timeframe} as ${firstFile}`,
      );
  }
  const { market, ms } = first;
  const markets = new Map([[market.id, market]]);
  return {
    files,
    bytes,
    market,
    timeframe: first.timeframe,
    timeframeMs: ms,
    snapshots: () => ({
      dropped: 0,
      batches: () => readBatches(files, markets, market.id, ms),
    }),
  };
}

const VALUES = ['open', 'high', 'low', 'close', 'volume'] as const;

/** A candle line's open, high, low, close and volume as x18, each read once, or a refusal. */
function valuesX18(file: string, line: number, row: readonly unknown[]): CandleX18 {
  const values: bigint[] = [];
  for (let i = 0; i < VALUES.length; i++) {
    const text = row[i + 1];
    const x18 = typeof text === 'string' ? tryParseSignedDecimalToX18(text) : undefined;
    if (x18 === undefined || x18 < 0n)
      throw bad(
        file,
        line,
        `${VALUES[i]} ${JSON.stringify(text)} is not a plain non-negative decimal`,
      );
    values.push(x18);
  }
  const [open, high, low, close, volume] = values as [bigint, bigint, bigint, bigint, bigint];
  return { open, high, low, close, volume };
}

async function* readBatches(
  files: readonly string[],
  markets: ReadonlyMap<number, Market>,
  marketId: number,
  ms: number,
): AsyncGenerator<SnapshotBatch> {
  let seq = 0;
  let last = -Infinity;
  let before = 0;
  let snapshots: Snapshot[] = [];
  let bytesRead: number[] = [];
  for (const file of files) {
    const position = { bytes: 0 };
    let ended = false;
    for await (const { text, line } of readCsvLines(file, position)) {
      if (line <= 2) continue;
      if (ended) throw bad(file, line, 'a line after the end line');
      const row = open(file, text, line);
      if (!Array.isArray(row)) throw bad(file, line, 'expected a candle line');
      if (row[0] === 'e') {
        if (row[1] !== line - 3)
          throw bad(
            file,
            line,
            `the end line counts ${String(row[1])} candles, the file holds ${line - 3}`,
          );
        ended = true;
        continue;
      }
      const [start, open_, high, low, close, volume] = row as [
        number,
        string,
        string,
        string,
        string,
        string,
      ];
      if (typeof start !== 'number' || start % ms !== 0)
        throw bad(file, line, `candle start ${String(start)} is not on the ${ms} ms grid`);
      if (start <= last) throw bad(file, line, 'candle start does not increase');
      last = start;
      const end = start + ms;
      const x18 = valuesX18(file, line, row);
      const candle = withX18({ marketId, start, end, open: open_, high, low, close, volume }, x18);
      seq += 1;
      snapshots.push(
        Object.freeze({
          seq,
          takenAt: end,
          markets,
          stale: false,
          quotes: new Map([[marketId, lockedQuote(marketId, end, close, x18.close)]]),
          candles: new Map([[marketId, candle]]),
        }),
      );
      bytesRead.push(before + position.bytes);
      if (snapshots.length === BATCH) {
        yield { snapshots, bytesRead };
        snapshots = [];
        bytesRead = [];
      }
    }
    if (!ended) throw bad(file, 1, 'no end line: the file was cut short');
    before += position.bytes;
  }
  if (snapshots.length > 0) yield { snapshots, bytesRead };
}
