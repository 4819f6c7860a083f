import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/domain/index.ts';
import { QuotePlaces, RecordedQuotes } from '../../../src/market/recording/recorded-quotes.ts';

function quote(marketId: number, timestamp: number): Quote {
  return { marketId, timestamp, bids: [], asks: [] };
}

describe('RecordedQuotes', () => {
  it('answers every ReadonlyMap question as the Map of the same quotes does', () => {
    const ids = [7, 3, 11, 5];
    const quotes = ids.map((id, i) => quote(id, 1000 + i));
    const places = QuotePlaces.of([...ids, 99], ids.length) as QuotePlaces;
    const ours = new RecordedQuotes(places, quotes);
    const map = new Map(quotes.map((q) => [q.marketId, q]));
    expect(ours.size).toBe(map.size);
    for (const id of [7, 3, 11, 5, 99, 0]) {
      expect(ours.get(id)).toBe(map.get(id));
      expect(ours.has(id)).toBe(map.has(id));
    }
    expect([...ours.keys()]).toEqual([...map.keys()]);
    expect([...ours.values()]).toEqual([...map.values()]);
    expect([...ours.entries()]).toEqual([...map.entries()]);
    expect([...ours]).toEqual([...map]);
    expect(new Map(ours)).toEqual(map);
    const seen: [number, number, unknown][] = [];
    const self = {};
    ours.forEach(function (this: unknown, q, id, whole) {
      seen.push([id, q.timestamp, whole === ours && this === self]);
    }, self);
    expect(seen).toEqual([...map].map(([id, q]) => [id, q.timestamp, true]));
  });

  it('finds no quote for an id not listed, small or large, negative, fractional or NaN', () => {
    // Small ids are found by array, ids beyond 65536 (or not integers) by the Map: both ways.
    for (const ids of [
      [7, 3, 11, 5],
      [7, 3, 70000, 5],
      [7, 3, 1.5, 5],
    ]) {
      const quotes = ids.map((id, i) => quote(id, 1000 + i));
      const ours = new RecordedQuotes(QuotePlaces.of(ids, ids.length) as QuotePlaces, quotes);
      const map = new Map(quotes.map((q) => [q.marketId, q]));
      for (const id of [...ids, 0, 4, 12, 65536, 65537, 69999, 70001, -1, -7, 2.5, 7.5, NaN]) {
        expect(ours.get(id)).toBe(map.get(id));
        expect(ours.has(id)).toBe(map.has(id));
      }
    }
  });

  it('shares places only with the same markets in the same order, and has none for a repeated id', () => {
    const places = QuotePlaces.of([1, 2, 3], 3) as QuotePlaces;
    expect(places.same([1, 2, 3, 4], 3)).toBe(true);
    expect(places.same([1, 3, 2], 3)).toBe(false);
    expect(places.same([1, 2], 2)).toBe(false);
    expect(QuotePlaces.of([1, 2, 1], 3)).toBeUndefined();
    // Copied: the scanner's reused array may change after.
    const ids = [4, 5];
    const own = QuotePlaces.of(ids, 2) as QuotePlaces;
    ids[0] = 9;
    expect(own.ids).toEqual([4, 5]);
  });
});
