/**
 * The magnitude of an exact amount (a position's size, either side).
 * @example
 * absX18(-5n * 10n ** 17n); // 500000000000000000n
 */
export function absX18(value: bigint): bigint {
  return value < 0n ? -value : value;
}
