import { describe, expect, it } from 'vitest';
import { bollinger, ema, macd, rsi, sma } from 'quanta/indicators';
import { silentLogger } from '../../../../src/log/logger.ts';
import { createSnapshot } from '../../../../src/market/snapshot.ts';
import { BarChartRecorder } from '../../../../src/strategy/bars/bar-chart.ts';
import type { ClosedBar } from '../../../../src/strategy/bars/bar.ts';
import { defineStrategy } from '../../../../src/strategy/define-strategy.ts';
import { INDICATOR_CHARTS } from '../../../../src/strategy/indicators/chart-placement.ts';
import * as catalog from '../../../../src/strategy/indicators/catalog.ts';
import { StrategyHost } from '../../../../src/strategy/strategy-host.ts';
import { testMarket } from '../../../helpers/markets.ts';

const DAY = Date.UTC(2026, 0, 5);
const MINUTE = 60_000;

/** A strategy on 1m and 5m bars that notes its indicators' values after every bar it sees. */
function noting(seen: Map<number, Record<string, unknown>>) {
  return defineStrategy({
    name: 'noting',
    bars: { '1m': 5, '5m': 5 },
    indicators: () => ({
      fast: ema('1m', 3),
      strength: rsi('1m', 4),
      trend: macd('1m', { fast: 3, slow: 6, signal: 2 }),
      bands: bollinger('5m', 3),
      slow: sma('5m', 2),
    }),
    onBar(bar, ctx) {
      const values: Record<string, unknown> = {};
      for (const [name, indicator] of Object.entries(ctx.indicators(bar.marketId)))
        values[name] = indicator.value;
      // The last bar closing at this time wins: a 5m bar is committed after the 1m bar that
      // closes with it, so this is every indicator as of the close.
      seen.set(bar.end, values);
      return [];
    },
  });
}

describe('the bars and indicator values the report draws', () => {
  it("equal the strategy's own bars and its indicators' values at each bar close", async () => {
    const seen = new Map<number, Record<string, unknown>>();
    let now = 0;
    const host = new StrategyHost({
      strategy: noting(seen),
      name: 'noting',
      params: {},
      symbols: ['ETH-USD'],
      now: () => now,
      log: silentLogger,
      store: { get: () => undefined, set: () => undefined },
      positionOf: () => 0n,
      openOrders: () => [],
      chartBars: true,
    });
    const market = testMarket();
    const mids: number[] = [];
    // Three snapshots a minute for 40 minutes, a made-up walk with ups and downs.
    for (let i = 0; i < 120; i += 1) {
      now = DAY + i * 20_000;
      const mid = 2000 + 10 * Math.sin(i / 5) + (i % 7) - 3;
      mids.push(mid);
      const quotes = [
        {
          marketId: 1,
          timestamp: 0,
          bids: [{ price: (mid - 0.5).toFixed(2), quantity: '1' }],
          asks: [{ price: (mid + 0.5).toFixed(2), quantity: '1' }],
        },
      ];
      await host.onSnapshot(
        createSnapshot({ seq: i + 1, takenAt: now, markets: [market], quotes }),
      );
    }
    const [chart, ...others] = host.barCharts();
    expect(others).toEqual([]);
    expect(chart?.symbol).toBe('ETH-USD');
    expect(chart?.barTimeframe).toBe('1m');
    expect(chart?.timeframe).toBe('1m');
    // 40 minutes of snapshots: 39 bars closed (the last is still open).
    expect(chart?.bars).toBe(39);
    expect(chart?.t).toHaveLength(39);
    expect(chart?.t[0]).toBe(DAY);
    const closes = chart?.close ?? [];
    for (const [i, t] of (chart?.t ?? []).entries()) {
      const expected = seen.get(t + MINUTE);
      expect(expected, `bar at ${t}`).toBeDefined();
      for (const indicator of chart?.indicators ?? []) {
        const value = expected?.[indicator.name];
        indicator.fields.forEach((field, f) => {
          const want =
            value === undefined
              ? null
              : typeof value === 'number'
                ? value
                : (value as Record<string, number>)[field];
          expect(indicator.values[f]?.[i], `${indicator.name}.${field} at bar ${i}`).toBe(want);
        });
      }
      expect(Number(closes[i])).toBeGreaterThan(1980);
    }
    const byName = new Map(chart?.indicators.map((ind) => [ind.name, ind]));
    expect(byName.get('trend')?.fields).toEqual(['macd', 'signal', 'histogram']);
    expect(byName.get('bands')?.fields).toEqual(['lower', 'middle', 'upper']);
    expect(byName.get('fast')?.placement.pane).toBe('price');
    expect(byName.get('strength')?.placement.pane).toBe('own');
    // The RSI had values once warmed up, and the 5m SMA holds its value between its bars.
    expect(byName.get('strength')?.values[0]?.filter((v) => v !== null).length).toBeGreaterThan(30);
    const slow = byName.get('slow')?.values[0] ?? [];
    expect(slow[11]).not.toBeNull();
    expect(slow[10]).toBe(slow[11]);
    expect(slow[14]).not.toBe(slow[13]);
  });

  it('merges candles into a longer timeframe when there are too many, exactly', () => {
    const values = { v: { value: 0 as unknown } };
    const recorder = new BarChartRecorder({
      strategy: 's',
      timeframe: '1m',
      ms: MINUTE,
      indicators: { v: sma('1m', 1) },
      views: () => values,
      maxCandles: 10,
    });
    const price = (i: number): string => `${100 + ((i * 37) % 11)}.${i % 10}`;
    for (let i = 0; i < 23; i += 1) {
      values.v.value = i;
      const start = DAY + i * MINUTE;
      // Four prices sorted (all of three integer digits: text order is value order).
      const [low, open, close, high] = [price(i), price(i + 1), price(i + 2), price(i + 3)].sort();
      const bar = {
        marketId: 7,
        symbol: 'X-USD',
        timeframe: '1m',
        start,
        end: start + MINUTE,
        open: open as string,
        high: high as string,
        low: low as string,
        close: close as string,
        bid: '0',
        ask: '0',
        spread: '0',
        volume: '0',
        ticks: 1,
      };
      const closed: ClosedBar = {
        bar,
        ms: MINUTE,
        open: Number(bar.open),
        high: Number(bar.high),
        low: Number(bar.low),
        close: Number(bar.close),
        volume: 0,
        ticks: 1,
      };
      recorder.commit(closed);
    }
    const [chart] = recorder.charts();
    // 23 one-minute bars do not fit in 10 candles: 5-minute candles, the last holding 3 bars.
    expect(chart?.timeframe).toBe('5m');
    expect(chart?.barTimeframe).toBe('1m');
    expect(chart?.bars).toBe(23);
    expect(chart?.t).toEqual([0, 1, 2, 3, 4].map((k) => DAY + k * 5 * MINUTE));
    const sorted = (i: number): string[] =>
      [price(i), price(i + 1), price(i + 2), price(i + 3)].sort();
    for (let k = 0; k < 5; k += 1) {
      const group = Array.from({ length: Math.min(5, 23 - 5 * k) }, (_, j) => 5 * k + j);
      expect(chart?.open[k]).toBe(sorted(group[0] as number)[1]);
      expect(chart?.close[k]).toBe(sorted(group[group.length - 1] as number)[2]);
      const highs = group.map((i) => sorted(i)[3] as string);
      const lows = group.map((i) => sorted(i)[0] as string);
      expect(chart?.high[k]).toBe(highs.reduce((a, b) => (Number(b) > Number(a) ? b : a)));
      expect(chart?.low[k]).toBe(lows.reduce((a, b) => (Number(b) < Number(a) ? b : a)));
      // The indicator's value of each candle is its last bar's.
      expect(chart?.indicators[0]?.values[0]?.[k]).toBe(group[group.length - 1]);
    }
  });

  it('every indicator of quanta/indicators has its place in the one table', () => {
    const made = [
      catalog.sma('1m', 2),
      catalog.ema('1m', 2),
      catalog.wma('1m', 2),
      catalog.rsi('1m'),
      catalog.macd('1m'),
      catalog.bollinger('1m'),
      catalog.atr('1m'),
      catalog.stochastic('1m'),
      catalog.adx('1m'),
      catalog.vwap('1m', 'ticks'),
      catalog.obv('1m', 'ticks'),
    ];
    const exported = Object.entries(catalog).filter(([, v]) => typeof v === 'function');
    expect(made).toHaveLength(exported.length);
    expect(made.map((spec) => spec.kind).sort()).toEqual(Object.keys(INDICATOR_CHARTS).sort());
    // Oscillators in their own pane, never on the price axis.
    for (const kind of ['rsi', 'macd', 'stochastic', 'adx', 'atr', 'obv'] as const)
      expect(INDICATOR_CHARTS[kind].pane).toBe('own');
    for (const kind of ['sma', 'ema', 'wma', 'bollinger', 'vwap'] as const)
      expect(INDICATOR_CHARTS[kind].pane).toBe('price');
  });
});
