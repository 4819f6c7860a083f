/**
 * The backtest report page (report.html), composed from its sections; each section's HTML is
 * built in its own module under report-page/ (a new section: a module there, one line here).
 */
import { escapeHtml as esc } from './html-kit.ts';
import { REPORT_PAGE_SCRIPT } from './report-page-script.ts';
import type { BacktestReport } from './report-json.ts';
import { inlineText, scriptJson, uplotAssets } from './report-page/assets.ts';
import { chartData, equitySection, priceChartsSection } from './report-page/charts.ts';
import { directionsTable, tagsTable } from './report-page/breakdown.ts';
import { marginSection } from './report-page/margin.ts';
import { marketsTable, positionsSection } from './report-page/markets.ts';
import { countsTable, ordersTable } from './report-page/orders.ts';
import { paramsTable } from './report-page/params.ts';
import { periodReturnsSection } from './report-page/period-returns.ts';
import { strategiesSection } from './report-page/strategies.ts';
import { PAGE_CSS } from './report-page/style.ts';
import { headerSection, summaryCards, warningsSection } from './report-page/summary.ts';
import { exitsTable, tradeStatsTable, tradesTable } from './report-page/trades.ts';

/**
 * Renders a report as one self-contained HTML page: inline CSS, the uPlot chart library and the
 * chart data inlined, no network needed to open it. It shows summary figures, the equity curve,
 * the drawdown chart, final positions with one position chart per market, per-market metrics,
 * orders by outcome, refusals and the orders table. Deterministic: the same report gives the
 * same bytes (no time of "now", no random ids). User text (strategy tags, venue errors) is
 * escaped.
 *
 * @param report - from `buildReport`.
 * @throws QuantaError `QUANTA_REPORT_WRITE_FAILED` when the uplot package cannot be read.
 */
export function renderReportHtml(report: BacktestReport): string {
  const assets = uplotAssets();
  const { run, summary } = report;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Backtest report: ${esc(run.data)}</title>
<style>${inlineText(assets.css, 'style')}</style>
<style>${PAGE_CSS}</style>
</head>
<body>
<main>
${headerSection(report)}
${warningsSection(report)}
<section class="cards">
${summaryCards(summary, report)}
</section>
<h2>Equity</h2>
${equitySection(report)}
<h2>Drawdown</h2>
<div class="chart" id="chart-drawdown"></div>
${marginSection(report)}<h2>Prices</h2>
<p class="muted">Candles of the mid with every fill marked (green arrows buys, red arrows sells, purple the protective exits, named); below, the mid with the bid/ask band, green dots buys and red dots sells at their fill prices, and the strategy plots (ctx.plot) on the market they name.</p>
${priceChartsSection(report)}
<h2>Returns per snapshot</h2>
<div class="chart" id="chart-returns"></div>
<p class="muted">Histogram of equity returns between snapshots, in basis points; ${esc(report.tearsheet.returnsHistogram.zero)} snapshots without a change are left out.</p>
<h2>Trade statistics</h2>
<div class="scroll">${tradeStatsTable(report)}</div>
${directionsTable(report)}
${exitsTable(report)}
${tagsTable(report)}
<h2>Returns per day and month</h2>
${periodReturnsSection(report)}
<h2>Positions</h2>
${positionsSection(report)}
<h2>Markets</h2>
<div class="scroll">${marketsTable(report)}</div>
<h2>Strategies</h2>
${strategiesSection(report)}
<h2>Trades</h2>
<div class="scroll">${tradesTable(report)}</div>
<h2>Orders by outcome</h2>
${countsTable('state', summary.orders.byState)}
<h2>Refusals</h2>
${countsTable('reason', report.refusals.byReason)}
<h2>Orders</h2>
<div class="scroll">${ordersTable(report)}</div>
<h2>Config</h2>
${paramsTable(report)}
<pre class="config">${esc(JSON.stringify(run.config, null, 2))}</pre>
<footer>quanta backtest report, format ${esc(report.format)} v${esc(report.version)}. Charts: uPlot (MIT), TradingView Lightweight Charts (Apache-2.0).</footer>
</main>
<script type="application/json" id="report-data">${scriptJson(chartData(report))}</script>
<script>${inlineText(assets.js, 'script')}</script>
<script>${inlineText(assets.candlesJs, 'script')}</script>
<script>${REPORT_PAGE_SCRIPT}</script>
</body>
</html>
`;
}
