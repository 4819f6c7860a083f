import { describe, expect, it } from 'vitest';
import { ema, sma } from 'quanta/indicators';
import { silentLogger } from '../../../../src/log/logger.ts';
import { createSnapshot } from '../../../../src/market/snapshot.ts';
import { planIndicators } from '../../../../src/strategy/bars/bar-plan.ts';
import { defineStrategy, type Strategy } from '../../../../src/strategy/define-strategy.ts';
import { StrategyHost } from '../../../../src/strategy/strategy-host.ts';
import { testMarket } from '../../../helpers/markets.ts';

const DAY = Date.UTC(2026, 0, 5);

function host(strategy: Strategy, params: unknown, clock: { now: number }) {
  return new StrategyHost({
    strategy,
    name: strategy.name,
    params,
    symbols: ['ETH-USD'],
    now: () => clock.now,
    log: silentLogger,
    store: { get: () => undefined, set: () => undefined },
    positionOf: () => 0n,
    openOrders: () => [],
  });
}

describe('indicators in a strategy', () => {
  it('are made once from the params and updated with each closed bar before onBar sees it', async () => {
    const seen: string[] = [];
    let made = 0;
    const strategy = defineStrategy({
      name: 'ind',
      bars: { '1m': 5 },
      indicators: (p: { n: number }) => {
        made += 1;
        return { avg: sma('1m', p.n), fast: ema('1m', 2) };
      },
      onBar(bar, ctx) {
        const { avg, fast } = ctx.indicators('ETH-USD');
        seen.push(
          `${bar.close}:${avg.value ?? '-'}:${avg.previous ?? '-'}:${avg.bars}:${fast.value ?? '-'}`,
        );
      },
    });
    const clock = { now: 0 };
    const h = host(strategy, { n: 2 }, clock);
    const market = testMarket();
    const mids = [10, 12, 14, 20];
    for (const [i, mid] of [...mids, 30].entries()) {
      clock.now = DAY + i * 60_000;
      const quotes = [
        {
          marketId: 1,
          timestamp: 0,
          bids: [{ price: String(mid - 1), quantity: '1' }],
          asks: [{ price: String(mid + 1), quantity: '1' }],
        },
      ];
      await h.onSnapshot(
        createSnapshot({ seq: i + 1, takenAt: clock.now, markets: [market], quotes }),
      );
    }
    expect(made).toBe(1);
    // EMA(2) seeded with 10: 10, 11.333…, 13.111…, 17.703…
    expect(seen).toEqual([
      '10:-:-:1:-',
      '12:11:-:2:11.333333333333334',
      '14:13:11:3:13.11111111111111',
      '20:17:13:4:17.703703703703702',
    ]);
  });

  it('an indicator on an undeclared timeframe, or not an indicator, is refused at load', () => {
    expect(() =>
      planIndicators('x', () => ({ a: ema('5m', 3), b: 42 }), {}, [
        { timeframe: '1m', ms: 60_000, history: 1 },
      ]),
    ).toThrow(
      expect.objectContaining({
        code: 'QUANTA_STRATEGY_LOAD',
        details: [
          'indicators.a: ema(3) on 5m, which bars does not declare (declared: 1m)',
          'indicators.b: not an indicator of quanta/indicators (ema, rsi, …)',
        ],
      }),
    );
    expect(() => planIndicators('x', () => ({ a: ema('1m', 0) }), {}, [])).toThrow(
      'strategy x: ema(0): length must be a whole number from 1 to 100000, got 0',
    );
  });
});
