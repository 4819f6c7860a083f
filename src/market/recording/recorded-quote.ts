import type { Quote, QuoteLevel } from '../../domain/index.ts';
import { QUOTE_LEVELS_X18, QUOTE_TOP_X18 } from '../../domain/index.ts';
import { parseDecimalToX18 } from '../../money/index.ts';
import { BEST_PRICE_X18, BEST_TICK } from '../best-price.ts';
import { BEST_LEVEL, LEVEL_NUMBERS, numbersOf } from '../book-view.ts';
import { KEPT_MARK, takeMarkX18 } from '../mark-price.ts';

/**
 * One side of the quotes a recorded quote can read: the quote passes its own place (`at`), so one
 * source serves every quote of a stretch of the file (version 1 sides ignore it).
 */
export interface LevelSource {
  levels(at: number): QuoteLevel[];
  /** The first level's price as x18 (undefined for an empty side). */
  bestX18(at: number): bigint | undefined;
  /** The levels as x18, flattened (see `SideLevels.levelsX18`), when the source has them. */
  levelsX18?(at: number): readonly bigint[] | undefined;
  /** The highest or lowest level price as x18 (see `SideLevels.topX18`), when the source has it. */
  topX18?(at: number, highest: boolean): bigint | undefined | null;
  /**
   * The first level's price as a tick into `out[0]` and its grid's `priceExpo` into `out[1]`
   * (see `BEST_TICK`); false when only `bestX18` can tell.
   */
  bestTick?(at: number, out: Float64Array): boolean;
  /** The first level, without building the others (undefined for an empty side). */
  best(at: number): QuoteLevel | undefined;
  /** The levels as numbers into `into` (see `SideLevels.numbers`); how many were written. */
  numbers(at: number, into: Float64Array): number;
}

/**
 * A recorded quote: its levels are built when `bids` or `asks` is first read (a backtest reads
 * those of the markets it trades or charts; building a few thousand objects per snapshot for the
 * others was most of the reading). A class rather than an object literal with getters, which V8
 * builds twenty times slower. The levels are read through getters on the prototype, so copy a
 * quote with `{ marketId, timestamp, bids, asks }` rather than a spread; `JSON.stringify` gives
 * all four fields. Not frozen (a snapshot's quotes Map never was either): its levels sit behind
 * private fields and getters, `marketId` and `timestamp` are readonly to TypeScript, and freezing
 * twenty quotes per snapshot was about a tenth of reading a recording.
 *
 * Its sides are numbers (ticks and quantity units, `side-levels.ts`) until read: the best level
 * (`bestLevel`), the best price (`bestPriceX18`), the x18 levels and the numeric view
 * (`levelNumbers`) are read without building a side's strings.
 */
export class RecordedQuote implements Quote {
  readonly marketId: number;
  readonly timestamp: number;
  readonly #bids: LevelSource;
  readonly #asks: LevelSource;
  readonly #at: number;
  // The levels once read: the quote keeps its strings (they die with it), not the track.
  #bidLevels: QuoteLevel[] | undefined;
  #askLevels: QuoteLevel[] | undefined;
  // The mark once taken (`KEPT_MARK`); `#markTaken` since undefined is a mark too (none).
  #markTaken = false;
  #markX18: bigint | undefined;

  constructor(
    marketId: number,
    timestamp: number,
    bids: LevelSource,
    asks: LevelSource,
    at: number,
  ) {
    this.marketId = marketId;
    this.timestamp = timestamp;
    this.#bids = bids;
    this.#asks = asks;
    this.#at = at;
  }

  get bids(): QuoteLevel[] {
    return (this.#bidLevels ??= this.#bids.levels(this.#at));
  }

  get asks(): QuoteLevel[] {
    return (this.#askLevels ??= this.#asks.levels(this.#at));
  }

  /** The best price of a side as x18, without building the side's levels. */
  [BEST_PRICE_X18](side: 'bids' | 'asks'): bigint | undefined {
    return (side === 'bids' ? this.#bids : this.#asks).bestX18(this.#at);
  }

  /** The mark (`markPriceX18`), taken once: every reader of this snapshot's mark shares it. */
  [KEPT_MARK](): bigint | undefined {
    if (!this.#markTaken) {
      this.#markX18 = takeMarkX18(this);
      this.#markTaken = true;
    }
    return this.#markX18;
  }

  /** The best price of a side as a tick and its grid into `out` (see `BEST_TICK`). */
  [BEST_TICK](side: 'bids' | 'asks', out: Float64Array): boolean {
    return (side === 'bids' ? this.#bids : this.#asks).bestTick?.(this.#at, out) ?? false;
  }

  /** The best level of a side, without building the others. */
  [BEST_LEVEL](side: 'bids' | 'asks'): QuoteLevel | undefined {
    return (side === 'bids' ? this.#bids : this.#asks).best(this.#at);
  }

  /** A side's levels as numbers (see `levelNumbers`), without building its strings. */
  [LEVEL_NUMBERS](side: 'bids' | 'asks', into: Float64Array): number {
    return (side === 'bids' ? this.#bids : this.#asks).numbers(this.#at, into);
  }

  /** A side's levels as x18 straight from the recording's ticks (see `quoteLevelsX18`). */
  [QUOTE_LEVELS_X18](side: 'bids' | 'asks'): readonly bigint[] | undefined {
    return (side === 'bids' ? this.#bids : this.#asks).levelsX18?.(this.#at);
  }

  /** A side's best price by its ticks, the highest bid or lowest ask (see `quoteTopX18`). */
  [QUOTE_TOP_X18](side: 'bids' | 'asks'): bigint | undefined | null {
    const source = side === 'bids' ? this.#bids : this.#asks;
    return source.topX18 === undefined ? null : source.topX18(this.#at, side === 'bids');
  }

  toJSON(): Quote {
    return { marketId: this.marketId, timestamp: this.timestamp, bids: this.bids, asks: this.asks };
  }
}

/** A version 1 side: `"price qty price qty …"` cut into levels when first read. */
export class TextLevels implements LevelSource {
  #levels: QuoteLevel[] | undefined;
  constructor(
    readonly text: string,
    readonly cut: (text: string) => QuoteLevel[],
  ) {}

  levels(): QuoteLevel[] {
    return (this.#levels ??= this.cut(this.text));
  }

  bestX18(): bigint | undefined {
    const top = this.levels()[0];
    return top === undefined ? undefined : parseDecimalToX18(top.price, 'quote price');
  }

  best(): QuoteLevel | undefined {
    return this.levels()[0];
  }

  numbers(_at: number, into: Float64Array): number {
    return numbersOf(this.levels(), into);
  }
}
