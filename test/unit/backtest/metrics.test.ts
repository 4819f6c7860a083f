import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { roundTrips, tradeStats } from '../../../src/backtest/round-trips.ts';
import type { MarketSample, Sample } from '../../../src/backtest/trace.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { formatX18 } from '../../../src/money/index.ts';
import {
  demoTrace,
  fill,
  marketSample,
  order,
  realizedPath,
  samples,
  trace,
  x18,
} from './trace-fixtures.ts';

const DAY_MS = 86_400_000;

describe('computeMetrics: PnL', () => {
  it('values the open position at the last mark and nets fees', () => {
    const metrics = computeMetrics(
      trace({
        samples: samples([
          [
            marketSample(1, {
              positionX18: '2',
              markPriceX18: '3010',
              avgEntryPriceX18: '3000',
              realizedPnlX18: '5',
              feesX18: '3.0001',
              turnoverX18: '6000',
            }),
          ],
          [
            marketSample(1, {
              positionX18: '-1.5',
              markPriceX18: '2990.5',
              avgEntryPriceX18: '3001',
              realizedPnlX18: '25.5',
              feesX18: '4.5',
              turnoverX18: '16500',
            }),
          ],
        ]),
      }),
    );
    const eth = metrics.markets[0];
    // -1.5 × (2990.5 − 3001) = 15.75
    expect(eth).toMatchObject({
      marketId: 1,
      symbol: 'ETH-USD',
      realizedPnl: '25.5',
      unrealizedPnl: '15.75',
      fees: '4.5',
      netPnl: '36.75',
      turnover: '16500',
      finalEquity: '100036.75',
      returnPct: '0.036750',
      finalPosition: '-1.5',
      avgEntryPrice: '3001',
      lastMarkPrice: '2990.5',
    });
    expect(metrics.total.netPnl).toBe('36.75');
    expect(metrics.startingCapital).toBe('100000');
  });

  it('carries the last non-zero mark over a snapshot without a quote', () => {
    const pos = { positionX18: '1', avgEntryPriceX18: '100' };
    const metrics = computeMetrics(
      trace({
        samples: samples([
          [marketSample(1, { ...pos, markPriceX18: '0' })],
          [marketSample(1, { ...pos, markPriceX18: '110' })],
          [marketSample(1, { ...pos, markPriceX18: '0' })],
        ]),
      }),
    );
    // Before any mark: valued at entry (0), then 10, then still 10 (not 1 × (0 − 100)).
    expect(metrics.total.unrealizedPnl).toBe('10');
    expect(metrics.total.maxDrawdown).toBe('0');
    expect(metrics.markets[0]?.lastMarkPrice).toBe('110');
  });

  it('is all zeros and nulls for a trace without samples or orders', () => {
    const metrics = computeMetrics(trace({ snapshotIntervalMs: 0 }));
    expect(metrics.markets).toEqual([]);
    expect(metrics.periodsPerYear).toBeNull();
    expect(metrics.total).toEqual({
      realizedPnl: '0',
      unrealizedPnl: '0',
      fees: '0',
      netPnl: '0',
      turnover: '0',
      finalEquity: '100000',
      returnPct: '0.000000',
      maxDrawdown: '0',
      maxDrawdownPct: '0.000000',
      sharpe: null,
      sortino: null,
      roundTrips: { closed: 0, wins: 0 },
      winRate: null,
      exposure: { timeInMarket: null, avgGrossNotional: '0' },
      orders: { total: 0, byState: {} },
    });
  });

  it('takes the starting capital as an option and refuses a bad one', () => {
    const t = trace({ samples: realizedPath(1, ['-50']) });
    expect(computeMetrics(t, { startingCapital: '1000' }).total.finalEquity).toBe('950');
    expect(computeMetrics(t, { startingCapital: '1000' }).total.maxDrawdownPct).toBe('5.000000');
    for (const bad of ['0', '-5', '1e5', '']) {
      const call = () => computeMetrics(t, { startingCapital: bad });
      expect(call).toThrow(QuantaError);
      try {
        call();
      } catch (error) {
        expect((error as QuantaError).code).toBe(ErrorCodes.BACKTEST_INVALID_OPTION);
        expect((error as QuantaError).shortMessage).toContain('startingCapital');
      }
    }
  });
});

describe('computeMetrics: drawdown', () => {
  it('measures the largest fall from the running peak, in quote units and percent', () => {
    // Equity 100000 → 100100 → 99800 → 100050 → 100400 → 100300.
    const metrics = computeMetrics(
      trace({ samples: realizedPath(1, ['100', '-200', '50', '400', '300']) }),
    );
    expect(metrics.total.maxDrawdown).toBe('300');
    // 300 / 100100 = 0.2997002997…%
    expect(metrics.total.maxDrawdownPct).toBe('0.299700');
  });

  it('takes the percentage maximum over all points, not at the absolute maximum', () => {
    // Start 1000: fall 100 from 1000 (10%), then rise to 3000 and fall 200 (6.67%).
    const metrics = computeMetrics(trace({ samples: realizedPath(1, ['-100', '2000', '1800']) }), {
      startingCapital: '1000',
    });
    expect(metrics.total.maxDrawdown).toBe('200');
    expect(metrics.total.maxDrawdownPct).toBe('10.000000');
  });

  it('counts a fall below the starting capital from the first sample on', () => {
    const metrics = computeMetrics(trace({ samples: realizedPath(1, ['-250', '-100']) }));
    expect(metrics.total.maxDrawdown).toBe('250');
    expect(metrics.total.maxDrawdownPct).toBe('0.250000');
  });

  it('includes unrealized PnL and fees in equity', () => {
    const metrics = computeMetrics(
      trace({
        samples: samples([
          [
            marketSample(1, {
              positionX18: '1',
              markPriceX18: '3000',
              avgEntryPriceX18: '3000',
              feesX18: '1.5',
            }),
          ],
          [
            marketSample(1, {
              positionX18: '1',
              markPriceX18: '2900',
              avgEntryPriceX18: '3000',
              feesX18: '1.5',
            }),
          ],
        ]),
      }),
    );
    expect(metrics.total.maxDrawdown).toBe('101.5');
  });
});

describe('computeMetrics: Sharpe and Sortino', () => {
  it('matches a hand computation, annualized with the snapshot interval', () => {
    // Daily snapshots: 365 periods per year. Equity 100000 → 101000 → 100500 → 102000.
    const metrics = computeMetrics(
      trace({ samples: realizedPath(1, ['1000', '500', '2000']), snapshotIntervalMs: DAY_MS }),
    );
    const equity = [100000, 101000, 100500, 102000];
    const returns = equity.slice(1).map((e, i) => e / (equity[i] as number) - 1);
    const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
    const sd = Math.sqrt(returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (returns.length - 1));
    const downside = Math.sqrt(
      returns.reduce((a, r) => a + Math.min(r, 0) ** 2, 0) / returns.length,
    );
    expect(metrics.periodsPerYear).toBe('365.000000');
    expect(Number(metrics.total.sharpe)).toBeCloseTo((mean / sd) * Math.sqrt(365), 5);
    expect(Number(metrics.total.sortino)).toBeCloseTo((mean / downside) * Math.sqrt(365), 5);
    expect(metrics.total.sharpe).toMatch(/^\d+\.\d{6}$/);
  });

  it('is positive for a rising equity and negative for a falling one', () => {
    const up = computeMetrics(trace({ samples: realizedPath(1, ['10', '30', '35', '80']) }));
    expect(Number(up.total.sharpe)).toBeGreaterThan(0);
    // No losing snapshot: downside deviation 0, Sortino undefined.
    expect(up.total.sortino).toBeNull();

    const down = computeMetrics(trace({ samples: realizedPath(1, ['-10', '-30', '-35', '-80']) }));
    expect(Number(down.total.sharpe)).toBeLessThan(0);
    expect(Number(down.total.sortino)).toBeLessThan(0);
  });

  it('is null without variance, with one return, or without an interval', () => {
    const flat = computeMetrics(trace({ samples: realizedPath(1, ['0', '0', '0', '0']) }));
    expect(flat.total.sharpe).toBeNull();
    expect(flat.total.sortino).toBeNull();

    const one = computeMetrics(trace({ samples: realizedPath(1, ['-5']) }));
    expect(one.total.sharpe).toBeNull();
    expect(one.total.sortino).not.toBeNull();

    const noInterval = computeMetrics(
      trace({ samples: realizedPath(1, ['10', '-30', '35']), snapshotIntervalMs: 0 }),
    );
    expect(noInterval.total.sharpe).toBeNull();
    expect(noInterval.total.sortino).toBeNull();
  });

  it('is null once equity reached zero (returns have no meaning past ruin)', () => {
    const ruined = computeMetrics(trace({ samples: realizedPath(1, ['-1000', '-900', '-950']) }), {
      startingCapital: '1000',
    });
    expect(ruined.total.sharpe).toBeNull();
    expect(ruined.total.maxDrawdownPct).toBe('100.000000');
  });
});

describe('computeMetrics: win rate (closed round trips, net of fees)', () => {
  it('counts round trips, not changes of realized PnL between samples', () => {
    // Market 1: a long closed at a gain, then one closed at a loss in two partial sells (two
    // realized moves, one trip); market 3: a short closed at a gain that the fees eat.
    const fills = [
      fill(1, 'dca', 1, 'BUY', '1', '100', '0', 1),
      fill(2, 'dca', 1, 'SELL', '1', '110', '0', 2),
      fill(3, 'dca', 1, 'BUY', '2', '100', '0', 3),
      fill(4, 'dca', 1, 'SELL', '1', '101', '0', 4),
      fill(5, 'dca', 1, 'SELL', '1', '90', '0', 5),
      fill(6, 'dca', 3, 'SELL', '1', '50', '0.5', 6),
      fill(7, 'dca', 3, 'BUY', '1', '49.5', '0.5', 7),
    ];
    const metrics = computeMetrics(trace({ samples: realizedPath(1, ['0', '0']), fills }));
    expect(metrics.total.roundTrips).toEqual({ closed: 3, wins: 1 });
    expect(metrics.total.winRate).toBe('0.333333');
    // Market 1 alone (market 3 has no sample or order here, so no row of its own).
    expect(metrics.markets.map((m) => [m.marketId, m.winRate])).toEqual([[1, '0.500000']]);
    // The one rule: the tearsheet's trade statistics read the same figure.
    expect(tradeStats(roundTrips(fills)).winRate).toBe(metrics.total.winRate);
  });

  it('is null when no round trip closed', () => {
    const fills = [fill(1, 'dca', 1, 'BUY', '1', '100', '0', 1)];
    const metrics = computeMetrics(trace({ samples: realizedPath(1, ['0', '0']), fills }));
    expect(metrics.total.roundTrips).toEqual({ closed: 0, wins: 0 });
    expect(metrics.total.winRate).toBeNull();
  });
});

describe('computeMetrics: exposure', () => {
  it('is the share of samples in a position and the mean gross notional', () => {
    const metrics = computeMetrics(
      trace({
        samples: samples([
          [marketSample(1, { markPriceX18: '3000' }), marketSample(3, { markPriceX18: '60000' })],
          [
            marketSample(1, { positionX18: '1', markPriceX18: '3000', avgEntryPriceX18: '3000' }),
            marketSample(3, { markPriceX18: '60000' }),
          ],
          [
            marketSample(1, { markPriceX18: '3000' }),
            marketSample(3, {
              positionX18: '-0.1',
              markPriceX18: '60000',
              avgEntryPriceX18: '60000',
            }),
          ],
          [marketSample(1, { markPriceX18: '3000' }), marketSample(3, { markPriceX18: '60000' })],
        ]),
      }),
    );
    expect(metrics.markets.map((m) => m.exposure)).toEqual([
      { timeInMarket: '0.250000', avgGrossNotional: '750' },
      { timeInMarket: '0.250000', avgGrossNotional: '1500' },
    ]);
    // Short positions count by their absolute notional; any market in a position counts.
    expect(metrics.total.exposure).toEqual({ timeInMarket: '0.500000', avgGrossNotional: '2250' });
  });
});

describe('computeMetrics: orders and refusals', () => {
  it('counts orders by state per market and in total, and refusals by reason, keys sorted', () => {
    const metrics = computeMetrics(
      trace({
        samples: samples([[marketSample(1, {})]]),
        orders: [
          order({ id: 1, state: 'REJECTED' }),
          order({ id: 2, state: 'FILLED' }),
          order({ id: 3, state: 'FILLED', marketId: 5, symbol: 'SOL-USD' }),
          order({ id: 4, state: 'CANCELLED' }),
        ],
        refusals: { KILL_SWITCH: 2, BELOW_MIN_AMOUNT: 3 },
      }),
    );
    expect(metrics.total.orders).toEqual({
      total: 4,
      byState: { CANCELLED: 1, FILLED: 2, REJECTED: 1 },
    });
    expect(Object.keys(metrics.total.orders.byState)).toEqual(['CANCELLED', 'FILLED', 'REJECTED']);
    // SOL-USD has orders but never a sample: listed, flat.
    expect(metrics.markets.map((m) => [m.symbol, m.orders.total, m.netPnl])).toEqual([
      ['ETH-USD', 3, '0'],
      ['SOL-USD', 1, '0'],
    ]);
    expect(metrics.refusals).toEqual({
      total: 5,
      byReason: { BELOW_MIN_AMOUNT: 3, KILL_SWITCH: 2 },
    });
    expect(Object.keys(metrics.refusals.byReason)).toEqual(['BELOW_MIN_AMOUNT', 'KILL_SWITCH']);
  });

  it('names a market without a known symbol by its id', () => {
    const metrics = computeMetrics(trace({ samples: samples([[marketSample(42, {})]]) }));
    expect(metrics.markets[0]?.symbol).toBe('market 42');
  });
});

describe('computeMetrics: per-market sums', () => {
  const signed = fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n });
  const unsigned = fc.bigInt({ min: 0n, max: 10n ** 24n });
  const marketArb = (marketId: number) =>
    fc
      .record({
        positionX18: signed,
        markPriceX18: unsigned,
        avgEntryPriceX18: unsigned,
        realizedPnlX18: signed,
        feesX18: unsigned,
        turnoverX18: unsigned,
      })
      .map((v): MarketSample => ({ marketId, ...v }));
  const sampleArb = fc.tuple(marketArb(1), marketArb(3), marketArb(5));

  it('money totals equal the sum over markets, exactly', () => {
    fc.assert(
      fc.property(fc.array(sampleArb, { minLength: 1, maxLength: 12 }), (rows) => {
        const list: Sample[] = samples(rows.map((r) => [...r]));
        const metrics = computeMetrics(trace({ samples: list }));
        for (const key of ['realizedPnl', 'unrealizedPnl', 'fees', 'netPnl', 'turnover'] as const) {
          const sum = metrics.markets.reduce((acc, m) => acc + x18(m[key]), 0n);
          expect(formatX18(sum)).toBe(metrics.total[key]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the demo trace adds up too, and computing twice gives equal results', () => {
    const t = demoTrace();
    const metrics = computeMetrics(t);
    const sum = metrics.markets.reduce((acc, m) => acc + x18(m.netPnl), 0n);
    expect(formatX18(sum)).toBe(metrics.total.netPnl);
    expect(JSON.stringify(computeMetrics(t))).toBe(JSON.stringify(metrics));
  });
});
