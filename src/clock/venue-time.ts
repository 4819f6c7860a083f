/**
 * What the venue's answers say about its clock, and the estimate of its offset from this
 * process's monotonic clock. Pure: the caller reads the clocks and keeps the samples.
 *
 * A sample brackets the venue's clock: at some moment between sending a request and reading its
 * answer (`sentAt`, `answeredAt`, monotonic ms), the venue's wall clock read a time in
 * `[venueFrom, venueTo)`. The HTTP `Date` header has whole seconds, so it gives a range of
 * 1000 ms; an order's `createdAt` has milliseconds. Each sample so bounds `venue − monotonic` to
 * `[venueFrom − answeredAt, venueTo − sentAt]`, and samples taken at different moments of the
 * second narrow it further when intersected. Kept on the monotonic clock, a sample stays true when
 * the wall clock is stepped; the skew of the wall clock is read off it when it is needed.
 */

/** One reading of the venue's clock (see the module comment). */
export interface VenueTimeSample {
  /** Monotonic ms just before the request left. */
  readonly sentAt: number;
  /** Monotonic ms when its answer's head was read. */
  readonly answeredAt: number;
  /** Earliest venue wall time (ms) the reading allows. */
  readonly venueFrom: number;
  /** Venue wall time (ms) the reading is known to be below. */
  readonly venueTo: number;
}

/** Bounds of `venue wall clock − this process's monotonic clock`, in ms. */
export interface OffsetBounds {
  readonly low: number;
  readonly high: number;
}

/** The estimate over recent samples. */
export type OffsetEstimate =
  | { readonly kind: 'none' }
  /** No range is shared by more than half of the samples: the venue's answers disagree. */
  | { readonly kind: 'disagree'; readonly samples: number }
  | {
      readonly kind: 'known';
      readonly bounds: OffsetBounds;
      /** Samples whose range contains `bounds`, of `samples`. */
      readonly agreeing: number;
      readonly samples: number;
    };

/** A sample from an answer's `Date` header (RFC 9110 IMF-fixdate, whole seconds). */
export function dateHeaderSample(
  date: string | null,
  sentAt: number,
  answeredAt: number,
): VenueTimeSample | undefined {
  const at = httpDateMs(date);
  return at === undefined ? undefined : { sentAt, answeredAt, venueFrom: at, venueTo: at + 1000 };
}

/**
 * An answer's `Date` header in ms since the epoch (the start of its second), or undefined when
 * absent or not an IMF-fixdate.
 *
 * @example
 * ```ts
 * httpDateMs('Thu, 01 Jan 2026 00:00:05 GMT') // 1767225605000
 * ```
 */
export function httpDateMs(date: string | null | undefined): number | undefined {
  if (date === null || date === undefined) return undefined;
  // Only the one format RFC 9110 says a sender generates: Date.parse would also take forms it
  // would read in local time, or half-read.
  if (!IMF_FIXDATE.test(date)) return undefined;
  const at = Date.parse(date);
  return Number.isFinite(at) ? at : undefined;
}

/** A sample from a new order's `createdAt` (ISO 8601, ms): the venue's time when it placed it. */
export function createdAtSample(
  createdAt: string,
  sentAt: number,
  answeredAt: number,
): VenueTimeSample | undefined {
  const at = Date.parse(createdAt);
  if (!Number.isFinite(at)) return undefined;
  // Whole seconds or finer: the range is the resolution the timestamp was written with.
  const fraction = /\.(\d+)/.exec(createdAt)?.[1]?.length ?? 0;
  const resolution = fraction >= 3 ? 1 : 10 ** (3 - fraction);
  return { sentAt, answeredAt, venueFrom: at, venueTo: at + resolution };
}

const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * The range of `venue − monotonic` that most samples agree on (Marzullo's algorithm, as NTP
 * picks among its sources): one answer that is wrong (a proxy's cached `Date`, a venue host
 * with another clock) is outvoted instead of moving the estimate. When more than one range has
 * the most votes, the estimate spans them all (wider, never a guess between them).
 */
export function estimateOffset(samples: readonly VenueTimeSample[]): OffsetEstimate {
  const n = samples.length;
  if (n === 0) return { kind: 'none' };
  if (starts.length < n) {
    starts = new Float64Array(n);
    ends = new Float64Array(n);
  }
  for (let i = 0; i < n; i++) {
    const s = samples[i]!;
    starts[i] = s.venueFrom - s.answeredAt;
    ends[i] = s.venueTo - s.sentAt;
  }
  const from = starts.subarray(0, n).sort();
  const to = ends.subarray(0, n).sort();
  // The edges in order of place, a start before an end at the same place (ranges that touch
  // agree on that point): the starts and the ends each sorted, merged as they are walked. Only
  // a start can raise the count to its highest, so the walks end with the last start.
  let count = 0;
  let best = 0;
  for (let i = 0, j = 0; i < n;) {
    if (startNext(from, to, i, j)) {
      count += 1;
      i += 1;
      if (count > best) best = count;
    } else {
      count -= 1;
      j += 1;
    }
  }
  if (best * 2 <= n) return { kind: 'disagree', samples: n };
  // The estimate spans each range where the count is `best`: from its edge to the next edge.
  let low = Infinity;
  let high = -Infinity;
  count = 0;
  for (let i = 0, j = 0; i < n;) {
    const start = startNext(from, to, i, j);
    const at = start ? from[i++]! : to[j++]!;
    count += start ? 1 : -1;
    if (count !== best) continue;
    low = Math.min(low, at);
    const next = i < n && startNext(from, to, i, j) ? from[i]! : j < n ? to[j]! : at;
    high = Math.max(high, next);
  }
  return { kind: 'known', bounds: { low, high }, agreeing: best, samples: n };
}

/**
 * True when the next edge of the walk is the start `from[i]`, not the end `to[j]` (a start before
 * an end at the same place). A function of the module, not a closure made per call:
 * {@link estimateOffset} runs on every answer the bot reads.
 */
function startNext(from: Float64Array, to: Float64Array, i: number, j: number): boolean {
  return j >= to.length || from[i]! <= to[j]!;
}

/**
 * The edges of the samples' ranges, reused from call to call ({@link estimateOffset} runs on
 * every answer the bot reads: an array of tuples and a sort by comparator each time were a few
 * MB of a simulated schedule's allocations).
 */
let starts = new Float64Array(32);
let ends = new Float64Array(32);
