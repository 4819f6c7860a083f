import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { X18_DECIMALS } from './constants.ts';

// ASCII digits only: `\d` without the `u` flag never matches other scripts' digits.
const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const SIGNED_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

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

/**
 * Parses a signed decimal string (`"-0.5"`, `"12.25"`: a position, a PnL, a price on the paper
 * venue's wire) into an x18 bigint, exactly, or refuses it: the one signed parser, so no caller
 * rounds, truncates or accepts what x18 cannot hold.
 *
 * @param value - an optional `-`, digits, optionally `.` and digits; no `+`, exponent or spaces;
 *   at most 18 fraction digits (the 19th would be lost in x18, so it is refused, not dropped).
 * @param what - what the value is, used in the error message (e.g. `"net PnL"`).
 * @throws QuantaError `QUANTA_INVALID_DECIMAL` naming the rule that failed, e.g.
 *   `net PnL "1.0000000000000000001" has more than 18 fraction digits`.
 * @example
 * parseSignedDecimalToX18('-0.5') // -500000000000000000n
 */
export function parseSignedDecimalToX18(value: string, what = 'value'): bigint {
  const x18 = tryParseSignedDecimalToX18(value);
  if (x18 !== undefined) return x18;
  if (typeof value === 'string' && SIGNED_DECIMAL.test(value))
    throw new QuantaError(
      ErrorCodes.INVALID_DECIMAL,
      `${what} ${JSON.stringify(value)} has more than 18 fraction digits`,
    );
  throw new QuantaError(
    ErrorCodes.INVALID_DECIMAL,
    `${what} ${JSON.stringify(value)} is not a plain decimal`,
    {
      details: [
        'Write it like "-0.5" or "65000.25": an optional minus, digits, an optional fraction of at most 18 digits, no plus sign or exponent.',
      ],
    },
  );
}

/**
 * {@link parseSignedDecimalToX18} without the error: the x18 value, or undefined for a string
 * it refuses (for validators that word their own message, e.g. one that must not echo the value).
 */
export function tryParseSignedDecimalToX18(value: string): bigint | undefined {
  const match = typeof value === 'string' ? SIGNED_DECIMAL.exec(value) : null;
  if (match === null) return undefined;
  const fraction = match[3] ?? '';
  if (fraction.length > X18_DECIMALS) return undefined;
  const magnitude = BigInt((match[2] ?? '0') + fraction.padEnd(X18_DECIMALS, '0'));
  return match[1] === '-' ? -magnitude : magnitude;
}
