import {
  ceilToGrid,
  floorToGrid,
  formatX18,
  parseDecimalToX18,
  quantumX18,
} from '../money/index.ts';
import type { OrderIntent } from '../strategy/intent.ts';
import type { Market, OrderSide, OrderType } from '../domain/index.ts';
import { QuantaError } from '../errors/index.ts';
import { refuse, type Refusal } from './refusal.ts';

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

/**
 * Rounds an intent to the market: the amount **down** to the amount quantum, a LIMIT price
 * **down** for buys and **up** for sells (never a worse price than asked). Pure.
 *
 * Returns a refusal when the intent is malformed, or rounds to zero.
 */
export function sizeIntent(intent: OrderIntent, market: Market): SizedOrder | Refusal {
  let requestedAmount: bigint;
  let requestedPrice = 0n;
  try {
    requestedAmount = parseDecimalToX18(intent.amount, 'amount');
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
  const amountX18 = floorToGrid(requestedAmount, market.amountExpo);
  if (amountX18 === 0n) {
    return refuse(
      'ZERO_AFTER_ROUNDING',
      `amount ${intent.amount} ${market.symbol} rounds to 0 on the quantum ${formatX18(quantumX18(market.amountExpo))}`,
    );
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
  return {
    marketId: market.id,
    side: intent.side,
    type: intent.type,
    amountX18,
    priceX18,
    reduceOnly: intent.reduceOnly === true,
  };
}
