/** The report page's order sections: counts by outcome or reason, and every order. */
import { escapeHtml as esc } from '../html-kit.ts';
import type { BacktestReport } from '../report-json.ts';
import { amountHtml, precisionBySymbol, priceHtml, table, utcText } from './cells.ts';

/** A count per key (order states, refusal reasons) as a two-column table. */
export function countsTable(
  title: string,
  counts: Readonly<Record<string, number | undefined>>,
): string {
  const rows = Object.entries(counts).map(([k, v]) => [esc(k), esc(v ?? 0)]);
  if (rows.length === 0) return `<p class="muted">${esc(title)}: none</p>`;
  return table([title, 'count'], rows, 'num narrow');
}

/** Every order the run sent, with its outcome. */
export function ordersTable(report: BacktestReport): string {
  if (report.orders.length === 0) return '<p class="muted">No orders.</p>';
  const precision = precisionBySymbol(report);
  const rows = report.orders.map((o) => [
    esc(o.id),
    esc(utcText(o.time)),
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
