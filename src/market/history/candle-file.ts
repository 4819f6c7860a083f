/**
 * Candle files, what `quanta import --kind candles` writes and a backtest on candles reads
 * (docs/recording-format.md, "Candle files"): gzip JSON lines, each line sealed with its CRC
 * as in recording version 5 (`line-seal.ts`), so a changed, deleted or moved line is refused.
 *
 * - line 1: `{"format":"quanta-candles","version":1,"createdAt":…,"source":…,"timeframe":"1m"}`
 * - line 2: the market, `{"id":1,"symbol":"ETH-USD",…}` (x18 fields as integer strings)
 * - one line per candle: `[startMs,"open","high","low","close","volume"]`, starts increasing
 * - last: `["e", candles]`
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import type { Market } from '../../domain/index.ts';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { sealLine } from '../recording/line-seal.ts';

/** The header's `format`. */
export const CANDLE_FORMAT = 'quanta-candles';
/** The version this code writes and reads. */
export const CANDLE_VERSION = 1;
/** How candle files are named: `candles-<UTC time>.candles.gz`. */
export const CANDLE_FILE = /\.candles\.gz$/;

/** Characters of lines gathered before one write to the gzip stream. */
const FLUSH_CHARS = 64 * 1024;

/** The market fields that are x18 integers (written as integer strings). */
export const MARKET_X18_FIELDS = [
  'minAmountX18',
  'maxPositionValueX18',
  'makerFeeX18',
  'takerFeeX18',
  'initialMarginX18',
  'maintenanceMarginX18',
] as const;

/** The market as its line's JSON. */
export function marketJson(market: Market): string {
  const fields: Record<string, unknown> = { ...market };
  for (const key of MARKET_X18_FIELDS) fields[key] = market[key].toString();
  return JSON.stringify(fields);
}

/** Writes one candle file; lines are sealed with their numbers. */
export class CandleFileWriter {
  readonly path: string;
  readonly #gzip = createGzip();
  readonly #failed: Promise<never>;
  #line = 0;
  #candles = 0;

  private constructor(path: string) {
    this.path = path;
    const file = createWriteStream(path);
    this.#gzip.pipe(file);
    this.#failed = Promise.race([once(file, 'error'), once(this.#gzip, 'error')]).then(
      ([error]: unknown[]) => {
        throw new QuantaError(
          ErrorCodes.HISTORY_INVALID,
          `${path}: cannot write (${error instanceof Error ? error.message : String(error)})`,
          { cause: error },
        );
      },
    );
    this.#failed.catch(() => undefined);
    this.#finished = once(file, 'finish');
  }

  readonly #finished: Promise<unknown[]>;

  /**
   * Creates `dir` if needed and opens `candles-<createdAt>.candles.gz` in it, with the header
   * and market lines written.
   */
  static async open(options: {
    readonly dir: string;
    readonly createdAt: number;
    readonly source: string;
    readonly timeframe: string;
    readonly market: Market;
  }): Promise<CandleFileWriter> {
    await mkdir(options.dir, { recursive: true });
    const stamp = new Date(options.createdAt).toISOString().replace(/[:.]/g, '-');
    const writer = new CandleFileWriter(join(options.dir, `candles-${stamp}.candles.gz`));
    writer.#write(
      JSON.stringify({
        format: CANDLE_FORMAT,
        version: CANDLE_VERSION,
        createdAt: new Date(options.createdAt).toISOString(),
        source: options.source,
        timeframe: options.timeframe,
      }),
    );
    writer.#write(marketJson(options.market));
    return writer;
  }

  /** Lines not yet handed to gzip: one write per line would cost a zlib job per line. */
  #pending = '';

  #write(body: string): boolean {
    this.#line += 1;
    this.#pending += `${sealLine(body, this.#line)}\n`;
    if (this.#pending.length < FLUSH_CHARS) return true;
    const text = this.#pending;
    this.#pending = '';
    return this.#gzip.write(text);
  }

  /** Writes one candle (decimal strings in canonical form); resolves once there is room again. */
  async write(
    start: number,
    ohlcv: readonly [string, string, string, string, string],
  ): Promise<void> {
    this.#candles += 1;
    if (!this.#write(JSON.stringify([start, ...ohlcv])))
      await Promise.race([once(this.#gzip, 'drain'), this.#failed]);
  }

  /** Writes the end line and closes the file. */
  async close(): Promise<void> {
    this.#write(JSON.stringify(['e', this.#candles]));
    this.#gzip.end(this.#pending);
    this.#pending = '';
    await Promise.race([this.#finished, this.#failed]);
  }
}
