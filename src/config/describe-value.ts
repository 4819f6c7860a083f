// A hex run this long is treated as (part of) a secret: a private key is 64 hex digits, and even
// half of one must not end up in a terminal or a log. Any case, anywhere in the text.
const SECRET_HEX_RUN = /[0-9a-f]{32,}/i;
const MAX_SHOWN = 60;

/**
 * True for text holding a secret-shaped hex run (32 or more hex digits, any case), whatever
 * surrounds it: `0x…`, `0X…`, blanks, other words.
 */
export function looksSecret(text: string): boolean {
  return SECRET_HEX_RUN.test(text);
}

/**
 * Stands in, in the data errors are described from, for a value whose source text looked like a
 * secret. It carries nothing of the value: YAML may have turned `0x<64 hex>` into a float whose
 * digits are the key's top bits.
 */
export class HiddenSecret {
  toString(): string {
    return 'a value shaped like a private key (not shown)';
  }
}

/**
 * How a config value is shown after "got" in an error line. With `hidden` (any `wallet.*` key),
 * only the value's kind is said. Values holding a secret-shaped hex run, numbers too large to be
 * anything but pasted digits, and URLs with credentials are never shown, wherever they were
 * written.
 */
export function describeValue(value: unknown, hidden = false): string {
  if (value instanceof HiddenSecret) return value.toString();
  if (hidden) return `${kindOf(value)} (value not shown)`;
  if (typeof value === 'string') {
    if (looksSecret(value)) return 'a value shaped like a private key (not shown)';
    if (hasUrlCredentials(value)) return 'a URL with credentials (not shown)';
    const shown = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    // No config number is this large; its digits could be a pasted key's (YAML reads
    // `0x<64 hex>` as a float).
    const number = Number(value);
    if (Number.isFinite(number) && Math.abs(number) > Number.MAX_SAFE_INTEGER) {
      return 'a very large number (not shown)';
    }
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : kindOf(value);
  return kindOf(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
    case 'bigint':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return value instanceof Date ? 'a date' : 'a mapping';
    default:
      return typeof value;
  }
}

function hasUrlCredentials(value: string): boolean {
  if (!value.includes('@') || !URL.canParse(value)) return false;
  const url = new URL(value);
  return url.username !== '' || url.password !== '';
}
