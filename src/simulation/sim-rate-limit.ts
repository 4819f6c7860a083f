import type { RateLimitStorm } from './fault-plan.ts';

/**
 * What a `Retry-After` asks: to wait `afterMs` from the moment the answer is read (the seconds
 * form), or until the venue's clock reads `untilVenueMs` (the date form).
 */
export type RetryAfterAsks = { readonly afterMs: number } | { readonly untilVenueMs: number };

/** A 429 the simulated network hands the bot, and what its `Retry-After` asks (none: bare). */
export interface RateLimitAnswer {
  readonly headers: Readonly<Record<string, string>>;
  readonly asks: RetryAfterAsks | undefined;
}

/** The `Retry-After` of a lone 429 that is not bare. */
const LONE_RETRY_AFTER_S = 1;

/** A wall time (ms) as an HTTP date (IMF-fixdate): `toUTCString` drops the ms. */
function httpDate(ms: number): string {
  return new Date(ms).toUTCString();
}

/**
 * The 429 of a lone refusal (`bare`: without `Retry-After`) or of `storm` at virtual time `at`,
 * with `venueNow` the venue's wall clock then. A storm's date form carries the venue's `Date`
 * beside it: a client that measures the date against it waits long enough whatever its host
 * clock says (one that measures it against a host clock ahead of the venue's does not).
 */
export function rateLimitAnswer(
  refusal: { readonly bare: boolean } | { readonly storm: RateLimitStorm },
  at: number,
  venueNow: number,
): RateLimitAnswer {
  const json = { 'content-type': 'application/json' };
  if ('bare' in refusal)
    return refusal.bare
      ? { headers: json, asks: undefined }
      : {
          headers: { ...json, 'retry-after': String(LONE_RETRY_AFTER_S) },
          asks: { afterMs: LONE_RETRY_AFTER_S * 1000 },
        };
  const { storm } = refusal;
  const leftMs = storm.to - at;
  switch (storm.retryAfter) {
    case 'bare':
      return { headers: json, asks: undefined };
    case 'one':
      return { headers: { ...json, 'retry-after': '1' }, asks: { afterMs: 1000 } };
    case 'seconds': {
      const seconds = Math.max(1, Math.ceil(leftMs / 1000));
      return {
        headers: { ...json, 'retry-after': String(seconds) },
        asks: { afterMs: seconds * 1000 },
      };
    }
    case 'date': {
      // Both whole seconds (an HTTP date has no ms): the venue's time now rounded down, the
      // storm's end rounded up.
      const endMs = Math.ceil((venueNow + leftMs) / 1000) * 1000;
      return {
        headers: { ...json, date: httpDate(venueNow), 'retry-after': httpDate(endMs) },
        asks: { untilVenueMs: endMs },
      };
    }
  }
}
