import {
  absX18,
  parseDecimalToX18,
  ceilToGrid,
  floorToGrid,
  formatX18,
  quantumX18,
  X18_SCALE,
} from '../../money/index.ts';
import type { OrderIntent } from '../../domain/index.ts';
import type { Market, OrderSide, OrderType } from '../../domain/index.ts';
import { QuantaError } from '../../errors/index.ts';
import { refuse, type Refusal } from '../refusal.ts';
import { levelDistanceX18, parseExitLevel } from '../exits/exit-levels.ts';

/** An intent rounded onto the market's grids: what will be signed if the checks pass. */
export interface SizedOrder {
  readonly marketId: number;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly amountX18: bigint;
  /** 0 for MARKET orders. */
  readonly priceX18: bigint;
  readonly reduceOnly: boolean;
}

/** What sizing reads besides the intent and the market: all x18, all optional. */
export interface SizingFacts {
  /**
   * The price a MARKET order is valued at: the best ask for a buy, the best bid for a sell
   * (`notional` and `risk` sizing; a LIMIT order is valued at its own price).
   */
  readonly marketPriceX18?: bigint | undefined;
  /** The account's equity (`risk` sizing); undefined where it is not known. */
  readonly equityX18?: bigint | undefined;
  /**
   * The signed position a reduce-only order may reduce (the account's, with the same side's
   * orders in flight counted): its amount is capped to it.
   */
  readonly positionX18?: bigint | undefined;
}

/**
 * The largest amount on the grid whose notional at `priceX18` is at most `notionalX18`:
 * `floor(notional / price)` down to the quantum of `amountExpo`. Exact. Pure.
 *
 * @example
 * amountForNotionalX18(250n * 10n ** 18n, 3000n * 10n ** 18n, 4) // 0.0833 ETH: 833n * 10n ** 14n
 */
export function amountForNotionalX18(
  notionalX18: bigint,
  priceX18: bigint,
  amountExpo: number,
): bigint {
  if (priceX18 <= 0n || notionalX18 <= 0n) return 0n;
  return floorToGrid((notionalX18 * X18_SCALE) / priceX18, amountExpo);
}

/**
 * The largest amount on the grid that loses at most `equity × fraction` when the price moves
 * `stopDistance` against it: `floor(equity × fraction / stopDistance)` down to the quantum, in
 * one exact division (no intermediate rounding). Pure.
 *
 * @example
 * // Risk 1 % of 10 000 over a 40 distance: 2.5 base units.
 * amountForRiskX18(10_000n * 10n ** 18n, 10n ** 16n, 40n * 10n ** 18n, 4) // 25n * 10n ** 17n
 */
export function amountForRiskX18(
  equityX18: bigint,
  fractionX18: bigint,
  stopDistanceX18: bigint,
  amountExpo: number,
): bigint {
  if (equityX18 <= 0n || fractionX18 <= 0n || stopDistanceX18 <= 0n) return 0n;
  return floorToGrid((equityX18 * fractionX18) / stopDistanceX18, amountExpo);
}

/**
 * Rounds an intent to the market: the amount **down** to the amount quantum (an amount given as
 * `notional` or `risk` converted first, see {@link amountForNotionalX18} and
 * {@link amountForRiskX18}), a LIMIT price **down** for buys and **up** for sells (never a
 * worse price than asked), and a reduce-only amount capped to the position it reduces. Pure.
 *
 * Returns a refusal when the intent is malformed, cannot be valued, or rounds to zero.
 */
export function sizeIntent(
  intent: OrderIntent,
  market: Market,
  facts: SizingFacts = {},
): SizedOrder | Refusal {
  let requestedPrice = 0n;
  try {
    if (intent.type === 'LIMIT') {
      if (intent.price === undefined) {
        return refuse('INVALID_INTENT', `LIMIT order on ${market.symbol} has no price`);
      }
      requestedPrice = parseDecimalToX18(intent.price, 'price');
    } else if (intent.price !== undefined && intent.price !== '0') {
      return refuse('INVALID_INTENT', `MARKET order on ${market.symbol} must not carry a price`);
    }
  } catch (error) {
    if (error instanceof QuantaError) return refuse('INVALID_INTENT', error.shortMessage);
    throw error;
  }
  let priceX18 = 0n;
  if (intent.type === 'LIMIT') {
    priceX18 =
      intent.side === 'BUY'
        ? floorToGrid(requestedPrice, market.priceExpo)
        : ceilToGrid(requestedPrice, market.priceExpo);
    if (priceX18 === 0n) {
      return refuse(
        'ZERO_AFTER_ROUNDING',
        `price ${intent.price ?? ''} ${market.symbol} rounds to 0`,
      );
    }
  }
  const valuedAt = intent.type === 'LIMIT' ? priceX18 : facts.marketPriceX18;
  const amount = requestedAmountX18(intent, market, valuedAt, facts.equityX18);
  if ('refused' in amount) return amount;
  let amountX18 = floorToGrid(amount.x18, market.amountExpo);
  if (amountX18 === 0n) {
    return refuse(
      'ZERO_AFTER_ROUNDING',
      `${amount.what} ${market.symbol} rounds to 0 on the quantum ${formatX18(quantumX18(market.amountExpo))}`,
    );
  }
  const position = facts.positionX18;
  if (intent.reduceOnly === true && position !== undefined && position !== 0n) {
    // Only a reducing side is capped; the checks refuse the other (REDUCE_ONLY_WITHOUT_POSITION).
    const reduces = intent.side === 'BUY' ? position < 0n : position > 0n;
    const reducible = floorToGrid(absX18(position), market.amountExpo);
    if (reduces && amountX18 > reducible) {
      if (reducible === 0n) {
        return refuse(
          'REDUCE_ONLY_WITHOUT_POSITION',
          `reduce-only ${intent.side} on ${market.symbol}: the position ${formatX18(position)} is below the quantum`,
        );
      }
      amountX18 = reducible;
    }
  }
  return {
    marketId: market.id,
    side: intent.side,
    type: intent.type,
    amountX18,
    priceX18,
    reduceOnly: intent.reduceOnly === true,
  };
}

/**
 * The distance to the stop `risk` sizing divides by: `stopDistance`, else the distance from the
 * price the order is valued at to its `exits.stopLoss` (a percentage of that price).
 */
function stopDistanceX18(intent: OrderIntent, priceX18: bigint): bigint {
  if (intent.stopDistance !== undefined)
    return parseDecimalToX18(intent.stopDistance, 'stopDistance');
  const stop = intent.exits?.stopLoss;
  if (stop === undefined) return 0n;
  const level = parseExitLevel(stop, 'exits.stopLoss');
  if (level.percent) return levelDistanceX18(level, priceX18);
  return absX18(priceX18 - level.x18);
}

/** The amount an intent asks for before rounding, and how it was asked (for messages). */
function requestedAmountX18(
  intent: OrderIntent,
  market: Market,
  priceX18: bigint | undefined,
  equityX18: bigint | undefined,
): { readonly x18: bigint; readonly what: string } | Refusal {
  const symbol = market.symbol;
  try {
    if (intent.amount !== undefined) {
      return { x18: parseDecimalToX18(intent.amount, 'amount'), what: `amount ${intent.amount}` };
    }
    if (priceX18 === undefined || priceX18 <= 0n) {
      return refuse(
        'NO_REFERENCE_PRICE',
        `no quote for ${symbol}: a MARKET order sized by ${intent.notional !== undefined ? 'notional' : 'risk'} cannot be converted to an amount`,
      );
    }
    if (intent.notional !== undefined) {
      const notional = parseDecimalToX18(intent.notional, 'notional');
      return {
        x18: amountForNotionalX18(notional, priceX18, market.amountExpo),
        what: `notional ${intent.notional} at ${formatX18(priceX18)}`,
      };
    }
    if (intent.risk !== undefined) {
      const fraction = parseDecimalToX18(intent.risk, 'risk');
      const distance = stopDistanceX18(intent, priceX18);
      if (distance === 0n)
        return refuse(
          'INVALID_INTENT',
          `the stop distance of a risk-sized order on ${symbol} is 0`,
        );
      if (equityX18 === undefined || equityX18 <= 0n) {
        return refuse(
          'NO_EQUITY',
          equityX18 === undefined
            ? `risk sizing on ${symbol} needs the account's equity: set risk.capital in the config (the venue reports no balance)`
            : `risk sizing on ${symbol}: the equity ${formatX18(equityX18)} is not above 0`,
        );
      }
      return {
        x18: amountForRiskX18(equityX18, fraction, distance, market.amountExpo),
        what: `risk ${intent.risk} of equity ${formatX18(equityX18)} over ${formatX18(distance)}`,
      };
    }
  } catch (error) {
    if (error instanceof QuantaError) return refuse('INVALID_INTENT', error.shortMessage);
    throw error;
  }
  return refuse('INVALID_INTENT', `intent on ${symbol} has no amount, notional or risk`);
}
