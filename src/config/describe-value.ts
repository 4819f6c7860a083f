const PRIVATE_KEY = /^(?:0x)?[0-9a-fA-F]{64}$/;
const MAX_SHOWN = 60;

/** True for text shaped like a secp256k1 private key (64 hex digits, optional `0x`). */
export function looksLikePrivateKey(value: string): boolean {
  return PRIVATE_KEY.test(value);
}

/**
 * How a config value is shown after "got" in an error line. With `hidden` (any `wallet.*` key),
 * only the value's kind is said. Values shaped like a private key or a URL with credentials are
 * never shown, wherever they were written.
 */
export function describeValue(value: unknown, hidden = false): string {
  if (hidden) return `${kindOf(value)} (value not shown)`;
  if (typeof value === 'string') {
    if (looksLikePrivateKey(value)) return 'a 64-hex-digit value (not shown)';
    if (hasUrlCredentials(value)) return 'a URL with credentials (not shown)';
    const shown = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
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
