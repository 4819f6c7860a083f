/**
 * The best bid and ask of the charted markets as a kept sample holds them (`Sample.tops`): a
 * recorded quote's tick prices as numbers, made into `MarketTop`s with their bigints when the
 * sample's `tops` is first read. The samples are built after most snapshots while the keeper has
 * room (`SampleKeeper`), and a sample's tops made at once (an object and, for a tick not made
 * lately, two bigints per market) were most of what a backtest that reads no book cost: most
 * of those samples are dropped unread when the keeper merges its stretches.
 */
import { BEST_TICK, bestPriceX18 } from '../market/best-price.ts';
import { tickX18 } from '../market/recording/side-levels.ts';
import type { Snapshot } from '../market/snapshot.ts';
import type { SharedValues } from './shared-values.ts';
import type { MarketTop, Sample } from './trace.ts';

interface TickPriced {
  [BEST_TICK](side: 'bids' | 'asks', out: Float64Array): boolean;
}

/** Numbers per market in `KeptTops.nums`: bid tick, bid grid, ask tick, ask grid. */
const PER_MARKET = 4;

/** The tops of one sample, as {@link keepTops} read them. */
export interface KeptTops {
  /** The charted markets, by id ascending (shared between samples while it does not grow). */
  readonly ids: readonly number[];
  /** Per market, {@link PER_MARKET} numbers; a tick of NaN: the price is in `others`. */
  readonly nums: number[];
  /** The prices that are not ticks (null: no level), bid at 2i and ask at 2i + 1. */
  others: (bigint | null)[] | undefined;
  /** The `MarketTop`s, once read. */
  made: MarketTop[] | undefined;
}

// Where a quote writes a best tick and its grid (one pair, reused).
const OUT = new Float64Array(2);

/**
 * The best bid and ask of every charted market (ids ascending) in `snapshot`, as numbers where
 * the quote gives ticks (`BEST_TICK`), else as `bestPriceX18` gives them, one copy of each
 * (`prices`).
 */
export function keepTops(
  snapshot: Snapshot,
  charted: readonly number[],
  prices: SharedValues,
): KeptTops {
  const quotes = snapshot.quotes;
  const nums = new Array<number>(PER_MARKET * charted.length);
  const kept: KeptTops = { ids: charted, nums, others: undefined, made: undefined };
  for (let i = 0; i < charted.length; i++) {
    const quote = quotes?.get(charted[i] as number);
    const ticks = quote === undefined ? undefined : (quote as Partial<TickPriced>)[BEST_TICK];
    for (let side = 0; side < 2; side++) {
      const name = side === 0 ? 'bids' : 'asks';
      const at = PER_MARKET * i + 2 * side;
      if (ticks?.call(quote, name, OUT) === true) {
        nums[at] = OUT[0] as number;
        nums[at + 1] = OUT[1] as number;
        continue;
      }
      nums[at] = Number.NaN;
      nums[at + 1] = 0;
      const price = bestPriceX18(quote, name);
      kept.others ??= new Array<bigint | null>(2 * charted.length).fill(null);
      kept.others[2 * i + side] = price === undefined ? null : prices.top(price);
    }
  }
  return kept;
}

/** The `MarketTop`s of kept tops: a tick's price is `tickX18` of it, as `bestPriceX18` gave. */
function topsOf(kept: KeptTops): MarketTop[] {
  const { ids, nums, others } = kept;
  const tops = new Array<MarketTop>(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const at = PER_MARKET * i;
    const bid = nums[at] as number;
    const ask = nums[at + 2] as number;
    tops[i] = {
      marketId: ids[i] as number,
      bidX18: Number.isNaN(bid) ? (others?.[2 * i] ?? null) : tickX18(bid, nums[at + 1] as number),
      askX18: Number.isNaN(ask)
        ? (others?.[2 * i + 1] ?? null)
        : tickX18(ask, nums[at + 3] as number),
    };
  }
  return tops;
}

/** Where a sample holds its kept tops (not enumerable). */
const KEPT = Symbol('kept tops');

interface WithKeptTops {
  readonly [KEPT]: KeptTops;
}

/** A sample's `tops`: made at the first read, the same list at every read after it. */
function readTops(this: WithKeptTops): MarketTop[] {
  const kept = this[KEPT];
  return (kept.made ??= topsOf(kept));
}

/**
 * Gives `sample` its `tops` as an enumerable accessor over `kept` (one function for every
 * sample, so they keep one hidden class), added last as the field was: spread, `JSON.stringify`
 * and deep equality see the same fields, in the same order, with the same values.
 */
export function withTops(sample: Omit<Sample, 'tops'>, kept: KeptTops): Sample {
  Object.defineProperty(sample, KEPT, { value: kept });
  Object.defineProperty(sample, 'tops', { get: readTops, enumerable: true });
  return sample as Sample;
}
