/**
 * Field schemas shared by the wire shapes. Messages that quote the offending value do so only
 * for fields that can never hold a secret.
 */
import { z } from 'zod';
import { formatX18, parseDecimalToX18 } from '../../money/index.ts';

/** Largest value of an `int128` EIP-712 field: the order struct signs amounts and prices so. */
export const INT128_MAX = 2n ** 127n - 1n;

const X18_INTEGER = /^\d+$/;
// Same grammar as src/money parseDecimalToX18 (docs/conventions.md §1), which does the conversion.
const PLAIN_DECIMAL = /^\d+(?:\.\d{1,18})?$/;
const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** A non-negative integer x18 string as responses carry it (`"2094000000000000"`). */
export const x18String = z.string().regex(X18_INTEGER, {
  error: (issue) =>
    `expected a non-negative integer x18 string, got ${JSON.stringify(issue.input)}`,
});

/** A plain human decimal string as requests carry it (`"0.002094"`, `"65000.5"`). */
export const decimalString = z.string().regex(PLAIN_DECIMAL, {
  error: (issue) =>
    `expected a plain non-negative decimal string with at most 18 fraction digits, got ${JSON.stringify(issue.input)}`,
});

/** A JSON integer in JS's exact range (ids, counters). */
export const safeInteger = z.int({
  error: (issue) =>
    issue.input === undefined || typeof issue.input !== 'number'
      ? undefined
      : Number.isInteger(issue.input)
        ? `expected an integer JS can hold exactly (|n| < 2^53), got ${String(issue.input)}`
        : `expected an integer, got ${String(issue.input)}`,
});

/** A non-negative safe integer. */
export const nonNegativeInteger = safeInteger.min(0, {
  error: (issue) => `expected a non-negative integer, got ${String(issue.input)}`,
});

/** A timestamp in milliseconds since the epoch (docs/conventions.md §1). */
export const timestampMs = nonNegativeInteger;

/** An ISO 8601 timestamp; the offset may be `Z`, numeric, or (tolerated) absent. */
export const isoTimestamp = z.iso.datetime({
  offset: true,
  local: true,
  error: (issue) =>
    typeof issue.input === 'string'
      ? `expected an ISO 8601 timestamp, got ${JSON.stringify(issue.input)}`
      : undefined,
});

/**
 * One of a fixed set of strings; the message lists them and quotes what came (enum values are
 * never secrets).
 */
export function wireEnum<const T extends readonly [string, ...string[]]>(values: T) {
  const expected =
    values.length === 1
      ? values[0]
      : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
  return z.enum(values, {
    error: (issue) =>
      issue.input === undefined
        ? undefined
        : `expected ${expected}, got ${JSON.stringify(issue.input)}`,
  });
}

/** `PERPETUAL` or `SPOT`. */
export const marketType = wireEnum(['PERPETUAL', 'SPOT']);

/**
 * A decimal string whose x18 value fits the `int128` of the EIP-712 order struct, so that what
 * passes the schema can always be signed.
 */
export const int128DecimalString = decimalString.refine(
  // A string the regex rejected is already reported; don't convert it.
  (value) => !PLAIN_DECIMAL.test(value) || parseDecimalToX18(value) <= INT128_MAX,
  {
    error: (issue) =>
      `expected at most ${formatX18(INT128_MAX)} (int128 x18), got ${JSON.stringify(issue.input)}`,
  },
);

/**
 * Whether `value` passes {@link int128DecimalString} (its regex and its int128 bound), for hand
 * checks on hot paths that must agree with the schema.
 */
export function isInt128Decimal(value: unknown): value is string {
  return (
    typeof value === 'string' && PLAIN_DECIMAL.test(value) && parseDecimalToX18(value) <= INT128_MAX
  );
}

/** A 20-byte hex address with `0x`; any letter case (checksums are not enforced on the wire). */
// The bad value is not echoed: a private key pasted where an address belongs must not come back.
export const hexAddress = z.string().regex(HEX_ADDRESS, {
  error: (issue) =>
    `expected a 0x-prefixed 20-byte hex address, got ${typeof issue.input === 'string' ? `${issue.input.length} characters` : typeof issue.input}`,
});

/** A 65-byte signature, `0x` + 130 hex digits (docs/conventions.md §3). */
export const hexSignature = z.string().regex(HEX_SIGNATURE, {
  error: () => 'expected a 0x-prefixed 65-byte hex signature (130 hex digits)',
});

// Hand checks of the rules above, for the fast paths of the hot wire parses (order answers and
// requests, quotes, market rows): each accepts only what its schema accepts, and whatever it
// refuses goes on to the schema, which decides and words the error (the tests hold each fast
// path to its schema's verdicts).
const ISO_PATTERN: RegExp | undefined =
  (isoTimestamp._zod as { pattern?: unknown }).pattern instanceof RegExp
    ? ((isoTimestamp._zod as { pattern?: unknown }).pattern as RegExp)
    : undefined;

/** An object as JSON.parse makes them (a plain object: not null, an array or a class instance). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}

/** What {@link nonNegativeInteger} accepts. */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** What {@link x18String} accepts. */
export function isX18(value: unknown): value is string {
  return typeof value === 'string' && X18_INTEGER.test(value);
}

/** What {@link decimalString} accepts. */
export function isPlainDecimal(value: unknown): value is string {
  return typeof value === 'string' && PLAIN_DECIMAL.test(value);
}

/** What {@link isoTimestamp} accepts (its own pattern). */
export function isIso(value: unknown): value is string {
  return typeof value === 'string' && ISO_PATTERN !== undefined && ISO_PATTERN.test(value);
}
