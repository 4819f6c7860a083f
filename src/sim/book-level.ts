import type { OrderSide } from '../domain/index.ts';

/**
 * One price level of the simulated book. `remainingX18` shrinks as fills consume it and is
 * restored only when the book is rebuilt (next price step, or new external quotes).
 */
export interface BookLevel {
  readonly priceX18: bigint;
  remainingX18: bigint;
}

/** Both sides of a book, best level first: bids descending, asks ascending. */
export interface Book {
  readonly bids: BookLevel[];
  readonly asks: BookLevel[];
}

/** One slice of liquidity taken from a level. */
export interface LevelTake {
  readonly priceX18: bigint;
  readonly amountX18: bigint;
}

/**
 * Walks the side of `book` that an order on `side` trades against (asks for a BUY, bids for a
 * SELL), best first, taking up to `wantX18`, and consumes what it takes.
 *
 * @param limitPriceX18 - the worst acceptable level price, or `null` for a market order.
 * @returns the slices taken, in book order; empty when nothing crosses.
 */
export function takeLiquidity(
  book: Book,
  side: OrderSide,
  wantX18: bigint,
  limitPriceX18: bigint | null,
): LevelTake[] {
  const levels = side === 'BUY' ? book.asks : book.bids;
  const takes: LevelTake[] = [];
  let left = wantX18;
  for (const level of levels) {
    if (left <= 0n) break;
    if (limitPriceX18 !== null && !crosses(side, level.priceX18, limitPriceX18)) break;
    if (level.remainingX18 <= 0n) continue;
    const amountX18 = level.remainingX18 < left ? level.remainingX18 : left;
    level.remainingX18 -= amountX18;
    left -= amountX18;
    takes.push({ priceX18: level.priceX18, amountX18 });
  }
  return takes;
}

/** True when a level at `levelPriceX18` is acceptable to an order on `side` limited at `limitX18`. */
export function crosses(side: OrderSide, levelPriceX18: bigint, limitX18: bigint): boolean {
  return side === 'BUY' ? levelPriceX18 <= limitX18 : levelPriceX18 >= limitX18;
}
