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
  if (date === null) return undefined;
  // Only the one format RFC 9110 says a sender generates: Date.parse would also take forms it
  // would read in local time, or half-read.
  if (!IMF_FIXDATE.test(date)) return undefined;
  const at = Date.parse(date);
  if (!Number.isFinite(at)) return undefined;
  return { sentAt, answeredAt, venueFrom: at, venueTo: at + 1000 };
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
  if (samples.length === 0) return { kind: 'none' };
  const edges: [at: number, step: 1 | -1][] = [];
  for (const s of samples) {
    edges.push([s.venueFrom - s.answeredAt, 1], [s.venueTo - s.sentAt, -1]);
  }
  // Starts before ends at the same point: ranges that touch agree on that point.
  edges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let count = 0;
  let best = 0;
  for (const [, step] of edges) {
    count += step;
    if (count > best) best = count;
  }
  if (best * 2 <= samples.length) return { kind: 'disagree', samples: samples.length };
  let low = Infinity;
  let high = -Infinity;
  count = 0;
  for (let i = 0; i < edges.length; i++) {
    const edge = edges[i];
    if (edge === undefined) continue;
    count += edge[1];
    if (count !== best) continue;
    low = Math.min(low, edge[0]);
    high = Math.max(high, edges[i + 1]?.[0] ?? edge[0]);
  }
  return { kind: 'known', bounds: { low, high }, agreeing: best, samples: samples.length };
}
