import { describe, expect, it } from 'vitest';
import { BarBuilder, type ClosedBar } from '../../../../src/strategy/bars/bar.ts';
import { planTimeframes } from '../../../../src/strategy/bars/bar-plan.ts';
import { barStart, timeframeMs } from '../../../../src/strategy/bars/timeframe.ts';
import { isQuantaError } from '../../../../src/errors/index.ts';

const X = 10n ** 18n;
const MIN = 60_000;
// 2026-01-05T00:00:00Z, a UTC midnight.
const DAY = Date.UTC(2026, 0, 5);

describe('timeframes', () => {
  it('reads 1s to 1d lengths that divide a day, and says why it refuses the others', () => {
    expect(timeframeMs('1s')).toBe(1000);
    expect(timeframeMs('15m')).toBe(15 * MIN);
    expect(timeframeMs('4h')).toBe(4 * 3_600_000);
    expect(timeframeMs('1d')).toBe(86_400_000);
    expect(timeframeMs('7m')).toBe(
      'timeframe 7m: does not divide a day evenly, so its bars could not start at the same UTC times every day (try 6m or 8m)',
    );
    expect(timeframeMs('2d')).toBe('timeframe 2d: longer than 1d (the longest bar is one day)');
    expect(timeframeMs('1min')).toBe(
      'timeframe "1min": expected a count and a unit s, m, h or d, like "1m" or "4h"',
    );
    expect(timeframeMs('0s')).toMatch(/expected a count/);
  });

  it('aligns bars to UTC: a 4h bar starts at 00, 04, 08… UTC, a 1d bar at midnight', () => {
    const t = DAY + 5 * 3_600_000 + 12_345;
    expect(new Date(barStart(t, 4 * 3_600_000)).toISOString()).toBe('2026-01-05T04:00:00.000Z');
    expect(new Date(barStart(t, 86_400_000)).toISOString()).toBe('2026-01-05T00:00:00.000Z');
    expect(new Date(barStart(t, 15 * MIN)).toISOString()).toBe('2026-01-05T05:00:00.000Z');
  });

  it('a bad declaration is refused at load with every problem named', () => {
    let caught: unknown;
    try {
      planTimeframes('cross', { '1m': 50, '7m': 10, '5m': 0, '60s': 3 });
    } catch (error) {
      caught = error;
    }
    expect(isQuantaError(caught, 'QUANTA_STRATEGY_LOAD')).toBe(true);
    expect((caught as { details: string[] }).details).toEqual([
      'bars.7m: timeframe 7m: does not divide a day evenly, so its bars could not start at the same UTC times every day (try 6m or 8m)',
      'bars.5m: bars of history must be a whole number from 1 to 525600, got 0',
      'bars.60s: the same length as another timeframe declared',
    ]);
    expect(planTimeframes('ok', { '1h': 2, '1m': 3 }).map((p) => p.timeframe)).toEqual([
      '1m',
      '1h',
    ]);
  });
});

/** Feeds (t, bid, ask) rows to a 1-minute builder; returns the bars closed after each row. */
function feed(rows: readonly [number, number | undefined, number | undefined][]): ClosedBar[][] {
  const builder = new BarBuilder(1, 'ETH-USD', '1m', MIN);
  return rows.map(([t, bid, ask]) => {
    const out: ClosedBar[] = [];
    const bidX = bid === undefined ? undefined : BigInt(bid) * X;
    const askX = ask === undefined ? undefined : BigInt(ask) * X;
    const mid = bidX === undefined || askX === undefined ? undefined : (bidX + askX) / 2n;
    builder.update(
      t,
      mid,
      mid === undefined ? undefined : bidX,
      mid === undefined ? undefined : askX,
      out,
    );
    return out;
  });
}

describe('BarBuilder', () => {
  it('OHLC of the mid, close bid/ask/spread, delivered at the first snapshot at or after its end', () => {
    const closed = feed([
      [DAY + 1_000, 100, 102], // mid 101 opens the 00:00 bar
      [DAY + 20_000, 104, 106], // 105
      [DAY + 40_000, 96, 98], // 97
      [DAY + 59_999, 99, 102], // 100.5: the close, bid 99 ask 102
      [DAY + MIN, 110, 112], // first snapshot of 00:01 closes 00:00
    ]);
    expect(closed.slice(0, 4).every((out) => out.length === 0)).toBe(true);
    const [bar] = closed[4] as ClosedBar[];
    expect(bar?.bar).toEqual({
      marketId: 1,
      symbol: 'ETH-USD',
      timeframe: '1m',
      start: DAY,
      end: DAY + MIN,
      open: '101',
      high: '105',
      low: '97',
      close: '100.5',
      bid: '99',
      ask: '102',
      spread: '3',
      volume: '0',
      ticks: 4,
    });
    expect([bar?.open, bar?.high, bar?.low, bar?.close]).toEqual([101, 105, 97, 100.5]);
  });

  it('makes no bar before the first mid; one-sided books add nothing', () => {
    const closed = feed([
      [DAY + 1_000, undefined, undefined],
      [DAY + MIN + 5_000, 100, undefined], // one-sided: no mid
      [DAY + 2 * MIN + 1, 100, 102], // first mid: opens 00:02
      [DAY + 2 * MIN + 2, undefined, 300], // one-sided again: ignored
      [DAY + 3 * MIN, 100, 104],
    ]);
    expect(closed.flat().map((c) => [c.bar.start, c.bar.close, c.bar.ticks])).toEqual([
      [DAY + 2 * MIN, '101', 1],
    ]);
  });

  it('a span without quotes gives flat bars at the last close with ticks 0, in order', () => {
    const closed = feed([
      [DAY + 10_000, 100, 102],
      [DAY + 30_000, 106, 108], // close 107, bid 106, ask 108
      [DAY + MIN + 1_000, undefined, undefined], // 00:01 opens with no mid
      [DAY + 4 * MIN + 500, 90, 92], // closes 00:01, gap bars 00:02 and 00:03, opens 00:04
      [DAY + 5 * MIN, 90, 92],
    ]);
    const flat = { open: '107', high: '107', low: '107', close: '107', bid: '106', ask: '108' };
    expect(closed[2]?.map((c) => c.bar.start)).toEqual([DAY]);
    expect(closed[3]?.map((c) => ({ start: c.bar.start, ticks: c.bar.ticks }))).toEqual([
      { start: DAY + MIN, ticks: 0 },
      { start: DAY + 2 * MIN, ticks: 0 },
      { start: DAY + 3 * MIN, ticks: 0 },
    ]);
    for (const c of closed[3] ?? []) expect(c.bar).toMatchObject(flat);
    expect(closed[4]?.[0]?.bar).toMatchObject({ start: DAY + 4 * MIN, open: '91', ticks: 1 });
  });

  it('counts fills into the open bar as volume, and starts the next bar at zero', () => {
    const builder = new BarBuilder(1, 'ETH-USD', '1m', MIN);
    const out: ClosedBar[] = [];
    builder.update(DAY, 100n * X, 99n * X, 101n * X, out);
    builder.addVolume(X / 4n);
    builder.addVolume(X / 2n);
    builder.update(DAY + MIN, 100n * X, 99n * X, 101n * X, out);
    builder.update(DAY + 2 * MIN, 100n * X, 99n * X, 101n * X, out);
    expect(out.map((c) => [c.bar.volume, c.volume])).toEqual([
      ['0.75', 0.75],
      ['0', 0],
    ]);
  });
});
