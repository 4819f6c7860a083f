/** The report page's top: its header lines, the warnings and the summary cards. */
import { displayDecimal, displayShare } from '../display-decimal.ts';
import { escapeHtml as esc, moneyHtml as money } from '../html-kit.ts';
import type { PnlMetrics } from '../metrics.ts';
import type { BacktestReport } from '../report-json.ts';
import { card, duration, nullableMoney, pct, ratio } from './cells.ts';

/** What ran, on what data, with which fill model, over which span. */
export function headerSection(report: BacktestReport): string {
  const { run } = report;
  return `<header>
<h1>Backtest report</h1>
<p class="meta">${esc(run.data)} · strategies ${esc(run.strategies.join(', ') || 'none')}</p>
<p class="meta">${esc(run.startedAt)} → ${esc(run.endedAt)} · ${esc(run.snapshots)} snapshots every ${esc(run.snapshotIntervalMs)} ms · starting capital ${money(run.startingCapital)}</p>
<p class="meta" id="fill-model">Fill model: ${esc(run.fillModel.description)}</p>
<p class="meta" id="data-kind">Data: ${esc(run.fillRule)}</p>
<p class="meta">Recording span: ${esc(report.tearsheet.span.from)} → ${esc(report.tearsheet.span.to)} (${esc(duration(report.tearsheet.span.durationMs))}, ${esc(report.tearsheet.span.snapshots)} snapshots)</p>
</header>`;
}

/** The tearsheet's warnings (none: nothing). */
export function warningsSection(report: BacktestReport): string {
  const list = report.tearsheet.warnings;
  if (list.length === 0) return '';
  return `<div class="warn" id="warnings"><strong>Read with care.</strong><ul>${list.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></div>`;
}

/** The headline figures, one card each. */
export function summaryCards(s: PnlMetrics, report: BacktestReport): string {
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
