/** The report page's chart sections: where the page script draws (it reads `report-data`). */
import { escapeHtml as esc } from '../html-kit.ts';
import type { BacktestReport } from '../report-json.ts';
import type { PriceChart } from '../price-charts.ts';

/** One candle chart and one mid/band chart per market with quotes. */
export function priceChartsSection(report: BacktestReport): string {
  const charts = report.tearsheet.priceCharts;
  if (charts.length === 0) return '<p class="muted">No quotes to draw.</p>';
  return charts
    .map(
      (c) =>
        `<figure><figcaption>${esc(c.symbol)} <small>${candleCaption(c)}</small></figcaption><div class="chart candles" data-candle-chart="${esc(c.marketId)}"></div><div class="chart" data-price-chart="${esc(c.marketId)}"></div></figure>`,
    )
    .join('\n');
}

/** The data the page script draws from, as one object inlined in the page. */
export function chartData(report: BacktestReport): unknown {
  return {
    series: report.series,
    priceCharts: report.tearsheet.priceCharts,
    histogram: report.tearsheet.returnsHistogram,
    markets: report.run.markets,
  };
}

/** The equity chart, and how equity is counted (and when the curve is drawn from fewer samples). */
export function equitySection(report: BacktestReport): string {
  const downsampled =
    report.series.t.length < report.series.sampleCount
      ? ` (drawn from ${report.series.t.length} of ${report.series.sampleCount} samples, keeping each stretch's highs, lows and deepest drawdown)`
      : '';
  const noSamples =
    report.series.t.length === 0 ? '<p class="muted">No samples: nothing to draw.</p>' : '';
  return `${noSamples}<div class="chart" id="chart-equity"></div>
<p class="muted">Equity = starting capital + realized PnL − fees + unrealized PnL${esc(downsampled)}.</p>`;
}

/** What the candles are: the strategy's own bars (and how many went into each candle), or the mid's. */
function candleCaption(c: PriceChart): string {
  const b = c.bars;
  if (b === undefined) return `candles of the mid, ${esc(c.candles.timeframe)}`;
  const merged =
    b.timeframe === b.barTimeframe
      ? ''
      : `, drawn as ${esc(b.timeframe)} candles (too many ${esc(b.barTimeframe)} bars to draw one each)`;
  return `${esc(b.strategy)}'s ${esc(b.barTimeframe)} bars${merged}, with its indicators`;
}
