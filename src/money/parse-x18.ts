import { ErrorCodes, QuantaError } from '../errors/index.ts';

const UNSIGNED_INTEGER = /^\d+$/;
const SIGNED_INTEGER = /^-?\d+$/;

/**
 * Parses an x18 integer string from the wire (`"2094000000000000"`) into a bigint.
 *
 * @param options.signed - allow a leading `-` (positions, PnL); wire quantities are unsigned.
 * @throws QuantaError `QUANTA_INVALID_X18` when the string is not a base-10 integer.
 */
export function parseX18String(
  value: string,
  what = 'value',
  options: { signed?: boolean } = {},
): bigint {
  const pattern = options.signed === true ? SIGNED_INTEGER : UNSIGNED_INTEGER;
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new QuantaError(
      ErrorCodes.INVALID_X18,
      `${what} ${JSON.stringify(value)} is not ${options.signed === true ? 'an' : 'a non-negative'} integer x18 string`,
    );
  }
  return BigInt(value);
}
