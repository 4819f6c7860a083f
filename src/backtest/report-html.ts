import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { displayDecimal, displayShare } from './display-decimal.ts';
import { escapeHtml as esc, moneyHtml as money, roundedHtml } from './html-kit.ts';
import type { PnlMetrics } from './metrics.ts';
import { REPORT_PAGE_SCRIPT } from './report-page-script.ts';
import { describeWarmup } from './warmup-text.ts';
import type { BacktestReport, ReportMarketPrecision } from './report-json.ts';

/** The chart libraries inlined into the page: uPlot, and Lightweight Charts for candles. */
interface UplotAssets {
  readonly js: string;
  readonly css: string;
  readonly candlesJs: string;
}

let cachedAssets: UplotAssets | undefined;

function uplotAssets(): UplotAssets {
  if (cachedAssets !== undefined) return cachedAssets;
  const require = createRequire(import.meta.url);
  const read = (name: string, file: string): string => {
    try {
      // Resolved from the package's package.json: lightweight-charts exports no dist/ paths.
      const dir = dirname(require.resolve(`${name}/package.json`));
      return readFileSync(join(dir, 'dist', file), 'utf8');
    } catch (error) {
      throw new QuantaError(
        ErrorCodes.REPORT_WRITE_FAILED,
        `backtest report: cannot read the chart library ${name}/dist/${file}`,
        { cause: error, details: [`Run \`npm ci\` so the ${name} package is installed.`] },
      );
    }
  };
  cachedAssets = {
    js: read('uplot', 'uPlot.iife.min.js'),
    css: read('uplot', 'uPlot.min.css'),
    // The standalone production build defines the global LightweightCharts, no module loader.
    candlesJs: read('lightweight-charts', 'lightweight-charts.standalone.production.js'),
  };
  return cachedAssets;
}

/** JSON that is safe inside a `<script>` element whatever strings it carries. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Inlined code must not close its element early. */
function inlineText(text: string, element: 'script' | 'style'): string {
  return text.replace(new RegExp(`</${element}`, 'gi'), `<\\/${element}`);
}

/** The report's markets by symbol, for prices to the tick and amounts to the quantum. */
type PrecisionBySymbol = ReadonlyMap<string, ReportMarketPrecision>;

function precisionBySymbol(report: BacktestReport): PrecisionBySymbol {
  return new Map(report.run.markets.map((m) => [m.symbol, m]));
}

/** A price to its market's tick, exact in the tooltip (exact when the precision is unknown). */
function priceHtml(value: string | null, market: ReportMarketPrecision | undefined): string {
  if (value === null) return '';
  return market === undefined ? esc(value) : roundedHtml(value, market.priceExpo);
}

/** An amount to its market's quantum, exact in the tooltip (exact when unknown). */
function amountHtml(value: string, market: ReportMarketPrecision | undefined): string {
  return market === undefined ? esc(value) : roundedHtml(value, market.amountExpo);
}

function ratio(value: string | null, places = 2): string {
  return value === null ? 'n/a' : displayDecimal(value, places);
}

function table(headers: readonly string[], rows: readonly (readonly string[])[], cls = ''): string {
  const head = headers.map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table${cls === '' ? '' : ` class="${cls}"`}><thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table>`;
}

function card(label: string, value: string): string {
  return `<div class="card"><div class="label">${esc(label)}</div><div class="value">${value}</div></div>`;
}

function summaryCards(s: PnlMetrics, report: BacktestReport): string {
  return [
    card('net PnL', money(s.netPnl)),
    card('return', `${esc(displayDecimal(s.returnPct, 2))}%`),
    card('final equity', money(s.finalEquity)),
    card(
      'max drawdown',
      `${money(s.maxDrawdown)} <small>(${esc(displayDecimal(s.maxDrawdownPct, 2))}%)</small>`,
    ),
    card('Sharpe', esc(ratio(s.sharpe))),
    card('Sortino', esc(ratio(s.sortino))),
    card(
      'win rate (round trips)',
      `${esc(displayShare(s.winRate))} <small>(${s.roundTrips.wins}/${s.roundTrips.closed})</small>`,
    ),
    card('time in market', esc(displayShare(s.exposure.timeInMarket))),
    card('realized', money(s.realizedPnl)),
    card('unrealized', money(s.unrealizedPnl)),
    card('fees', money(s.fees)),
    card('turnover', money(s.turnover)),
    card('orders', esc(s.orders.total)),
    card('refusals', esc(report.refusals.total)),
    card('CAGR', pct(report.tearsheet.total.cagrPct)),
    card('Calmar', esc(ratio(report.tearsheet.total.calmar))),
    card('trades', esc(report.tearsheet.total.trades.closed)),
    card('profit factor', esc(ratio(report.tearsheet.total.trades.profitFactor))),
    card('expectancy', nullableMoney(report.tearsheet.total.trades.expectancy)),
    card('buy and hold', pct(report.tearsheet.total.benchmarkReturnPct)),
  ].join('\n');
}

function pct(value: string | null): string {
  return value === null ? 'n/a' : `${esc(displayDecimal(value, 2))}%`;
}

function nullableMoney(value: string | null): string {
  return value === null ? 'n/a' : money(value);
}

/** A duration in ms as the largest two units (`2d 3h`, `4m 10s`, `850ms`). */
function duration(ms: number | null): string {
  if (ms === null) return '';
  if (ms < 1000) return `${ms}ms`;
  const units: [string, number][] = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ];
  const parts: string[] = [];
  let left = ms;
  for (const [name, size] of units) {
    const n = Math.floor(left / size);
    if (n > 0 || parts.length > 0) parts.push(`${n}${name}`);
    left -= n * size;
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

function warningsSection(report: BacktestReport): string {
  const list = report.tearsheet.warnings;
  if (list.length === 0) return '';
  return `<div class="warn" id="warnings"><strong>Read with care.</strong><ul>${list.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></div>`;
}

function tradeStatsTable(report: BacktestReport): string {
  const { tearsheet } = report;
  const row = (
    name: string,
    f: (typeof tearsheet.strategies)[number] | typeof tearsheet.total,
  ): string[] => [
    esc(name),
    esc(f.trades.closed),
    esc(f.trades.open),
    esc(displayShare(f.trades.winRate)),
    esc(ratio(f.trades.profitFactor)),
    nullableMoney(f.trades.expectancy),
    nullableMoney(f.trades.avgWin),
    nullableMoney(f.trades.avgLoss),
    esc(duration(f.trades.avgDurationMs)),
    pct(f.cagrPct),
    esc(ratio(f.calmar)),
    esc(displayShare(f.exposure)),
  ];
  const rows = tearsheet.strategies.map((s) => row(s.strategy, s));
  rows.push(row('total', tearsheet.total).map((c, i) => (i === 0 ? '<strong>total</strong>' : c)));
  return table(
    [
      'strategy',
      'trades',
      'open',
      'win rate',
      'profit factor',
      'expectancy',
      'avg win',
      'avg loss',
      'avg duration',
      'CAGR',
      'Calmar',
      'exposure',
    ],
    rows,
    'num',
  );
}

/** The closed round trips by what closed them: a protective exit or the strategy. */
function exitsTable(report: BacktestReport): string {
  const exits = report.tearsheet.exits;
  if (exits.length === 0) return '';
  return table(
    ['closed by', 'trades', 'wins', 'win rate', 'net'],
    exits.map((e) => [
      esc(e.exit),
      esc(e.closed),
      esc(e.wins),
      esc(displayShare(e.winRate)),
      money(e.netPnl),
    ]),
    'num narrow exits',
  );
}

function tradesTable(report: BacktestReport): string {
  const trades = report.tearsheet.trades;
  if (trades.length === 0) return '<p class="muted">No round trip.</p>';
  const time = (iso: string | null): string =>
    iso === null ? 'open' : iso.replace('T', ' ').replace('Z', '');
  const precision = precisionBySymbol(report);
  return table(
    [
      'strategy',
      'market',
      'side',
      'entry (UTC)',
      'exit (UTC)',
      'held',
      'amount',
      'entry price',
      'exit price',
      'exit',
      'PnL',
      'fees',
      'net',
    ],
    trades.map((t) => [
      esc(t.strategy),
      esc(t.symbol),
      esc(t.direction),
      esc(time(t.entryTime)),
      esc(time(t.exitTime)),
      esc(duration(t.durationMs)),
      amountHtml(t.amount, precision.get(t.symbol)),
      priceHtml(t.entryPrice, precision.get(t.symbol)),
      priceHtml(t.exitPrice, precision.get(t.symbol)),
      esc(t.exit ?? ''),
      money(t.pnl),
      money(t.fees),
      money(t.netPnl),
    ]),
    'num trades',
  );
}

function priceChartsSection(report: BacktestReport): string {
  const charts = report.tearsheet.priceCharts;
  if (charts.length === 0) return '<p class="muted">No quotes to draw.</p>';
  return charts
    .map(
      (c) =>
        `<figure><figcaption>${esc(c.symbol)} <small>candles of the mid, ${esc(c.candles.timeframe)}</small></figcaption><div class="chart candles" data-candle-chart="${esc(c.marketId)}"></div><div class="chart" data-price-chart="${esc(c.marketId)}"></div></figure>`,
    )
    .join('\n');
}

function marketsTable(report: BacktestReport): string {
  const row = (name: string, m: PnlMetrics): string[] => [
    esc(name),
    money(m.realizedPnl),
    money(m.unrealizedPnl),
    money(m.fees),
    money(m.netPnl),
    money(m.turnover),
    `${money(m.maxDrawdown)} (${esc(displayDecimal(m.maxDrawdownPct, 2))}%)`,
    esc(ratio(m.sharpe)),
    esc(ratio(m.sortino)),
    esc(displayShare(m.winRate)),
    esc(displayShare(m.exposure.timeInMarket)),
    money(m.exposure.avgGrossNotional),
    esc(m.orders.total),
  ];
  const rows = report.markets.map((m) => row(m.symbol, m));
  rows.push(row('total', report.summary).map((c, i) => (i === 0 ? '<strong>total</strong>' : c)));
  return table(
    [
      'market',
      'realized',
      'unrealized',
      'fees',
      'net',
      'turnover',
      'max drawdown',
      'Sharpe',
      'Sortino',
      'win rate',
      'in market',
      'avg gross notional',
      'orders',
    ],
    rows,
    'num',
  );
}

/** Params as one short line of JSON (the full object is in report.json). */
function paramsText(params: Readonly<Record<string, unknown>>): string {
  const text = JSON.stringify(params);
  return text === '{}' ? '' : text;
}

function strategiesSection(report: BacktestReport): string {
  if (report.strategies.length === 0) return '<p class="muted">No strategy instance.</p>';
  const precision = precisionBySymbol(report);
  const instances = table(
    [
      'strategy',
      'module',
      'params',
      'net',
      'return',
      'fees',
      'max drawdown',
      'Sharpe',
      'win rate',
      'in market',
      'orders',
      'refused',
    ],
    report.strategies.map((s) => [
      `<strong>${esc(s.strategy)}</strong>`,
      esc(s.module),
      `<code class="params">${esc(paramsText(s.params))}</code>`,
      money(s.netPnl),
      `${esc(displayDecimal(s.returnPct, 2))}%`,
      money(s.fees),
      `${esc(displayDecimal(s.maxDrawdownPct, 2))}%`,
      esc(ratio(s.sharpe)),
      esc(displayShare(s.winRate)),
      esc(displayShare(s.exposure.timeInMarket)),
      esc(s.orders.total),
      esc(s.refusals.total),
    ]),
    'num strategies',
  );
  const perMarket = table(
    [
      'strategy',
      'market',
      'realized',
      'unrealized',
      'fees',
      'net',
      'turnover',
      'position',
      'orders',
    ],
    report.strategies.flatMap((s) =>
      s.markets.map((m) => [
        esc(s.strategy),
        esc(m.symbol),
        money(m.realizedPnl),
        money(m.unrealizedPnl),
        money(m.fees),
        money(m.netPnl),
        money(m.turnover),
        amountHtml(m.finalPosition, precision.get(m.symbol)),
        esc(m.orders.total),
      ]),
    ),
    'num',
  );
  return `<div class="scroll">${instances}</div>${warmupParagraph(report)}
<p class="muted">Each instance on its own: its positions, orders and refusals on the starting capital. Instances trading one market net out in the account, so these need not add up to the total.</p>
<div class="scroll">${perMarket}</div>`;
}

/** The warm-up of each instance that declares one, in a sentence each (none: nothing). */
function warmupParagraph(report: BacktestReport): string {
  const startedAt = Date.parse(report.run.startedAt);
  const lines = (report.run.warmups ?? []).map((w) =>
    esc(
      describeWarmup(
        w.strategy,
        'endedAt' in w ? { endedAt: Date.parse(w.endedAt) } : w,
        startedAt,
      ),
    ),
  );
  return lines.length === 0
    ? ''
    : `\n<p class="warmup" data-warmup>Warm-up: ${lines.join('<br>')}</p>`;
}

function countsTable(title: string, counts: Readonly<Record<string, number | undefined>>): string {
  const rows = Object.entries(counts).map(([k, v]) => [esc(k), esc(v ?? 0)]);
  if (rows.length === 0) return `<p class="muted">${esc(title)}: none</p>`;
  return table([title, 'count'], rows, 'num narrow');
}

function positionsSection(report: BacktestReport): string {
  if (report.finalPositions.length === 0) return '<p class="muted">No market was traded.</p>';
  const precision = precisionBySymbol(report);
  const rows = report.finalPositions.map((p) => [
    esc(p.symbol),
    amountHtml(p.position, precision.get(p.symbol)),
    priceHtml(p.avgEntryPrice, precision.get(p.symbol)),
    priceHtml(p.markPrice, precision.get(p.symbol)),
    money(p.unrealizedPnl),
  ]);
  const charts = report.series.positions
    .map(
      (p) =>
        `<figure><figcaption>${esc(p.symbol)}</figcaption><div class="chart small" data-position-chart="${esc(p.marketId)}"></div></figure>`,
    )
    .join('\n');
  return `${table(['market', 'final position', 'avg entry', 'last mark', 'unrealized'], rows, 'num')}\n${charts}`;
}

function ordersTable(report: BacktestReport): string {
  if (report.orders.length === 0) return '<p class="muted">No orders.</p>';
  const precision = precisionBySymbol(report);
  const rows = report.orders.map((o) => [
    esc(o.id),
    esc(o.time.replace('T', ' ').replace('Z', '')),
    esc(o.strategy) + (o.tag === null ? '' : ` <small>${esc(o.tag)}</small>`),
    esc(o.symbol),
    esc(o.side),
    esc(o.type),
    amountHtml(o.amount, precision.get(o.symbol)),
    priceHtml(o.price, precision.get(o.symbol)),
    `<span class="state state-${esc(o.state.toLowerCase())}">${esc(o.state)}</span>`,
    amountHtml(o.filled, precision.get(o.symbol)),
    priceHtml(o.avgFillPrice, precision.get(o.symbol)) +
      (o.estimated ? ' <small title="valued at the quote seen when sent">est.</small>' : ''),
    esc(o.error ?? ''),
  ]);
  return table(
    [
      'id',
      'time (UTC)',
      'strategy',
      'market',
      'side',
      'type',
      'amount',
      'price',
      'state',
      'filled',
      'avg fill',
      'error',
    ],
    rows,
    'orders',
  );
}

const PAGE_CSS = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2937;background:#f8fafc}
main{max-width:1200px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:17px;margin:28px 0 10px}
.muted,small{color:#6b7280}
.meta{color:#4b5563;margin:0}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin-top:16px}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:10px 12px}
.card .label{font-size:12px;color:#6b7280;text-transform:uppercase;letter-spacing:.04em}
.card .value{font-size:18px;font-variant-numeric:tabular-nums}
.neg{color:#b91c1c}
.chart{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:8px;min-height:120px;width:100%}
figure{margin:12px 0}
figcaption{font-weight:600;margin-bottom:4px}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #e5e7eb;font-variant-numeric:tabular-nums}
th,td{padding:4px 6px;border-bottom:1px solid #f1f5f9;text-align:left;white-space:nowrap;font-size:13px}
th{white-space:normal}
th{background:#f1f5f9;font-weight:600;position:sticky;top:0}
table.num td:not(:first-child){text-align:right}
table.narrow{width:auto;min-width:320px}
table.orders td,table.trades td{font-size:13px}
.warn{background:#fffbeb;border:1px solid #fcd34d;border-radius:8px;padding:8px 12px;margin-top:14px}
.warn ul{margin:4px 0 0;padding-left:20px}
pre.config{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:10px;font-size:12px;white-space:pre-wrap;word-break:break-all}
table.strategies td:nth-child(2),table.strategies td:nth-child(3){text-align:left}
code.params{font-size:12px;white-space:normal;word-break:break-all;display:inline-block;max-width:320px}
table.orders td:last-child{white-space:normal;color:#b91c1c}
.scroll{overflow:auto;max-height:600px;border-radius:8px}
.state{padding:1px 6px;border-radius:4px;background:#e5e7eb}
.state-filled{background:#dcfce7}
.state-rejected,.state-unknown{background:#fee2e2}
.state-cancelled{background:#fef9c3}
footer{margin:32px 0 8px;color:#9ca3af;font-size:12px}
`;

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
  const chartData = {
    series: report.series,
    priceCharts: report.tearsheet.priceCharts,
    histogram: report.tearsheet.returnsHistogram,
    markets: report.run.markets,
  };
  const downsampled =
    report.series.t.length < report.series.sampleCount
      ? ` (drawn from ${report.series.t.length} of ${report.series.sampleCount} samples, keeping each stretch's highs, lows and deepest drawdown)`
      : '';
  const noSamples =
    report.series.t.length === 0 ? '<p class="muted">No samples: nothing to draw.</p>' : '';
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
<header>
<h1>Backtest report</h1>
<p class="meta">${esc(run.data)} · strategies ${esc(run.strategies.join(', ') || 'none')}</p>
<p class="meta">${esc(run.startedAt)} → ${esc(run.endedAt)} · ${esc(run.snapshots)} snapshots every ${esc(run.snapshotIntervalMs)} ms · starting capital ${money(run.startingCapital)}</p>
<p class="meta" id="fill-model">Fill model: ${esc(run.fillModel.description)}</p>
<p class="meta" id="data-kind">Data: ${esc(run.fillRule)}</p>
<p class="meta">Recording span: ${esc(report.tearsheet.span.from)} → ${esc(report.tearsheet.span.to)} (${esc(duration(report.tearsheet.span.durationMs))}, ${esc(report.tearsheet.span.snapshots)} snapshots)</p>
</header>
${warningsSection(report)}
<section class="cards">
${summaryCards(summary, report)}
</section>
<h2>Equity</h2>
${noSamples}<div class="chart" id="chart-equity"></div>
<p class="muted">Equity = starting capital + realized PnL − fees + unrealized PnL${esc(downsampled)}.</p>
<h2>Drawdown</h2>
<div class="chart" id="chart-drawdown"></div>
<h2>Prices</h2>
<p class="muted">Candles of the mid with every fill marked (green arrows buys, red arrows sells, purple the protective exits, named); below, the mid with the bid/ask band, green dots buys and red dots sells at their fill prices, and the strategy plots (ctx.plot) on the market they name.</p>
${priceChartsSection(report)}
<h2>Returns per snapshot</h2>
<div class="chart" id="chart-returns"></div>
<p class="muted">Histogram of equity returns between snapshots, in basis points; ${esc(report.tearsheet.returnsHistogram.zero)} snapshots without a change are left out.</p>
<h2>Trade statistics</h2>
<div class="scroll">${tradeStatsTable(report)}</div>
${exitsTable(report)}
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
<pre class="config">${esc(JSON.stringify(run.config, null, 2))}</pre>
<footer>quanta backtest report, format ${esc(report.format)} v${esc(report.version)}. Charts: uPlot (MIT), TradingView Lightweight Charts (Apache-2.0).</footer>
</main>
<script type="application/json" id="report-data">${scriptJson(chartData)}</script>
<script>${inlineText(assets.js, 'script')}</script>
<script>${inlineText(assets.candlesJs, 'script')}</script>
<script>${REPORT_PAGE_SCRIPT}</script>
</body>
</html>
`;
}
