/**
 * `Retry-After` parsing (RFC 9110 §10.2.3): either delay-seconds or an HTTP date.
 */

const DELAY_SECONDS = /^\d+$/;
// Longer waits are treated as nonsense rather than pausing a bot for days.
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Parses a `Retry-After` header value into a wait in milliseconds.
 *
 * @param value - the header value (`"2"` or `"Wed, 21 Oct 2015 07:28:00 GMT"`), or null/undefined.
 * @param nowMs - the current time in ms since the epoch, used for the date form.
 * @returns the wait (0 for a date in the past), or undefined when absent, unparseable or longer
 *   than a day.
 * @example
 * ```ts
 * parseRetryAfter('2', Date.now()) // 2000
 * ```
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number,
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  let waitMs: number;
  if (DELAY_SECONDS.test(trimmed)) {
    waitMs = Number(trimmed) * 1000;
  } else {
    // Date.parse also accepts bare numbers and ISO fragments; an HTTP date always names a weekday
    // or month in letters, so demand letters before trusting it.
    if (!/[a-z]/i.test(trimmed)) return undefined;
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    waitMs = Math.max(0, at - nowMs);
  }
  return waitMs <= MAX_RETRY_AFTER_MS ? waitMs : undefined;
}
