/** The report page's trade breakdowns: long and short apart, and by the tag that entered. */
import { displayShare } from '../display-decimal.ts';
import { escapeHtml as esc } from '../html-kit.ts';
import type { BacktestReport } from '../report-json.ts';
import type { TradeStats } from '../round-trips.ts';
import { groupFiguresTable, nullableMoney, ratio, table } from './cells.ts';

/** The long and the short round trips apart, with their streaks. */
export function directionsTable(report: BacktestReport): string {
  const { long, short } = report.tearsheet.directions;
  if (long.closed + long.open + short.closed + short.open === 0) return '';
  const row = (side: string, s: TradeStats): string[] => [
    esc(side),
    esc(s.closed),
    esc(s.open),
    esc(displayShare(s.winRate)),
    esc(ratio(s.profitFactor)),
    nullableMoney(s.expectancy),
    nullableMoney(s.avgWin),
    nullableMoney(s.avgLoss),
    esc(s.maxWinStreak),
    esc(s.maxLossStreak),
  ];
  return table(
    [
      'side',
      'trades',
      'open',
      'win rate',
      'profit factor',
      'expectancy',
      'avg win',
      'avg loss',
      'win streak',
      'loss streak',
    ],
    [row('long', long), row('short', short)],
    'num directions',
  );
}

/** The closed round trips by the tag of the order that opened them. */
export function tagsTable(report: BacktestReport): string {
  const tags = report.tearsheet.tags;
  if (tags.length === 0) return '';
  return groupFiguresTable(
    'entry tag',
    tags.map((t) => ({
      label: t.tag === null ? '<small>untagged</small>' : esc(t.tag),
      figures: t,
    })),
    'num narrow tags',
  );
}
