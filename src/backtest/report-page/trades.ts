/** The report page's trade sections: statistics per strategy, exits, and the round trips. */
import { displayShare } from '../display-decimal.ts';
import { escapeHtml as esc, moneyHtml as money } from '../html-kit.ts';
import type { BacktestReport } from '../report-json.ts';
import {
  amountHtml,
  groupFiguresTable,
  duration,
  nullableMoney,
  pct,
  precisionBySymbol,
  priceHtml,
  ratio,
  table,
  utcText,
} from './cells.ts';

/** Round-trip statistics per strategy and in total. */
export function tradeStatsTable(report: BacktestReport): string {
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
    esc(f.trades.maxWinStreak),
    esc(f.trades.maxLossStreak),
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
      'win streak',
      'loss streak',
      'CAGR',
      'Calmar',
      'exposure',
    ],
    rows,
    'num',
  );
}

/** The closed round trips by what closed them: a protective exit or the strategy. */
export function exitsTable(report: BacktestReport): string {
  const exits = report.tearsheet.exits;
  if (exits.length === 0) return '';
  return groupFiguresTable(
    'closed by',
    exits.map((e) => ({ label: esc(e.exit), figures: e })),
    'num narrow exits',
  );
}

/** Every round trip, open ones included. */
export function tradesTable(report: BacktestReport): string {
  const trades = report.tearsheet.trades;
  if (trades.length === 0) return '<p class="muted">No round trip.</p>';
  const time = (iso: string | null): string => (iso === null ? 'open' : utcText(iso));
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
