/** The report page's per-market sections: final positions (with their charts) and metrics. */
import { displayDecimal, displayShare } from '../display-decimal.ts';
import { escapeHtml as esc, moneyHtml as money } from '../html-kit.ts';
import type { PnlMetrics } from '../metrics.ts';
import type { BacktestReport } from '../report-json.ts';
import { amountHtml, precisionBySymbol, priceHtml, ratio, table } from './cells.ts';

/** The final position of each traded market, and one position chart per market. */
export function positionsSection(report: BacktestReport): string {
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

/** The metrics of each market and of the whole account. */
export function marketsTable(report: BacktestReport): string {
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
