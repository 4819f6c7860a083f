/** The report page's returns per UTC month and per UTC day. */
import { escapeHtml as esc, moneyHtml as money } from '../html-kit.ts';
import type { PeriodReturn } from '../period-returns.ts';
import type { BacktestReport } from '../report-json.ts';
import { pct, table } from './cells.ts';

function periodTable(title: string, rows: readonly PeriodReturn[], cls: string): string {
  return table(
    [title, 'start equity', 'end equity', 'PnL', 'return'],
    rows.map((r) => [
      esc(r.period),
      money(r.startEquity),
      money(r.endEquity),
      money(r.pnl),
      pct(r.returnPct),
    ]),
    `num narrow ${cls}`,
  );
}

/** Monthly returns, then daily ones in a scrolling box; a note when there is no snapshot. */
export function periodReturnsSection(report: BacktestReport): string {
  const { daily, monthly } = report.tearsheet.periodReturns;
  if (daily.length === 0) return '<p class="muted">No snapshot: no returns.</p>';
  return `${periodTable('month (UTC)', monthly, 'monthly')}
<div class="scroll">${periodTable('day (UTC)', daily, 'daily')}</div>
<p class="muted">Each period from the equity it began with (the previous close; the starting capital first) to its equity at its last snapshot; a day without any snapshot keeps the previous close.</p>`;
}
