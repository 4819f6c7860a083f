const X36 = 10n ** 36n;

/**
 * The fee on one fill: `amount × price × feeFraction / 10^36` (fill notional times the x18 fee
 * fraction), rounded **up** to the next x18 unit so a fee is never understated. Exact bigint.
 *
 * @example
 * // 0.5 ETH at 3000 with a 5 bp fee: 1500 × 0.0005 = 0.75
 * fillFeeX18(5n * 10n ** 17n, 3000n * 10n ** 18n, 5n * 10n ** 14n) // 750000000000000000n
 */
export function fillFeeX18(amountX18: bigint, priceX18: bigint, feeFractionX18: bigint): bigint {
  const product = amountX18 * priceX18 * feeFractionX18;
  return (product + X36 - 1n) / X36;
}
