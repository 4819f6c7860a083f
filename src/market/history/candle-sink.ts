/**
 * Where imported candle rows go: checked against the candles' time grid and written to a
 * candle file (`candle-file.ts`). The timeframe is the kline layout's (close time − open time,
 * plus the 1 ms exchange dumps leave out), or else the gap found most often between the first
 * {@link TIMEFRAME_SAMPLE} candles (the smaller of two found as often): a first candle cut short
 * or a missing row does not set it. A candle off that grid is refused, never moved.
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
  /**
   * Told of a candle refused once the timeframe is known, among those held to find it (a later
   * one's refusal is `take`'s answer).
   */
  readonly refuse: (file: string, line: number, bad: BadRow) => void;
}

/** How many candles without a close time are held to find their timeframe from their gaps. */
export const TIMEFRAME_SAMPLE = 32;

/** A candle held until the timeframe is known, with where it was read. */
interface HeldCandle {
  readonly row: CandleRow;
  readonly file: string;
  readonly line: number;
}

const isTimeframe = (ms: number): boolean =>
  ms > 0 && typeof timeframeMs(formatTimeframe(ms)) === 'number';

/** Candle rows, in time order, to one candle file. */
export class CandleSink {
  readonly #options: CandleSinkOptions;
  #ms: number | undefined;
  readonly #held: HeldCandle[] = [];
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
   *   or undefined when it was taken (or held until the timeframe is known).
   * @throws QuantaError `QUANTA_HISTORY_INVALID` naming `file:line` when the first candles give
   *   no timeframe quanta knows.
   */
  async take(row: CandleRow, file: string, line: number): Promise<BadRow | undefined> {
    if (this.#ms === undefined) {
      if (row.closeTime !== undefined) {
        const span = row.closeTime.ms - row.time.ms;
        const found = [span + 1, span].find(isTimeframe);
        if (found === undefined)
          throw new QuantaError(
            ErrorCodes.HISTORY_INVALID,
            `${file}:${line}: the candle of ${isoOfMs(row.time.ms)} closes ${span} ms after it opens: no timeframe quanta knows (a whole number of s, m, h or d that divides a day)`,
          );
        this.#ms = found;
        // Candles held from a file before, which had no close time: written first, on this grid.
        await this.#takeHeld();
      } else {
        this.#held.push({ row, file, line });
        if (this.#held.length < TIMEFRAME_SAMPLE) return undefined;
        await this.#takeHeld();
        return undefined;
      }
    }
    return this.#write(row, this.#ms);
  }

  /**
   * Sets the timeframe from the held candles' gaps (the one found most often; the smaller of two
   * found as often) and takes them; a held candle off its grid is refused through `refuse`.
   */
  async #takeHeld(): Promise<void> {
    const held = this.#held.splice(0);
    const first = held[0];
    if (first === undefined) return;
    if (this.#ms !== undefined) {
      await this.#writeHeld(held, this.#ms);
      return;
    }
    const counts = new Map<number, number>();
    for (let i = 1; i < held.length; i += 1) {
      const gap = (held[i] as HeldCandle).row.time.ms - (held[i - 1] as HeldCandle).row.time.ms;
      counts.set(gap, (counts.get(gap) ?? 0) + 1);
    }
    let ms: number | undefined;
    for (const [gap, count] of counts) {
      const best = ms === undefined ? 0 : (counts.get(ms) ?? 0);
      if (ms === undefined || count > best || (count === best && gap < ms)) ms = gap;
    }
    if (ms === undefined)
      throw new QuantaError(
        ErrorCodes.HISTORY_INVALID,
        `${first.file}:${first.line}: one candle alone, without a close time, does not tell its timeframe; import at least two`,
      );
    if (!isTimeframe(ms)) {
      const last = held.at(-1) as HeldCandle;
      throw new QuantaError(
        ErrorCodes.HISTORY_INVALID,
        `${first.file}:${first.line}-${last.line}: the candles are most often ${ms} ms apart: no timeframe quanta knows (a whole number of s, m, h or d that divides a day)`,
      );
    }
    this.#ms = ms;
    await this.#writeHeld(held, ms);
  }

  /** Writes held candles on the grid of `ms`, refusing through `refuse` those off it. */
  async #writeHeld(held: readonly HeldCandle[], ms: number): Promise<void> {
    for (const candle of held) {
      const refused = await this.#write(candle.row, ms);
      if (refused !== undefined) this.#options.refuse(candle.file, candle.line, refused);
    }
  }

  /** Checks `row` against the grid of timeframe `ms` and writes it: or why it was refused. */
  async #write(row: CandleRow, ms: number): Promise<BadRow | undefined> {
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
   * Takes the candles still held, if any, and closes the file.
   *
   * @throws QuantaError `QUANTA_HISTORY_INVALID` when only one candle came and it says nothing
   *   of its timeframe, or the candles' gaps give none quanta knows.
   */
  async finish(): Promise<void> {
    await this.#takeHeld();
    await this.#writer?.close();
  }

  /** Closes the file, if any, without checks (a failed import removes it). */
  async abandon(): Promise<void> {
    await this.#writer?.close().catch(() => undefined);
  }
}
