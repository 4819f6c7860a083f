import { ceilToGrid, floorToGrid, quantumX18 } from '../money/index.ts';
import type { Book, BookLevel } from './book-level.ts';
import { PPB } from './price-walk.ts';

/** The shape of a synthetic book; relative distances in parts per billion of the mid. */
export interface BookShape {
  /** Distance of the best bid and the best ask from the mid. */
  readonly halfSpreadPpb: bigint;
  /** Extra distance between consecutive levels. */
  readonly levelStepPpb: bigint;
  /** Levels per side. */
  readonly depth: number;
}

function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
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
): Book {
  const quantum = quantumX18(priceExpo);
  const bids: BookLevel[] = [];
  const asks: BookLevel[] = [];
  for (let i = 0; i < shape.depth; i += 1) {
    const distancePpb = shape.halfSpreadPpb + BigInt(i) * shape.levelStepPpb;

    let bid = floorToGrid((midX18 * (PPB - distancePpb)) / PPB, priceExpo);
    const previousBid = bids.at(-1);
    if (previousBid !== undefined && bid >= previousBid.priceX18)
      bid = previousBid.priceX18 - quantum;
    if (distancePpb < PPB && bid > 0n) bids.push({ priceX18: bid, remainingX18: levelSizeX18 });

    let ask = ceilToGrid(ceilDiv(midX18 * (PPB + distancePpb), PPB), priceExpo);
    const floorAsk = (asks.at(-1)?.priceX18 ?? bids[0]?.priceX18 ?? 0n) + quantum;
    if (ask < floorAsk) ask = floorAsk;
    asks.push({ priceX18: ask, remainingX18: levelSizeX18 });
  }
  return { bids, asks };
}
