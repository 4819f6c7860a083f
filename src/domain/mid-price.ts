/**
 * The one mid rule: the mid of a best bid and a best ask, in x18, rounded down to the x18 unit,
 * or undefined when either side is missing.
 *
 * A one-sided book has no mid. Its one price is not a fair value: after a sweep, or on a thin
 * market, the only ask left can sit far above where the market trades, and valuing a position
 * there (or giving it to a strategy as "the mid") would invent PnL, move the daily loss limit and
 * make the equity curve jump and fall back. Users that need a value at every snapshot keep the
 * last one they had (the backtest equity curve and metrics hold the last mark, the buy-and-hold
 * benchmark the last mid, the simulation its previous mid), so a one-sided moment changes
 * nothing rather than something wrong. See docs/figures.md, "Mid and mark price".
 *
 * Every mid in quanta comes from here: the mark price of risk, the portfolio, the equity curve
 * and the strategy helper `mid` (`markPriceX18` in market/), the simulation's replayed mid and
 * the backtest report's price charts and buy-and-hold benchmark.
 *
 * @param bestBidX18 - the best bid price, x18; undefined or null when there is no bid.
 * @param bestAskX18 - the best ask price, x18; undefined or null when there is no ask.
 * @example
 * midPriceX18(100n * 10n ** 18n, 101n * 10n ** 18n) // 100500000000000000000n
 * midPriceX18(100n * 10n ** 18n, undefined)          // undefined: a one-sided book has no mid
 */
export function midPriceX18(
  bestBidX18: bigint | null | undefined,
  bestAskX18: bigint | null | undefined,
): bigint | undefined {
  if (bestBidX18 === undefined || bestBidX18 === null) return undefined;
  if (bestAskX18 === undefined || bestAskX18 === null) return undefined;
  return (bestBidX18 + bestAskX18) / 2n;
}
