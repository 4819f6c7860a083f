import { describe, expect, it } from 'vitest';
import { escapeHtml, moneyHtml, moneyText, roundedHtml } from '../../../src/backtest/html-kit.ts';
import { renderCompareHtml } from '../../../src/backtest/compare-report.ts';
import { compareRuns } from '../../../src/backtest/compare.ts';
import { renderOptimizeHtml } from '../../../src/optimize/optimize-html.ts';
import { trace } from './trace-fixtures.ts';

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
});
