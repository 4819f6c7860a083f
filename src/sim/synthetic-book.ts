import { ceilToQuantum, floorToQuantum, quantumX18 } from '../money/index.ts';
import type { Book, BookLevel } from './book-level.ts';
import { PPB } from './price-walk.ts';

const PPB_LESS_ONE = PPB - 1n;

/** The shape of a synthetic book; relative distances in parts per billion of the mid. */
export interface BookShape {
  /** Distance of the best bid and the best ask from the mid. */
  readonly halfSpreadPpb: bigint;
  /** Extra distance between consecutive levels. */
  readonly levelStepPpb: bigint;
  /** Levels per side. */
  readonly depth: number;
}

/**
 * A shape's factors by level: `PPB − distance` (bids), `PPB + distance` (asks) and whether the
 * distance is below PPB (a bid is quoted). The same for every book of the shape: an engine
 * computes them once (`SimMarkets`), not at each of the thousands of books it builds.
 */
export interface LevelFactors {
  readonly below: readonly bigint[];
  readonly above: readonly bigint[];
  readonly bidQuoted: readonly boolean[];
}

/** The {@link LevelFactors} of `shape`. */
export function levelFactors(shape: BookShape): LevelFactors {
  const below: bigint[] = [];
  const above: bigint[] = [];
  const bidQuoted: boolean[] = [];
  for (let i = 0; i < shape.depth; i += 1) {
    const distancePpb = shape.halfSpreadPpb + BigInt(i) * shape.levelStepPpb;
    below.push(PPB - distancePpb);
    above.push(PPB + distancePpb);
    bidQuoted.push(distancePpb < PPB);
  }
  return { below, above, bidQuoted };
}

/**
 * Builds a fresh book around `midX18`: level `i` sits `halfSpread + i × levelStep` away from
 * the mid, bids floored and asks ceiled to the price grid (so the book never quotes inside the
 * intended spread), each level holding `levelSizeX18`. When the grid is coarser than the level
 * step, levels are pushed one quantum apart so no two share a price; bids that would reach
 * zero are dropped.
 */
export function buildSyntheticBook(
  midX18: bigint,
  priceExpo: number,
  levelSizeX18: bigint,
  shape: BookShape,
  factors: LevelFactors = levelFactors(shape),
): Book {
  const quantum = quantumX18(priceExpo);
  const { below, above, bidQuoted } = factors;
  const bids: BookLevel[] = [];
  const asks: BookLevel[] = [];
  for (let i = 0; i < shape.depth; i += 1) {
    // BigInt division truncates; a bid's product is negative when distance > PPB (not quoted).
    let bid = floorToQuantum((midX18 * below[i]!) / PPB, quantum);
    const previousBid = bids.at(-1);
    if (previousBid !== undefined && bid >= previousBid.priceX18)
      bid = previousBid.priceX18 - quantum;
    if (bidQuoted[i]! && bid > 0n) bids.push({ priceX18: bid, remainingX18: levelSizeX18 });

    // The ceiling of a positive quotient (mid > 0), then the ceiling to the grid.
    const exact = (midX18 * above[i]! + PPB_LESS_ONE) / PPB;
    let ask = ceilToQuantum(exact, quantum);
    const floorAsk = (asks.at(-1)?.priceX18 ?? bids[0]?.priceX18 ?? 0n) + quantum;
    if (ask < floorAsk) ask = floorAsk;
    asks.push({ priceX18: ask, remainingX18: levelSizeX18 });
  }
  return { bids, asks };
}
