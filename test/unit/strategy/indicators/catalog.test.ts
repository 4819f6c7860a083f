/**
 * Each indicator of quanta/indicators against an independent computation of its textbook
 * formula on a fixed series of bars (written here from the definitions, not from the library),
 * and the work it does per bar counted: each bar is added once, and the library's updates per bar
 * stay the same however long the run.
 */
import { describe, expect, it, vi } from 'vitest';
import * as library from 'trading-signals';
import {
  adx,
  atr,
  bollinger,
  ema,
  macd,
  obv,
  rsi,
  sma,
  stochastic,
  vwap,
  wma,
  type IndicatorSpec,
} from 'quanta/indicators';
import type { ClosedBar } from '../../../../src/strategy/bars/bar.ts';
import { IndicatorBank } from '../../../../src/strategy/indicators/indicator-bank.ts';

const MIN = 60_000;
// Starts 100 minutes before a UTC midnight, so the session VWAP starts again inside the series.
const START = Date.UTC(2026, 0, 5) - 100 * MIN;

/** A fixed, irregular series of 1-minute bars (no ties between up and down moves). */
function series(count: number): ClosedBar[] {
  const bars: ClosedBar[] = [];
  let close = 100;
  for (let i = 0; i < count; i++) {
    const open = close;
    close = open + Math.sin(i * 0.7) * 2.3 + Math.cos(i * 0.13) * 1.1 + (i % 7 === 3 ? 1.9 : -0.05);
    const high = Math.max(open, close) + 0.4 + ((i * 37) % 11) / 10;
    const low = Math.min(open, close) - 0.3 - ((i * 53) % 13) / 10;
    const ticks = i % 17 === 5 ? 0 : 1 + ((i * 7) % 5);
    const start = START + i * MIN;
    const bar = { start, end: start + MIN, timeframe: '1m', marketId: 1 } as ClosedBar['bar'];
    bars.push({ bar, ms: MIN, open, high, low, close, volume: (i % 3) * 0.5, ticks });
  }
  return bars;
}

const BARS = series(150);
const closes = BARS.map((b) => b.close);

function run<V>(spec: IndicatorSpec<V>, bars = BARS): (V | undefined)[] {
  const engine = spec.create();
  return bars.map((bar) => engine.add(bar));
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** Wilder smoothing: the mean of the first n values, then (previous × (n − 1) + value) / n. */
function wilder(values: readonly number[], n: number): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  let previous: number | undefined;
  values.forEach((value, i) => {
    if (i < n - 1) out.push(undefined);
    else if (i === n - 1) out.push((previous = sum(values.slice(0, n)) / n));
    else out.push((previous = ((previous as number) * (n - 1) + value) / n));
  });
  return out;
}

function smaOf(values: readonly (number | undefined)[], n: number): (number | undefined)[] {
  return values.map((_, i) => {
    const window = values.slice(i - n + 1, i + 1);
    if (i < n - 1 || window.some((v) => v === undefined)) return undefined;
    return sum(window as number[]) / n;
  });
}

/** EMA seeded with the first value, reported from the n-th value on. */
function emaOf(values: readonly number[], n: number): (number | undefined)[] {
  const alpha = 2 / (n + 1);
  let e = values[0] as number;
  return values.map((value, i) => {
    if (i > 0) e = alpha * value + (1 - alpha) * e;
    return i >= n - 1 ? e : undefined;
  });
}

function expectClose(actual: readonly unknown[], expected: readonly unknown[]): void {
  expect(actual.length).toBe(expected.length);
  expected.forEach((want, i) => {
    const got = actual[i];
    if (want === undefined) return expect(got, `bar ${i}`).toBeUndefined();
    if (typeof want === 'number') {
      expect(typeof got, `bar ${i}`).toBe('number');
      return expect(
        Math.abs((got as number) - want),
        `bar ${i}: ${String(got)} vs ${want}`,
      ).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
    }
    for (const [key, value] of Object.entries(want as object))
      expectClose([(got as Record<string, unknown> | undefined)?.[key]], [value]);
  });
  // The check compared values, not only undefineds.
  expect(expected.filter((v) => v !== undefined).length).toBeGreaterThan(expected.length / 2);
}

describe('indicators match independent computations on a fixed series', () => {
  it('SMA, EMA, WMA of the close', () => {
    expectClose(run(sma('1m', 10)), smaOf(closes, 10));
    expectClose(run(ema('1m', 9)), emaOf(closes, 9));
    const weights = 21 * 11; // 1 + … + 21
    expectClose(
      run(wma('1m', 21)),
      closes.map((_, i) =>
        i < 20 ? undefined : sum(closes.slice(i - 20, i + 1).map((c, k) => c * (k + 1))) / weights,
      ),
    );
  });

  it('RSI (Wilder): 100 − 100 / (1 + average gain / average loss)', () => {
    const n = 14;
    const moves = closes.slice(1).map((c, i) => c - (closes[i] as number));
    const gains = wilder(
      moves.map((m) => Math.max(m, 0)),
      n,
    );
    const losses = wilder(
      moves.map((m) => Math.max(-m, 0)),
      n,
    );
    const expected = [
      undefined,
      ...gains.map((g, i) =>
        g === undefined ? undefined : 100 - 100 / (1 + g / (losses[i] as number)),
      ),
    ];
    expectClose(run(rsi('1m', n)), expected);
  });

  it('MACD: EMA(12) − EMA(26), its EMA(9) signal, and the histogram', () => {
    const alphaF = 2 / 13;
    const alphaS = 2 / 27;
    let f = closes[0] as number;
    let s = f;
    const line = closes.map((c, i) => {
      if (i > 0) {
        f = alphaF * c + (1 - alphaF) * f;
        s = alphaS * c + (1 - alphaS) * s;
      }
      return f - s;
    });
    const fromSlow = line.slice(25);
    const signal = emaOf(fromSlow, 9);
    const expected = closes.map((_, i) => {
      const k = i - 25;
      const sig = k < 0 ? undefined : signal[k];
      if (sig === undefined) return undefined;
      const m = line[i] as number;
      return { macd: m, signal: sig, histogram: m - sig };
    });
    expectClose(run(macd('1m')), expected);
  });

  it('Bollinger Bands: SMA(20) ± 2 population standard deviations', () => {
    expectClose(
      run(bollinger('1m', 20, 2)),
      closes.map((_, i) => {
        if (i < 19) return undefined;
        const window = closes.slice(i - 19, i + 1);
        const mean = sum(window) / 20;
        const sd = Math.sqrt(sum(window.map((c) => (c - mean) ** 2)) / 20);
        return { lower: mean - 2 * sd, middle: mean, upper: mean + 2 * sd };
      }),
    );
  });

  const trueRange = BARS.map((b, i) =>
    i === 0
      ? b.high - b.low
      : Math.max(
          b.high - b.low,
          Math.abs(b.high - (BARS[i - 1] as ClosedBar).close),
          Math.abs(b.low - (BARS[i - 1] as ClosedBar).close),
        ),
  );

  it('ATR (Wilder) of the true range', () => {
    expectClose(run(atr('1m', 14)), wilder(trueRange, 14));
  });

  it('ADX (Wilder): the smoothed DX of +DI and −DI (the first bar has no directional move)', () => {
    const n = 14;
    const plus = BARS.map((b, i) => {
      if (i === 0) return 0;
      const up = b.high - (BARS[i - 1] as ClosedBar).high;
      const down = (BARS[i - 1] as ClosedBar).low - b.low;
      return up > down && up > 0 ? up : 0;
    });
    const minus = BARS.map((b, i) => {
      if (i === 0) return 0;
      const up = b.high - (BARS[i - 1] as ClosedBar).high;
      const down = (BARS[i - 1] as ClosedBar).low - b.low;
      return down > up && down > 0 ? down : 0;
    });
    const [sp, sm, st] = [wilder(plus, n), wilder(minus, n), wilder(trueRange, n)];
    const dx = sp.map((p, i) => {
      if (p === undefined) return undefined;
      const pdi = p / (st[i] as number);
      const mdi = (sm[i] as number) / (st[i] as number);
      return pdi + mdi === 0 ? 0 : (Math.abs(pdi - mdi) / (pdi + mdi)) * 100;
    });
    const first = n - 1;
    const smoothed = wilder(dx.slice(first) as number[], n);
    expectClose(run(adx('1m', n)), [...dx.slice(0, first).map(() => undefined), ...smoothed]);
  });

  it('Stochastic(14, 3, 3): %K smoothed over 3 bars, %D its 3-bar SMA', () => {
    const fastK = BARS.map((b, i) => {
      if (i < 13) return undefined;
      const window = BARS.slice(i - 13, i + 1);
      const hh = Math.max(...window.map((w) => w.high));
      const ll = Math.min(...window.map((w) => w.low));
      return ((b.close - ll) * 100) / (hh - ll || 1);
    });
    const k = smaOf(fastK, 3);
    const d = smaOf(k, 3);
    expectClose(
      run(stochastic('1m')),
      k.map((kv, i) => (kv === undefined || d[i] === undefined ? undefined : { k: kv, d: d[i] })),
    );
  });

  it('VWAP of the typical price since the UTC day began, by tick or own volume', () => {
    for (const source of ['ticks', 'own'] as const) {
      const volumeOf = (b: ClosedBar) => (source === 'ticks' ? b.ticks : b.volume);
      let day = -1;
      let pv = 0;
      let v = 0;
      const expected = BARS.map((b) => {
        const today = Math.floor(b.bar.start / 86_400_000);
        if (today !== day) [day, pv, v] = [today, 0, 0];
        pv += ((b.high + b.low + b.close) / 3) * volumeOf(b);
        v += volumeOf(b);
        return v === 0 ? undefined : pv / v;
      });
      expectClose(run(vwap('1m', source)), expected);
    }
  });

  it('OBV: the running sum of volume signed by the close’s move, from the second bar', () => {
    let total = 0;
    expectClose(
      run(obv('1m', 'ticks')),
      BARS.map((b, i) => {
        if (i === 0) return undefined;
        const move = b.close - (BARS[i - 1] as ClosedBar).close;
        total += move > 0 ? b.ticks : move < 0 ? -b.ticks : 0;
        return total;
      }),
    );
  });

  it('refuses impossible settings at load, naming the indicator', () => {
    expect(() => ema('1m', 0)).toThrow(
      'ema(0): length must be a whole number from 1 to 100000, got 0',
    );
    expect(() => macd('1m', { fast: 26, slow: 12 })).toThrow(
      'macd(26,12,9): fast must be shorter than slow',
    );
    expect(() => rsi('7m')).toThrow('rsi(14): timeframe 7m: does not divide a day evenly');
    expect(() => vwap('1m', 'market' as never)).toThrow("vwap(market): volume must be 'ticks'");
  });
});

describe('work per bar', () => {
  const ALL: Record<string, IndicatorSpec> = {
    sma: sma('1m', 20),
    ema: ema('1m', 20),
    wma: wma('1m', 20),
    rsi: rsi('1m', 14),
    macd: macd('1m'),
    bollinger: bollinger('1m'),
    atr: atr('1m'),
    stochastic: stochastic('1m'),
    adx: adx('1m'),
    vwap: vwap('1m', 'ticks'),
    obv: obv('1m', 'ticks'),
  };
  const CLASSES = [
    library.SMA,
    library.EMA,
    library.WMA,
    library.WSMA,
    library.RSI,
    library.MACD,
    library.BollingerBands,
    library.ATR,
    library.TR,
    library.DX,
    library.ADX,
    library.StochasticOscillator,
    library.VWAP,
    library.OBV,
  ];

  it('each indicator is updated once per bar of its timeframe, with the same library work per bar late in a run as early', () => {
    const spies = CLASSES.map((c) =>
      vi.spyOn(c.prototype as { update(...args: never[]): unknown }, 'update'),
    );
    try {
      const calls = () => sum(spies.map((spy) => spy.mock.calls.length));
      for (const [name, spec] of Object.entries(ALL)) {
        const bank = new IndicatorBank({ [name]: spec });
        const bars = series(3000);
        const other = {
          ...(bars[0] as ClosedBar),
          bar: { ...(bars[0] as ClosedBar).bar, timeframe: '5m' },
        };
        const perStretch: number[] = [];
        for (let stretch = 0; stretch < 3; stretch++) {
          const before = calls();
          for (const bar of bars.slice(stretch * 1000, (stretch + 1) * 1000)) {
            bank.update(bar);
            bank.update(other); // a bar of another timeframe: no work
          }
          perStretch.push(calls() - before);
        }
        const view = bank.views(1)[name];
        expect(view?.bars, name).toBe(3000);
        expect(view?.value, name).toBeDefined();
        // Bars 1000–1999 and 2000–2999 cost the same number of library updates.
        expect(perStretch[1], name).toBeGreaterThan(0);
        expect(perStretch[2], name).toBe(perStretch[1]);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
