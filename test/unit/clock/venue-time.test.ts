import { describe, expect, it } from 'vitest';
import {
  createdAtSample,
  dateHeaderSample,
  estimateOffset,
  type VenueTimeSample,
} from '../../../src/clock/venue-time.ts';

const T = Date.parse('2026-01-05T00:00:00Z');

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
});
