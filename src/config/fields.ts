import { z } from 'zod';
import { parseDecimalToX18 } from '../money/index.ts';

// Every field carries its own "expected …" text: the formatter prints it verbatim followed by
// ", got <value>", so messages read the same whatever zod's internal issue code was.

/**
 * A strict mapping: unknown keys are errors. For `unrecognized_keys` the issue message is the
 * comma-separated list of allowed keys (the formatter builds the per-key line from it); any other
 * issue on the mapping itself is "expected a mapping".
 */
export function mapping<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const allowed = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? allowed : 'expected a mapping'),
  });
}

/** An integer in `[min, max]`, all of whose failures read `expected`. */
export function integer(expected: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .number({ error: expected })
    .int({ error: expected })
    .min(min, { error: expected })
    .max(max, { error: expected });
}

/** A positive integer (1 or more). */
export function positiveInt() {
  return integer('expected a positive integer', 1);
}

/** A duration in milliseconds: an integer in `[min, max]`. */
export function durationMs(min = 1, max = Number.MAX_SAFE_INTEGER) {
  const range =
    max === Number.MAX_SAFE_INTEGER
      ? min === 1
        ? 'a positive integer'
        : `an integer ≥ ${min}`
      : `an integer from ${min} to ${max}`;
  return integer(`expected ${range} (milliseconds)`, min, max);
}

/** A finite number ≥ 0. */
export function nonNegativeNumber() {
  const expected = 'expected a number ≥ 0';
  return z.number({ error: expected }).min(0, { error: expected });
}

/** `true` or `false`. */
export function bool() {
  return z.boolean({ error: 'expected true or false' });
}

/** A non-empty string without surrounding blanks. */
export function text(expected = 'expected a non-empty string') {
  return z
    .string({ error: expected })
    .min(1, { error: expected })
    .refine((value) => value.trim() === value, { error: expected });
}

/** One of a fixed list of strings. */
export function oneOf<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z.enum(values, { error: `expected one of ${values.join(', ')}` });
}

/** A 20-byte hex address, `0x` + 40 hex digits. */
export function address() {
  const expected = 'expected an address: 0x followed by 40 hex digits';
  return z
    .string({ error: expected })
    .regex(/^0x[0-9a-fA-F]{40}$/, { error: expected })
    .transform((value) => value as `0x${string}`);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A venue base URL: `embedded` (start the paper venue in-process) or an http(s) URL without
 * credentials. Trailing slashes are dropped so callers can append `/api/v1/...`.
 *
 * @param carriesCredentials - the write API gets the service key and secret on every order, so
 *   plain `http:` is allowed only to a loopback host (docs/conventions.md §4.1).
 */
export function venueUrl(carriesCredentials = false) {
  const expected = 'expected "embedded" or an http(s) URL';
  return z
    .string({ error: expected })
    .superRefine((value, ctx) => {
      if (value === 'embedded') return;
      const url = URL.canParse(value) ? new URL(value) : undefined;
      if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        ctx.addIssue({ code: 'custom', message: expected });
      } else if (url.username !== '' || url.password !== '') {
        ctx.addIssue({
          code: 'custom',
          message: 'expected an http(s) URL without user:password (credentials never go here)',
        });
      } else if (
        carriesCredentials &&
        url.protocol === 'http:' &&
        !LOOPBACK_HOSTS.has(url.hostname)
      ) {
        ctx.addIssue({
          code: 'custom',
          message: 'expected https (plain http only to localhost: credentials travel on it)',
        });
      } else if (url.search !== '' || url.hash !== '') {
        ctx.addIssue({ code: 'custom', message: 'expected a base URL without ?query or #hash' });
      }
    })
    .transform((value) => (value === 'embedded' ? value : value.replace(/\/+$/, '')));
}

/**
 * A decimal amount greater than zero, written as a quoted string so no precision is lost; checked
 * with the money parser and kept as the string (consumers convert it to x18).
 */
export function positiveDecimal() {
  const expected = 'expected a decimal string greater than 0 in quotes, like "5000" or "0.25"';
  return z.string({ error: expected }).superRefine((value, ctx) => {
    let x18: bigint;
    try {
      x18 = parseDecimalToX18(value);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message:
          'expected a plain decimal like "5000" or "0.25" (digits, optional fraction of at most 18 digits, no sign or exponent)',
      });
      return;
    }
    if (x18 === 0n) ctx.addIssue({ code: 'custom', message: expected });
  });
}

/** A list with at least one item. */
export function nonEmptyList<Item extends z.ZodType>(item: Item, expected: string) {
  return z.array(item, { error: expected }).min(1, { error: expected });
}

/** Shape of a market symbol: letters and digits, joined by one of `- / _ .`. */
const SYMBOL_PATTERN = /^[A-Za-z0-9]+(?:[-/_.][A-Za-z0-9]+)*$/;

/** A market symbol like ETH-USD. */
export function marketSymbol() {
  const expected = 'expected a market symbol like ETH-USD';
  return z.string({ error: expected }).regex(SYMBOL_PATTERN, { error: expected });
}

/** Shape of an environment variable name; the key itself never appears in the config. */
const ENV_VAR_NAME = /^[A-Z_][A-Z0-9_]*$/;

/**
 * The NAME of an environment variable (the value, a secret, is read from it and never written in
 * the config). A string of another shape reads `expected` followed by the allowed characters.
 */
export function envVarName(expected: string) {
  return z.string({ error: expected }).regex(ENV_VAR_NAME, { error: `${expected} (A-Z, 0-9, _)` });
}
