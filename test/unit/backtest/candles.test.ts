// The report's candles (issue 27): OHLC of the recorded mids per UTC-aligned bar, exact, bars
// without a mid left out, and a bar length that holds a few snapshots and caps the count.
import { describe, expect, it } from 'vitest';
import { candleMs, MAX_CANDLES, midCandles } from '../../../src/backtest/candles.ts';
import { parseDecimalToX18 as x18 } from '../../../src/money/index.ts';

const T0 = Date.parse('2026-03-02T10:00:00Z');

describe('midCandles', () => {
  it('gives each bar its first, highest, lowest and last mid, exactly, aligned to UTC', () => {
    const mids: [number, string | undefined][] = [
      [T0 + 2_000, '100.000000000000000001'],
      [T0 + 4_000, '101.5'],
      [T0 + 9_999, '99.25'],
      [T0 + 10_000, '100'],
      // A bar whose only snapshot has no mid (a one-sided book) is left out.
      [T0 + 20_000, undefined],
      [T0 + 31_000, '98'],
      [T0 + 32_000, '98.5'],
    ];
    const candles = midCandles(
      mids.map(([t, mid]) => ({ t, midX18: mid === undefined ? undefined : x18(mid) })),
      10_000,
    );
    expect(candles).toEqual({
      timeframe: '10s',
      ms: 10_000,
      t: [T0, T0 + 10_000, T0 + 30_000],
      open: ['100.000000000000000001', '100', '98'],
      high: ['101.5', '100', '98.5'],
      low: ['99.25', '100', '98'],
      close: ['99.25', '100', '98.5'],
    });
  });
});

describe('candleMs', () => {
  it('holds at least 3 snapshots a candle and at most MAX_CANDLES candles', () => {
    // A minute of 1 s snapshots: 5 s candles (3 s is not on the ladder).
    expect(candleMs(60_000, 1_000)).toBe(5_000);
    // A day of 1 s snapshots: 5 s would be 17,281 candles; 5 min gives 289.
    expect(candleMs(86_400_000, 1_000)).toBe(300_000);
    expect(Math.floor(86_400_000 / candleMs(86_400_000, 1_000)) + 1).toBeLessThanOrEqual(
      MAX_CANDLES,
    );
    // A year: daily candles (the longest on the ladder).
    expect(candleMs(365 * 86_400_000, 60_000)).toBe(86_400_000);
  });
});
