import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createdAtSample,
  dateHeaderSample,
  estimateOffset,
  type VenueTimeSample,
} from '../../../src/clock/venue-time.ts';

const T = Date.parse('2026-01-05T00:00:00Z');

/**
 * The estimate as first written (every edge a tuple, one sort with starts before ends at a
 * place): what `estimateOffset` must still answer, to the bit.
 */
function referenceEstimate(samples: readonly VenueTimeSample[]): ReturnType<typeof estimateOffset> {
  if (samples.length === 0) return { kind: 'none' };
  const edges: [number, 1 | -1][] = [];
  for (const s of samples) edges.push([s.venueFrom - s.answeredAt, 1], [s.venueTo - s.sentAt, -1]);
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
    const edge = edges[i]!;
    count += edge[1];
    if (count !== best) continue;
    low = Math.min(low, edge[0]);
    high = Math.max(high, edges[i + 1]?.[0] ?? edge[0]);
  }
  return { kind: 'known', bounds: { low, high }, agreeing: best, samples: samples.length };
}

/** A Date-header sample taken over `sentAt`..`answeredAt` when the venue read `venueAt`. */
function dated(venueAt: number, sentAt: number, answeredAt = sentAt + 10): VenueTimeSample {
  const sample = dateHeaderSample(new Date(venueAt).toUTCString(), sentAt, answeredAt);
  if (sample === undefined) throw new Error('unreadable date');
  return sample;
}

describe('venue time samples', () => {
  it("reads the Date header's IMF-fixdate as a one-second range, and nothing else", () => {
    expect(dateHeaderSample('Mon, 05 Jan 2026 00:00:07 GMT', 100, 110)).toEqual({
      sentAt: 100,
      answeredAt: 110,
      venueFrom: T + 7000,
      venueTo: T + 8000,
    });
    for (const bad of [null, '', 'Mon, 05 Jan 2026 00:00:07', '2026-01-05T00:00:07Z', 'soon'])
      expect(dateHeaderSample(bad, 100, 110)).toBeUndefined();
  });

  it('reads createdAt to the resolution it was written with', () => {
    expect(createdAtSample('2026-01-05T00:00:07.250Z', 1, 2)).toMatchObject({
      venueFrom: T + 7250,
      venueTo: T + 7251,
    });
    expect(createdAtSample('2026-01-05T00:00:07Z', 1, 2)).toMatchObject({
      venueFrom: T + 7000,
      venueTo: T + 8000,
    });
    expect(createdAtSample('yesterday', 1, 2)).toBeUndefined();
  });
});

describe('estimateOffset', () => {
  it('knows nothing without samples', () => {
    expect(estimateOffset([])).toEqual({ kind: 'none' });
  });

  it('narrows the one-second Date ranges taken at different moments of the second', () => {
    // The venue is 600,123 ms ahead of the monotonic clock's reading, exactly.
    const offset = 600_123;
    const samples = [0, 300, 650, 900, 1_420].map((at) => dated(at + offset, at, at + 10));
    const estimate = estimateOffset(samples);
    expect(estimate.kind).toBe('known');
    if (estimate.kind !== 'known') return;
    expect(estimate.bounds.low).toBeLessThanOrEqual(offset);
    expect(estimate.bounds.high).toBeGreaterThanOrEqual(offset);
    // One sample bounds it to ~1010 ms; five at spread phases to well under half of that.
    expect(estimate.bounds.high - estimate.bounds.low).toBeLessThan(300);
    expect(estimate.agreeing).toBe(5);
  });

  it('outvotes a wrong answer, and says when no range has a majority', () => {
    const good = [0, 250, 500, 750].map((at) => dated(at + 5_000, at));
    const wrong = dated(3_600_000, 1_000); // a proxy's stale Date, an hour off
    const estimate = estimateOffset([...good, wrong]);
    expect(estimate).toMatchObject({ kind: 'known', agreeing: 4, samples: 5 });
    if (estimate.kind === 'known') expect(estimate.bounds.high).toBeLessThan(6_000);
    // Two against two: no majority, no estimate.
    expect(estimateOffset([...good.slice(0, 2), wrong, dated(3_600_000, 1_200)])).toEqual({
      kind: 'disagree',
      samples: 4,
    });
  });

  it('answers as the tuple-and-sort estimate does, ties and touching ranges included', () => {
    // Small integers, so that edges often fall on one place; samples from one answer to 40.
    const sample = fc
      .tuple(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 12 }),
      )
      .map(([sentAt, wait, venueFrom, width]) => ({
        sentAt,
        answeredAt: sentAt + wait,
        venueFrom,
        venueTo: venueFrom + width,
      }));
    fc.assert(
      fc.property(fc.array(sample, { minLength: 1, maxLength: 40 }), (samples) => {
        expect(estimateOffset(samples)).toEqual(referenceEstimate(samples));
      }),
      { seed: 31, numRuns: 2000 },
    );
  });
});
