import { describe, expect, it } from 'vitest';
import { escapeHtml, moneyHtml, moneyText, roundedHtml } from '../../../src/backtest/html-kit.ts';
import { renderCompareHtml } from '../../../src/backtest/compare-report.ts';
import { compareRuns } from '../../../src/backtest/compare.ts';
import { renderOptimizeHtml } from '../../../src/optimize/optimize-html.ts';
import { order, samples, trace, x18 } from './trace-fixtures.ts';

describe('the report pages’ HTML kit', () => {
  it('escapes the five characters HTML gives meaning to, quotes of both kinds included', () => {
    expect(escapeHtml(`<b title='x' id="y">&`)).toBe(
      '&lt;b title=&#39;x&#39; id=&quot;y&quot;&gt;&amp;',
    );
    expect(escapeHtml(42)).toBe('42');
  });

  it('shows money to the cent, half-even, never -0.00, the exact value in the tooltip', () => {
    expect(moneyText('-0.729670039893902082')).toBe('-0.73');
    expect(moneyText('1.005')).toBe('1.00');
    expect(moneyText('1.015')).toBe('1.02');
    expect(moneyText('-0.001')).toBe('0.00');
    expect(moneyText('12')).toBe('12.00');
    expect(moneyHtml('-1.953125')).toBe('<span title="-1.953125" class="neg">-1.95</span>');
    expect(roundedHtml('3012.345678901', 6)).toBe(
      '<span title="3012.345678901">3012.345679</span>',
    );
  });

  it('is what every report page escapes with (optimize.html escaped no single quote)', () => {
    const page = renderOptimizeHtml({
      format: 'quanta-optimize',
      version: 1,
      config: 'c.yaml',
      data: "it's-data",
      space: 's.yaml',
      strategy: "o'brien",
      objective: 'pnl',
      constraints: {},
      window: { from: 'a', to: 'b' },
      sets: 0,
      skipped: [],
      failed: [],
      ranking: [],
      walkForward: null,
      holdout: null,
    });
    expect(page).toContain('o&#39;brien');
    expect(page).not.toContain("o'brien");
    const compare = renderCompareHtml(compareRuns([], trace({ data: "x'y" }), 0n, "j'.sqlite"));
    expect(compare).not.toMatch(/x'y|j'\.sqlite/);
  });

  it('compare.html shows fill prices to the market tick and the mean slippage to 2 places', () => {
    const T = 1_700_000_000_000;
    const make = (live: boolean) =>
      order({
        id: 1,
        amountX18: x18('0.5'),
        createdAt: T + 1000 + (live ? 30 : 0),
        updatedAt: T + 1000 + (live ? 52 : 1000),
        filledX18: x18('0.5'),
        avgFillPriceX18: x18(live ? '3012.345678901234567891' : '3012.3'),
        feesX18: x18('0.001234567890123456'),
      });
    const t = trace({
      samples: samples(Array.from({ length: 4 }, () => [])),
      orders: [make(false)],
      finalMarks: new Map([[1, x18('3013')]]),
    });
    const report = compareRuns([make(true)], t, 0n, 'journal.sqlite');
    expect(report.priceDecimals).toEqual({ 'ETH-USD': 2 });
    const page = renderCompareHtml(report);
    // It showed 6 fraction digits whatever the market, and the mean slippage unrounded.
    expect(page).toContain('<span title="3012.345678901234567891">3012.35</span>');
    expect(page).toContain(`Mean |slippage| <span title="${report.totals.meanAbsSlippageBps}">`);
  });
});
