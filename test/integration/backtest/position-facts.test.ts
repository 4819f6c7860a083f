// ctx.entryPrice, ctx.unrealizedPnl and ctx.equity (issue 27) against what the fills and the
// quotes say: the entry is the fill price, the unrealized PnL is position × (mid − entry) at the
// snapshot's mark, and the equity is the capital, less fees, plus that PnL. ctx.freeMargin and
// ctx.liquidationPrice (issue 29) against the margin rule worked out here (docs/margin.md).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { ceilDiv, floorDiv } from '../../../src/domain/account/index.ts';
import {
  formatX18,
  parseDecimalToX18 as x18,
  parseSignedDecimalToX18,
  X18_SCALE,
} from '../../../src/money/index.ts';
import { longLiquidationX18 } from '../../helpers/long-liquidation.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

const config = (capital: string) =>
  parseConfig(
    `
venue: { writeUrl: embedded, readUrl: embedded }
risk: { maxOrderNotional: '5000', maxPositionNotional: '20000'${capital} }
strategies:
  - module: test/fixtures/strategies/position-facts.ts
    markets: [ETH-USD]
`,
    'facts.yaml',
    ROOT,
  );

describe('position facts in ctx', () => {
  it('entry price, unrealized PnL at the mark and equity match the fills and quotes', async () => {
    const trace = await runBacktest({
      config: config(", capital: '12000'"),
      data: join(ROOT, 'test/fixtures/recording'),
      projectRoot: ROOT,
    });
    const [fill, ...more] = trace.fills;
    expect(fill).toBeDefined();
    expect(more).toEqual([]);
    if (fill === undefined) return;
    // Sized by notional 500 at the ask, rounded down to the quantum.
    expect(fill.amountX18 * fill.priceX18 <= 500n * X18_SCALE * X18_SCALE).toBe(true);
    const plotted = (name: string) => trace.plots.filter((p) => p.name === name);
    const capital = 12_000n * X18_SCALE;
    // Before the fill the equity is the capital.
    expect(plotted('equity')[0]?.value).toBe('12000');
    expect(plotted('entry').length).toBeGreaterThan(10);
    for (const point of plotted('entry')) expect(point.value).toBe(formatX18(fill.priceX18));
    const tops = new Map(trace.samples.flatMap((s) => s.tops.map((top) => [s.t, top] as const)));
    let compared = 0;
    for (const point of plotted('upnl')) {
      // Flat before the fill (no entry price then): "0".
      if (!plotted('entry').some((entry) => entry.t === point.t)) {
        expect(point.t).toBeLessThanOrEqual(fill.t);
        expect(point.value).toBe('0');
        continue;
      }
      const top = tops.get(point.t);
      if (top?.bidX18 == null || top.askX18 == null) continue;
      const mid = (top.bidX18 + top.askX18) / 2n;
      const pnl = (fill.amountX18 * (mid - fill.priceX18)) / X18_SCALE;
      expect(parseSignedDecimalToX18(point.value, 'upnl')).toBe(pnl);
      const equity = plotted('equity').find((p) => p.t === point.t);
      expect(equity && parseSignedDecimalToX18(equity.value, 'equity')).toBe(
        capital - fill.feeX18 + pnl,
      );
      compared += 1;
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('free margin and the liquidation price are the account model on the fills and marks', async () => {
    // 100 USDC and a long of ~500 USD of ETH-USD (IMF 5 %, MMF 2 % in the recording's listing):
    // about 5x, liquidated some 18 % below the entry.
    const trace = await runBacktest({
      config: config(", capital: '100'"),
      data: join(ROOT, 'test/fixtures/recording'),
      projectRoot: ROOT,
    });
    const [fill, ...more] = trace.fills;
    expect(more).toEqual([]);
    if (fill === undefined) throw new Error('no fill');
    const plotted = (name: string) => trace.plots.filter((p) => p.name === name);
    const cash = 100n * X18_SCALE - fill.feeX18;
    const liquidation = longLiquidationX18(cash, fill.amountX18, fill.priceX18, x18('0.02'));
    expect(liquidation).toBeDefined();
    // About 0.82 of the entry: (500 − 100) / (500 · 0.98).
    expect(Number(liquidation) / Number(fill.priceX18)).toBeCloseTo(0.8166, 2);
    expect(plotted('liquidation').length).toBeGreaterThan(10);
    for (const point of plotted('liquidation'))
      expect(point.value).toBe(formatX18(liquidation ?? 0n));
    // Flat: the whole capital is free.
    expect(plotted('free')[0]?.value).toBe('100');
    const tops = new Map(trace.samples.flatMap((s) => s.tops.map((top) => [s.t, top] as const)));
    let compared = 0;
    for (const point of plotted('free')) {
      if (point.t <= fill.t) continue;
      const top = tops.get(point.t);
      if (top?.bidX18 == null || top.askX18 == null) continue;
      const mark = (top.bidX18 + top.askX18) / 2n;
      const pnl = floorDiv(fill.amountX18 * (mark - fill.priceX18), X18_SCALE);
      const initial = ceilDiv(fill.amountX18 * mark * x18('0.05'), X18_SCALE ** 2n);
      expect(parseSignedDecimalToX18(point.value, 'free')).toBe(cash + pnl - initial);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('a backtest without risk.capital starts the equity at its starting capital', async () => {
    const trace = await runBacktest({
      config: config(''),
      data: join(ROOT, 'test/fixtures/recording'),
      projectRoot: ROOT,
    });
    expect(trace.plots.find((p) => p.name === 'equity')?.value).toBe(
      trace.fillModel.startingCapital,
    );
  });
});
