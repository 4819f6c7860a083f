/**
 * Small exact helpers for strategy code: the arithmetic every strategy otherwise writes with
 * decimal.js. Inputs and outputs are decimal strings, as in snapshots and intents; nothing here
 * goes through a float.
 */
import { formatX18, parseDecimalToX18 } from '../money/index.ts';
import { markPriceX18 } from '../market/mark-price.ts';
import type { Quote } from '../domain/index.ts';

/**
 * A position as `ctx.position(marketId)` returns it (`"-0.5"` is short), as an exact signed x18
 * integer, for comparisons without floats.
 *
 * @example
 * positionX18('-0.5') // -500000000000000000n
 */
export function positionX18(position: string): bigint {
  return position.startsWith('-')
    ? -parseDecimalToX18(position.slice(1))
    : parseDecimalToX18(position);
}

/** True for a long position (`"0.01"`). @example isLong(ctx.position(id)) */
export function isLong(position: string): boolean {
  return positionX18(position) > 0n;
}

/** True for a short position (`"-0.01"`). @example isShort(ctx.position(id)) */
export function isShort(position: string): boolean {
  return positionX18(position) < 0n;
}

/** True when there is no position (`"0"`). @example if (isFlat(ctx.position(id))) { ... } */
export function isFlat(position: string): boolean {
  return positionX18(position) === 0n;
}

/**
 * The absolute size of a position as a decimal string, e.g. to close it with a reduce-only
 * order of that amount.
 *
 * @example
 * absAmount('-0.25') // '0.25'
 */
export function absAmount(position: string): string {
  return position.startsWith('-') ? position.slice(1) : position;
}

/**
 * The mid of the best bid and ask (the framework's one mark-price rule, so a strategy sees the
 * price its positions are valued at), or undefined when either side is empty.
 *
 * @example
 * mid(snapshot.quotes?.get(id)) // '100.5' for bid 100, ask 101
 */
export function mid(quote: Quote | undefined): string | undefined {
  const mark = markPriceX18(quote);
  return mark === undefined ? undefined : formatX18(mark);
}

/**
 * Best ask minus best bid (a decimal string), or undefined when either side is empty.
 *
 * @example
 * spread(quote) // '1' for bid 100, ask 101
 */
export function spread(quote: Quote | undefined): string | undefined {
  const bid = quote?.bids[0];
  const ask = quote?.asks[0];
  if (bid === undefined || ask === undefined) return undefined;
  const difference = parseDecimalToX18(ask.price) - parseDecimalToX18(bid.price);
  return difference < 0n ? `-${formatX18(-difference)}` : formatX18(difference);
}
