import {
  absX18,
  displayX18,
  formatX18,
  MONEY_DECIMALS,
  notionalExceeds,
} from '../../money/index.ts';
import type { Market, Quote } from '../../domain/index.ts';
import { bestPriceX18 } from '../../market/best-price.ts';
import { refuse, type Refusal } from '../refusal.ts';
import type { SizedOrder } from './sizing.ts';
import {
  checkMargin,
  checkSpotHolding,
  type MarginFacts,
  type UnknownAccount,
} from './margin-check.ts';

/** Configured risk limits, in quote units x18. */
export interface RiskLimits {
  readonly maxOrderNotionalX18: bigint;
  readonly maxPositionNotionalX18: bigint;
  /** `risk.maxLeverage`: per market symbol, a leverage cap (x18) stricter than the listing's. */
  readonly maxLeverageX18?: ReadonlyMap<string, bigint>;
  /** Positive number: the day's realized+unrealized loss at which new exposure stops. */
  readonly dailyLossLimitX18?: bigint;
}

/** What the checks look at besides the order: all values, no I/O. */
export interface CheckContext {
  readonly market: Market;
  readonly quote: Quote | undefined;
  /** Signed current position in the market (x18 base units). */
  readonly positionX18: bigint;
  readonly limits: RiskLimits;
  /** Today's PnL in quote x18 (negative = loss). */
  readonly dailyPnlX18: bigint;
  /**
   * The bot's estimate of its account for the margin check, or why it has none (opening orders
   * are then refused `MARGIN_UNKNOWN`); absent: no margin check (tests of the other checks).
   */
  readonly margin?: MarginFacts | UnknownAccount | undefined;
}

/**
 * The price an order is valued at before it is sent: its limit price, or for a MARKET order the
 * best ask (buy) or best bid (sell) of the latest quote. Undefined when there is none.
 */
export function referencePriceX18(order: SizedOrder, quote: Quote | undefined): bigint | undefined {
  if (order.type === 'LIMIT') return order.priceX18;
  // (Without building the quote's levels when it knows its best prices: a recorded quote.)
  return bestPriceX18(quote, order.side === 'BUY' ? 'asks' : 'bids');
}

/**
 * Runs the pre-send checks of docs/design.md §4 rule 2 on a sized order, in a fixed order,
 * and returns the first refusal, or undefined when the order may be journaled and sent. Pure.
 */
export function checkOrder(order: SizedOrder, context: CheckContext): Refusal | undefined {
  const { market, limits } = context;
  const symbol = market.symbol;
  if (!market.isActive) return refuse('MARKET_INACTIVE', `market ${symbol} is not active`);
  if (!order.reduceOnly && order.amountX18 < market.minAmountX18) {
    return refuse(
      'BELOW_MIN_AMOUNT',
      `amount ${formatX18(order.amountX18)} ${symbol} is below the market minimum ${formatX18(market.minAmountX18)}`,
    );
  }
  const signedAmount = order.side === 'BUY' ? order.amountX18 : -order.amountX18;
  const positionAfter = context.positionX18 + signedAmount;
  const reduces = absX18(positionAfter) < absX18(context.positionX18);
  if (order.reduceOnly && !reduces) {
    return refuse(
      'REDUCE_ONLY_WITHOUT_POSITION',
      `reduce-only ${order.side} on ${symbol} would not reduce the position ${formatX18(context.positionX18)}`,
    );
  }
  const spot = checkSpotHolding(order, market, context.positionX18);
  if (spot !== undefined) return spot;
  if (
    !reduces &&
    limits.dailyLossLimitX18 !== undefined &&
    -context.dailyPnlX18 >= limits.dailyLossLimitX18
  ) {
    return refuse(
      'DAILY_LOSS_LIMIT',
      `daily loss ${displayX18(-context.dailyPnlX18, MONEY_DECIMALS, true)} reached the limit ${formatX18(limits.dailyLossLimitX18)}; only reducing orders are sent until tomorrow (UTC)`,
    );
  }
  const priceX18 = referencePriceX18(order, context.quote);
  if (priceX18 === undefined) {
    return refuse(
      'NO_REFERENCE_PRICE',
      `no quote for ${symbol}: a MARKET order cannot be valued against the risk limits`,
    );
  }
  if (notionalExceeds(order.amountX18, priceX18, market.maxPositionValueX18)) {
    return refuse(
      'ABOVE_MARKET_MAX_POSITION_VALUE',
      `notional of ${formatX18(order.amountX18)} ${symbol} at ${formatX18(priceX18)} is above the market maximum ${formatX18(market.maxPositionValueX18)}`,
    );
  }
  if (notionalExceeds(order.amountX18, priceX18, limits.maxOrderNotionalX18)) {
    return refuse(
      'ABOVE_MAX_ORDER_NOTIONAL',
      `notional of ${formatX18(order.amountX18)} ${symbol} at ${formatX18(priceX18)} is above risk.maxOrderNotional ${formatX18(limits.maxOrderNotionalX18)}`,
    );
  }
  if (!reduces && notionalExceeds(absX18(positionAfter), priceX18, limits.maxPositionNotionalX18)) {
    return refuse(
      'ABOVE_MAX_POSITION',
      `position after fill ${formatX18(positionAfter)} ${symbol} at ${formatX18(priceX18)} is above risk.maxPositionNotional ${formatX18(limits.maxPositionNotionalX18)}`,
    );
  }
  if (context.margin !== undefined)
    return checkMargin(order, market, priceX18, context.positionX18, context.margin);
  return undefined;
}
