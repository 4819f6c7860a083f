import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { roundTrips, tradeStats } from '../../../src/backtest/round-trips.ts';
import { annualized, benchmarkEquity, buildTearsheet } from '../../../src/backtest/tearsheet.ts';
import { ErrorCodes } from '../../../src/errors/index.ts';
import { formatX18 } from '../../../src/money/index.ts';
import { demoTrace, fill, samples, trace, x18 } from './trace-fixtures.ts';

const T = 1_700_000_000_000;

describe('roundTrips', () => {
  it('cuts fills into trades per instance and market, flips included, PnL exact', () => {
    const trips = roundTrips([
      fill(1, 'a', 1, 'BUY', '1', '100', '0.1', T),
      fill(2, 'b', 1, 'SELL', '2', '101', '0.2', T + 1000),
      fill(3, 'a', 1, 'BUY', '1', '102', '0.1', T + 2000),
      // a: sells 3 out of a long 2: closes at 104 and opens a short of 1 (fee split 2:1).
      fill(4, 'a', 1, 'SELL', '3', '104', '0.3', T + 5000),
      fill(5, 'b', 1, 'BUY', '2', '99', '0.2', T + 6000),
    ]);
    expect(
      trips.map((t) => ({
        strategy: t.strategy,
        direction: t.direction,
        entry: formatX18(t.entryPriceX18),
        exit: t.exitPriceX18 === null ? null : formatX18(t.exitPriceX18),
        amount: formatX18(t.maxAmountX18),
        pnl: formatX18(t.pnlX18),
        fees: formatX18(t.feesX18),
        net: formatX18(t.netPnlX18),
        held: t.exitTime === null ? null : t.exitTime - t.entryTime,
      })),
    ).toEqual([
      // (104 − 101) × 2 = 6; fees 0.1 + 0.1 + 0.2
      {
        strategy: 'a',
        direction: 'LONG',
        entry: '101',
        exit: '104',
        amount: '2',
        pnl: '6',
        fees: '0.4',
        net: '5.6',
        held: 5000,
      },
      {
        strategy: 'b',
        direction: 'SHORT',
        entry: '101',
        exit: '99',
        amount: '2',
        pnl: '4',
        fees: '0.4',
        net: '3.6',
        held: 5000,
      },
      {
        strategy: 'a',
        direction: 'SHORT',
        entry: '104',
        exit: null,
        amount: '1',
        pnl: '0',
        fees: '0.1',
        net: '-0.1',
        held: null,
      },
    ]);
    expect(tradeStats(trips)).toEqual({
      closed: 2,
      open: 1,
      wins: 2,
      losses: 0,
      winRate: '1.000000',
      profitFactor: null,
      expectancy: '4.6',
      avgWin: '4.6',
      avgLoss: null,
      grossProfit: '9.2',
      grossLoss: '0',
      avgDurationMs: 5000,
      maxWinStreak: 2,
      maxLossStreak: 0,
    });
  });

  it('the trades of the demo run add up to its realized PnL and fees', () => {
    const t = demoTrace();
    const trips = roundTrips(t.fills);
    const metrics = computeMetrics(t);
    expect(formatX18(trips.reduce((n, trip) => n + trip.pnlX18, 0n))).toBe(
      metrics.total.realizedPnl,
    );
    expect(formatX18(trips.reduce((n, trip) => n + trip.feesX18, 0n))).toBe('2.9014');
    expect(tradeStats(trips)).toMatchObject({
      closed: 1,
      open: 1,
      wins: 0,
      losses: 1,
      profitFactor: '0.000000',
    });
  });
});

describe('annualized', () => {
  it('CAGR and Calmar over two years and over half a year; none below a day', () => {
    const year = 365 * 24 * 3600 * 1000;
    // 100 → 121 in two years is 10 % a year (1.1² = 1.21); Calmar 10 / 5.
    expect(annualized(x18('100'), x18('121'), 2 * year, '5')).toEqual({
      cagrPct: '10.000000',
      calmar: '2.000000',
    });
    // 100 → 110.25 in half a year compounds to 1.1025² = 1.21550625 a year; Calmar 21.550625 / 5.
    expect(annualized(x18('100'), x18('110.25'), year / 2, '5')).toEqual({
      cagrPct: '21.550625',
      calmar: '4.310125',
    });
    expect(annualized(x18('100'), x18('121'), 3600_000, '5')).toEqual({
      cagrPct: null,
      calmar: null,
    });
  });
});

describe('benchmarkEquity', () => {
  it('splits the capital equally and holds each market from its first mid', () => {
    const list = samples([[], [], []]).map((s, i) => ({
      ...s,
      tops: [
        {
          marketId: 1,
          bidX18: x18(['99', '109', '119'][i] ?? '0'),
          askX18: x18(['101', '111', '121'][i] ?? '0'),
        },
        {
          marketId: 2,
          bidX18: i === 0 ? null : x18('10'),
          askX18: i === 0 ? null : x18(i === 1 ? '10' : '5'),
        },
      ],
    }));
    // Market 2 has no mid at first: its half stays cash until then (mid 10, then 7.5).
    expect(benchmarkEquity(trace({ samples: list }), x18('1000')).map(formatX18)).toEqual([
      '1000',
      '1050',
      '975',
    ]);
  });
});

describe('benchmarkEquity and the price chart on a one-sided book (the one mid rule)', () => {
  it('keeps the last mid while a side is empty, and draws no mid there', () => {
    const list = samples([[], [], []]).map((s, i) => ({
      ...s,
      tops: [
        {
          marketId: 1,
          bidX18: x18(['100', '110', '120'][i] ?? '0'),
          // The ask side empties at the second sample: its lone bid 110 is not a mid.
          askX18: i === 1 ? null : x18(['100', '0', '120'][i] ?? '0'),
        },
      ],
    }));
    const t = trace({ samples: list });
    expect(benchmarkEquity(t, x18('1000')).map(formatX18)).toEqual(['1000', '1000', '1200']);
    const chart = buildTearsheet(t, computeMetrics(t)).priceCharts[0];
    expect(chart?.mid).toEqual(['100', null, '120']);
    expect(chart?.bid).toEqual(['100', '110', '120']);
  });
});

describe('buildTearsheet', () => {
  it('warns on a short run and leaves CAGR out, with a chart per quoted market', () => {
    const t = demoTrace();
    const sheet = buildTearsheet(t, computeMetrics(t));
    expect(sheet.warnings).toHaveLength(3);
    expect(sheet.warnings[0]).toContain('60 samples');
    expect(sheet.total.cagrPct).toBeNull();
    expect(sheet.strategies.map((s) => s.strategy)).toEqual(['dca', 'mean-reversion']);
    expect(sheet.priceCharts.map((c) => c.symbol)).toEqual(['ETH-USD', 'BTC-USD']);
    const btc = sheet.priceCharts[1];
    expect(btc?.plots.map((p) => p.name)).toEqual(['mean']);
    expect(btc?.sells.filter((v) => v !== null)).toEqual(['64900']);
    expect(btc?.buys.filter((v) => v !== null)).toEqual(['65250']);
    expect(
      sheet.returnsHistogram.counts.reduce((a, b) => a + b, 0) + sheet.returnsHistogram.zero,
    ).toBe(60);
  });
});

describe('buildTearsheet refuses a figure x18 cannot hold', () => {
  it('throws on a 19th fraction digit in the metrics rather than dropping it', () => {
    const t = demoTrace();
    const metrics = computeMetrics(t);
    // Before the one signed parser, the tearsheet cut this to 100000 without a word.
    const odd = { ...metrics, startingCapital: '100000.0000000000000000009' };
    expect(() => buildTearsheet(t, odd)).toThrow(
      expect.objectContaining({
        code: ErrorCodes.INVALID_DECIMAL,
        shortMessage:
          'starting capital "100000.0000000000000000009" has more than 18 fraction digits',
      }),
    );
  });
});
