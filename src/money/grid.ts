import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { X18_DECIMALS } from './constants.ts';

const MIN_EXPO = -X18_DECIMALS;

/** `10^(18 - expo)` for every valid expo, index `expo - MIN_EXPO`: built once, read per call. */
const QUANTA: readonly bigint[] = Array.from(
  { length: X18_DECIMALS - MIN_EXPO + 1 },
  (_, i) => 10n ** BigInt(X18_DECIMALS - (i + MIN_EXPO)),
);

/**
 * The size of one quantum in x18 units for a conversion exponent: `10^(18 - expo)`.
 * Expo 6 gives 10^12 (0.000001); expo -2 gives 10^20 (100).
 *
 * @throws QuantaError `QUANTA_INVALID_EXPO` for a non-integer expo, above 18, or below -18.
 */
export function quantumX18(expo: number): bigint {
  if (!Number.isSafeInteger(expo) || expo > X18_DECIMALS || expo < MIN_EXPO) {
    throw new QuantaError(
      ErrorCodes.INVALID_EXPO,
      expo > X18_DECIMALS
        ? `conversion expo ${expo} is invalid: expo above 18`
        : `conversion expo ${expo} is invalid: expected an integer between ${MIN_EXPO} and 18`,
    );
  }
  // A table read: the books, quotes and checks ask this for every price they touch.
  const quantum = QUANTA[expo - MIN_EXPO];
  if (quantum === undefined) throw new Error(`quantum table has no entry for expo ${expo}`);
  return quantum;
}

/** True when `valueX18` is a whole number of quanta for `expo`. */
export function isOnGrid(valueX18: bigint, expo: number): boolean {
  return valueX18 % quantumX18(expo) === 0n;
}

/** The largest multiple of the quantum that is ≤ `valueX18` (rounds toward −∞). */
export function floorToGrid(valueX18: bigint, expo: number): bigint {
  return floorToQuantum(valueX18, quantumX18(expo));
}

/** The smallest multiple of the quantum that is ≥ `valueX18` (rounds toward +∞). */
export function ceilToGrid(valueX18: bigint, expo: number): bigint {
  return ceilToQuantum(valueX18, quantumX18(expo));
}

/**
 * `floorToGrid` for a quantum the caller already holds (`quantumX18(expo)`, a positive power of
 * ten): one remainder, for code that rounds many prices on one grid (a synthetic book's levels).
 */
export function floorToQuantum(valueX18: bigint, quantum: bigint): bigint {
  // BigInt's remainder takes the dividend's sign: a negative one steps down a whole quantum.
  const remainder = valueX18 % quantum;
  return remainder < 0n ? valueX18 - remainder - quantum : valueX18 - remainder;
}

/** `ceilToGrid` for a quantum the caller already holds (see `floorToQuantum`). */
export function ceilToQuantum(valueX18: bigint, quantum: bigint): bigint {
  const floored = floorToQuantum(valueX18, quantum);
  return floored === valueX18 ? floored : floored + quantum;
}
