/**
 * The cells the report page's sections share: tables, cards, prices and amounts to their
 * market's precision, ratios, percentages and durations. One copy, so two sections cannot show
 * one figure two ways.
 */
import { displayDecimal, displayShare } from '../display-decimal.ts';
import { escapeHtml as esc, moneyHtml as money, roundedHtml } from '../html-kit.ts';
import type { BacktestReport, ReportMarketPrecision } from '../report-json.ts';
import type { GroupFigures } from '../trip-groups.ts';

/** The report's markets by symbol, for prices to the tick and amounts to the quantum. */
export type PrecisionBySymbol = ReadonlyMap<string, ReportMarketPrecision>;

/** Each market's precision, by its symbol. */
export function precisionBySymbol(report: BacktestReport): PrecisionBySymbol {
  return new Map(report.run.markets.map((m) => [m.symbol, m]));
}

/** A price to its market's tick, exact in the tooltip (exact when the precision is unknown). */
export function priceHtml(value: string | null, market: ReportMarketPrecision | undefined): string {
  if (value === null) return '';
  return market === undefined ? esc(value) : roundedHtml(value, market.priceExpo);
}

/** An amount to its market's quantum, exact in the tooltip (exact when unknown). */
export function amountHtml(value: string, market: ReportMarketPrecision | undefined): string {
  return market === undefined ? esc(value) : roundedHtml(value, market.amountExpo);
}

/** A ratio to `places` digits, `n/a` when undefined (no trade, no variance). */
export function ratio(value: string | null, places = 2): string {
  return value === null ? 'n/a' : displayDecimal(value, places);
}

/** A table of already-escaped cells; `cls` names its style (`num` right-aligns figures). */
export function table(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  cls = '',
): string {
  const head = headers.map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table${cls === '' ? '' : ` class="${cls}"`}><thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table>`;
}

/** One summary card: a label and its (already-escaped) value. */
export function card(label: string, value: string): string {
  return `<div class="card"><div class="label">${esc(label)}</div><div class="value">${value}</div></div>`;
}

/** A percentage to two places, `n/a` when undefined. */
export function pct(value: string | null): string {
  return value === null ? 'n/a' : `${esc(displayDecimal(value, 2))}%`;
}

/** A money figure, `n/a` when undefined. */
export function nullableMoney(value: string | null): string {
  return value === null ? 'n/a' : money(value);
}

/** A duration in ms as the largest two units (`2d 3h`, `4m 10s`, `850ms`). */
export function duration(ms: number | null): string {
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

/** A report time (ISO, UTC) as `YYYY-MM-DD hh:mm:ss.sss`. */
export function utcText(iso: string): string {
  return iso.replace('T', ' ').replace('Z', '');
}

/**
 * A table of closed round trips grouped one way (by what closed them, by entry tag): one row a
 * group, its label first (already HTML), then trades, wins, win rate and net PnL.
 */
export function groupFiguresTable(
  labelHeader: string,
  groups: readonly { readonly label: string; readonly figures: GroupFigures }[],
  className: string,
): string {
  return table(
    [labelHeader, 'trades', 'wins', 'win rate', 'net'],
    groups.map(({ label, figures }) => [
      label,
      esc(figures.closed),
      esc(figures.wins),
      esc(displayShare(figures.winRate)),
      money(figures.netPnl),
    ]),
    className,
  );
}
