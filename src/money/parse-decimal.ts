import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { X18_DECIMALS } from './constants.ts';

// ASCII digits only: `\d` without the `u` flag never matches other scripts' digits.
const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Parses a human decimal string (`"0.002094"`, `"65000.5"`) into an x18 bigint, exactly.
 *
 * @param value - plain non-negative decimal: digits, optionally `.` and digits; no sign, no
 *   exponent, no spaces, at most 18 fraction digits.
 * @param what - what the value is, used in the error message (e.g. `"amount"`).
 * @throws QuantaError `QUANTA_INVALID_DECIMAL` naming the rule that failed.
 * @example
 * parseDecimalToX18('0.002094') // 2094000000000000n
 */
export function parseDecimalToX18(value: string, what = 'value'): bigint {
  const match = typeof value === 'string' ? PLAIN_DECIMAL.exec(value) : null;
  if (match === null) {
    throw new QuantaError(
      ErrorCodes.INVALID_DECIMAL,
      `${what} ${JSON.stringify(value)} is not a plain non-negative decimal`,
      {
        details: [
          'Write it like "0.002094" or "65000.5": digits, an optional fraction, no sign or exponent.',
        ],
      },
    );
  }
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  if (fraction.length > X18_DECIMALS) {
    throw new QuantaError(
      ErrorCodes.INVALID_DECIMAL,
      `${what} ${JSON.stringify(value)} has more than 18 fraction digits`,
    );
  }
  return BigInt(whole + fraction.padEnd(X18_DECIMALS, '0'));
}
