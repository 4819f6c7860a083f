import { formatX18, isOnGrid, notionalExceeds, notionalX18, quantumX18 } from '../money/index.ts';
import type { Market } from '../domain/index.ts';
import { SimRejection } from './sim-rejection.ts';
import type { SimOrderRequest } from './types.ts';

/** How far ahead an order's `expiryTs` may lie (docs/conventions.md §4.4). */
export const MAX_ORDER_EXPIRY_AHEAD_MS = 30 * 24 * 60 * 60 * 1000;

function checkGrid(
  field: 'amount' | 'price',
  valueX18: bigint,
  expo: number,
  expoName: string,
): void {
  if (!isOnGrid(valueX18, expo)) {
    throw new SimRejection(
      `${field} ${formatX18(valueX18)} is off the quantum grid: must be a multiple of ` +
        `${formatX18(quantumX18(expo))} (${expoName} ${expo})`,
    );
  }
}

/**
 * Checks an order against its market in the venue's order (docs/conventions.md §4.4, all but the
 * signature, which the HTTP layer checks after this): market exists, is active, expiry window,
 * quantum grid, sign, price per order type, minimum amount, maximum LIMIT notional.
 *
 * @param market - the market named by `request.marketId`, or `undefined` when there is none.
 * @param nowMs - the engine clock.
 * @throws SimRejection with the exact venue message of the first rule broken.
 */
export function validateOrderRequest(
  market: Market | undefined,
  request: SimOrderRequest,
  nowMs: number,
): void {
  const { marketId, amountX18, priceX18, expiryTs } = request;
  if (market === undefined) throw new SimRejection(`market ${marketId} not found`);
  if (!market.isActive) throw new SimRejection(`market ${marketId} is not active`);

  if (!Number.isSafeInteger(expiryTs) || expiryTs <= nowMs) {
    throw new SimRejection('timestamp expired');
  }
  if (expiryTs > nowMs + MAX_ORDER_EXPIRY_AHEAD_MS) {
    throw new SimRejection('timestamp exceeding allowed value');
  }

  checkGrid('amount', amountX18, market.amountExpo, 'AmtToQtmConversionExpo');
  checkGrid('price', priceX18, market.priceExpo, 'PriceToQtmConversionExpo');

  if (amountX18 < 0n)
    throw new SimRejection(`amount must not be negative (got ${formatX18(amountX18)})`);
  if (priceX18 < 0n)
    throw new SimRejection(`price must not be negative (got ${formatX18(priceX18)})`);

  if (request.type === 'LIMIT' && priceX18 === 0n) {
    throw new SimRejection('price must be above 0 for limit order');
  }
  if (request.type === 'MARKET' && priceX18 !== 0n) {
    throw new SimRejection('price should be 0 for market order');
  }

  if (!request.isReduce && amountX18 < market.minAmountX18) {
    throw new SimRejection(
      `amount ${formatX18(amountX18)} is below the market minimum ${formatX18(market.minAmountX18)}`,
    );
  }
  if (
    request.type === 'LIMIT' &&
    notionalExceeds(amountX18, priceX18, market.maxPositionValueX18)
  ) {
    throw new SimRejection(
      `order notional ${formatX18(notionalX18(amountX18, priceX18))} is above the market ` +
        `maximum position value ${formatX18(market.maxPositionValueX18)}`,
    );
  }
  // Only a reduce-only order can get here with 0: the minimum amount stops the others.
  if (amountX18 === 0n) throw new SimRejection('amount must be above 0');
}
