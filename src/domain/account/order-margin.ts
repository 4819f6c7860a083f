import { absX18, X18_SCALE } from '../../money/index.ts';
import { ceilDiv, marginX18 } from './margin-account.ts';

/**
 * How much of an order opens exposure: all of it when it adds to the position (or the account is
 * flat there), only what goes past zero when it reduces and flips, 0 when it only reduces.
 *
 * @param positionX18 - the signed position before the order.
 * @param orderX18 - the signed order amount (negative sells).
 * @example
 * openingAmountX18(2n, -5n) // 3n: 2 close the long, 3 open a short
 */
export function openingAmountX18(positionX18: bigint, orderX18: bigint): bigint {
  if (positionX18 === 0n || positionX18 > 0n === orderX18 > 0n) return absX18(orderX18);
  const past = absX18(orderX18) - absX18(positionX18);
  return past > 0n ? past : 0n;
}

/**
 * The initial margin an order adds: its opening part ({@link openingAmountX18}) at `priceX18`
 * times the initial margin fraction, rounded up. What a reduction frees is not counted (the
 * check stays on the safe side when an order flips).
 */
export function orderInitialMarginX18(
  positionX18: bigint,
  orderX18: bigint,
  priceX18: bigint,
  initialFractionX18: bigint,
): bigint {
  return marginX18(openingAmountX18(positionX18, orderX18), priceX18, initialFractionX18);
}

/**
 * The initial margin fraction a leverage cap stands for, `1 / maxLeverage` rounded up, or the
 * listing's own fraction when that is stricter: a cap never loosens the venue's rule.
 *
 * @example
 * effectiveInitialFractionX18(5n * 10n ** 16n, 4n * 10n ** 18n) // 25n * 10n ** 16n: 4x is 25 %
 */
export function effectiveInitialFractionX18(
  listingFractionX18: bigint,
  maxLeverageX18: bigint | undefined,
): bigint {
  if (maxLeverageX18 === undefined || maxLeverageX18 <= 0n) return listingFractionX18;
  const capped = ceilDiv(X18_SCALE * X18_SCALE, maxLeverageX18);
  return capped > listingFractionX18 ? capped : listingFractionX18;
}
