/**
 * Where imported candle rows go: checked against the candles' time grid and written to a
 * candle file (`candle-file.ts`). The timeframe is the kline layout's (close time − open time,
 * plus the 1 ms exchange dumps leave out), or else the gap between the first two candles; a
 * later candle off that grid is refused, never moved.
 */
import type { Market } from '../../domain/index.ts';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { formatX18 } from '../../money/index.ts';
import { formatTimeframe, timeframeMs } from '../timeframe.ts';
import { CandleFileWriter } from './candle-file.ts';
import type { BadRow, CandleRow } from './history-row.ts';
import { isoOfMs } from './timestamp.ts';

/** Where a candle sink writes, and for which market. */
export interface CandleSinkOptions {
  readonly dir: string;
  readonly market: Market;
  readonly source: string;
  readonly now: () => number;
}

const isTimeframe = (ms: number): boolean =>
  ms > 0 && typeof timeframeMs(formatTimeframe(ms)) === 'number';

/** Candle rows, in time order, to one candle file. */
export class CandleSink {
  readonly #options: CandleSinkOptions;
  #ms: number | undefined;
  #held: { readonly row: CandleRow; readonly file: string; readonly line: number } | undefined;
  #writer: CandleFileWriter | undefined;
  /** Candles written. */
  count = 0;
  firstMs: number | undefined;
  lastMs: number | undefined;

  constructor(options: CandleSinkOptions) {
    this.#options = options;
  }

  /** The timeframe, like `"1m"`, once known. */
  get timeframe(): string | undefined {
    return this.#ms === undefined ? undefined : formatTimeframe(this.#ms);
  }

  /** The file written (empty until the first candle is). */
  get files(): string[] {
    return this.#writer === undefined ? [] : [this.#writer.path];
  }

  /**
   * Takes one candle that came after the last one taken (the caller checks the order).
   *
   * @returns a refusal (off the time grid, or a close time that disagrees with the timeframe),
   *   or undefined when it was taken.
   * @throws QuantaError `QUANTA_HISTORY_INVALID` naming `file:line` when the first candles give
   *   no timeframe quanta knows.
   */
  async take(row: CandleRow, file: string, line: number): Promise<BadRow | undefined> {
    if (this.#ms === undefined) {
      let ms: number;
      if (row.closeTime !== undefined) {
        const span = row.closeTime.ms - row.time.ms;
        const found = [span + 1, span].find(isTimeframe);
        if (found === undefined)
          throw new QuantaError(
            ErrorCodes.HISTORY_INVALID,
            `${file}:${line}: the candle of ${isoOfMs(row.time.ms)} closes ${span} ms after it opens: no timeframe quanta knows (a whole number of s, m, h or d that divides a day)`,
          );
        ms = found;
      } else if (this.#held === undefined) {
        this.#held = { row, file, line };
        return undefined;
      } else {
        ms = row.time.ms - this.#held.row.time.ms;
        if (!isTimeframe(ms))
          throw new QuantaError(
            ErrorCodes.HISTORY_INVALID,
            `${file}:${line}: the first two candles are ${ms} ms apart (${this.#held.file}:${this.#held.line} and this row): no timeframe quanta knows (a whole number of s, m, h or d that divides a day)`,
          );
      }
      this.#ms = ms;
      const held = this.#held;
      this.#held = undefined;
      if (held !== undefined) {
        const refused = await this.take(held.row, held.file, held.line);
        if (refused !== undefined)
          throw new QuantaError(
            ErrorCodes.HISTORY_INVALID,
            `${held.file}:${held.line}: ${refused.reason}`,
          );
      }
    }
    const ms = this.#ms;
    if (row.time.exact % 1_000_000n !== 0n || row.time.ms % ms !== 0)
      return {
        kind: 'off-grid',
        reason: `candle time ${isoOfMs(row.time.ms)} is not on the ${formatTimeframe(ms)} grid of the candles (a ${formatTimeframe(ms)} candle opens on a multiple of ${ms} ms since the epoch)`,
      };
    if (row.closeTime !== undefined) {
      const span = row.closeTime.ms - row.time.ms;
      if (span !== ms && span !== ms - 1)
        return {
          kind: 'malformed',
          reason: `close time is ${span} ms after the open, not one ${formatTimeframe(ms)} candle`,
        };
    }
    this.#writer ??= await CandleFileWriter.open({
      dir: this.#options.dir,
      createdAt: this.#options.now(),
      source: this.#options.source,
      timeframe: formatTimeframe(ms),
      market: this.#options.market,
    });
    await this.#writer.write(row.time.ms, [
      formatX18(row.openX18),
      formatX18(row.highX18),
      formatX18(row.lowX18),
      formatX18(row.closeX18),
      formatX18(row.volumeX18),
    ]);
    this.count += 1;
    this.firstMs ??= row.time.ms;
    this.lastMs = row.time.ms;
    return undefined;
  }

  /**
   * Closes the file.
   *
   * @throws QuantaError `QUANTA_HISTORY_INVALID` when only one candle came and it says nothing
   *   of its timeframe.
   */
  async finish(): Promise<void> {
    if (this.#held !== undefined)
      throw new QuantaError(
        ErrorCodes.HISTORY_INVALID,
        `${this.#held.file}:${this.#held.line}: one candle alone, without a close time, does not tell its timeframe; import at least two`,
      );
    await this.#writer?.close();
  }

  /** Closes the file, if any, without checks (a failed import removes it). */
  async abandon(): Promise<void> {
    await this.#writer?.close().catch(() => undefined);
  }
}
