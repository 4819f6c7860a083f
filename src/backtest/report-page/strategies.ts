/** The report page's strategies section: each instance on its own, and per market. */
import { displayDecimal, displayShare } from '../display-decimal.ts';
import { escapeHtml as esc, moneyHtml as money } from '../html-kit.ts';
import type { BacktestReport } from '../report-json.ts';
import { describeWarmup } from '../warmup-text.ts';
import { amountHtml, precisionBySymbol, ratio, table } from './cells.ts';

/** Params as one short line of JSON (the full object is in report.json). */
function paramsText(params: Readonly<Record<string, unknown>>): string {
  const text = JSON.stringify(params);
  return text === '{}' ? '' : text;
}

function instancesTable(report: BacktestReport): string {
  return table(
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
}

function perMarketTable(report: BacktestReport): string {
  const precision = precisionBySymbol(report);
  return table(
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
}

/** Each strategy instance: its figures, its warm-up, and its figures per market. */
export function strategiesSection(report: BacktestReport): string {
  if (report.strategies.length === 0) return '<p class="muted">No strategy instance.</p>';
  return `<div class="scroll">${instancesTable(report)}</div>${warmupParagraph(report)}
<p class="muted">Each instance on its own: its positions, orders and refusals on the starting capital. Instances trading one market net out in the account, so these need not add up to the total.</p>
<div class="scroll">${perMarketTable(report)}</div>`;
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
