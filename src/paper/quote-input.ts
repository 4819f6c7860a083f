// Long enough to recognise a value, short enough that a pasted blob does not fill a message.
const MAX_SHOWN = 64;

/**
 * A request value as messages quote it: JSON-quoted and cut to 64 characters. Only for values
 * that are never credentials (query parameters, path segments).
 */
export function quoteInput(value: string): string {
  return JSON.stringify(value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value);
}
