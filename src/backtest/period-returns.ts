import { formatX18 } from '../money/index.ts';
import { bigintRatio, formatRatio } from './ratio-decimal.ts';

const MS_PER_DAY = 24 * 3600 * 1000;

/**
 * The equity at the last sample of each UTC day a run had samples on, kept one sample at a time
 * (a row per day, never per sample: a year of 1-second snapshots keeps 365).
 */
export class DayCloses {
  /** UTC day numbers (`floor(t / 1 day)`), ascending. */
  readonly days: number[] = [];
  /** Equity at the last sample of each of those days, x18. */
  readonly closesX18: bigint[] = [];

  /** Adds one sample. A time earlier than the last day's counts toward that day. */
  push(t: number, equityX18: bigint): void {
    const day = Math.floor(t / MS_PER_DAY);
    const last = this.days.length - 1;
    if (last >= 0 && day <= (this.days[last] as number)) this.closesX18[last] = equityX18;
    else {
      this.days.push(day);
      this.closesX18.push(equityX18);
    }
  }
}

/** The account's return over one UTC day or month. Money as decimal strings (quote units). */
export interface PeriodReturn {
  /** `2026-01-31` for a day, `2026-01` for a month (UTC). */
  readonly period: string;
  /** Equity when the period began: the previous period's close, or the starting capital. */
  readonly startEquity: string;
  /** Equity at the period's last sample (a day without samples keeps the previous close). */
  readonly endEquity: string;
  /** `endEquity − startEquity`, exact. */
  readonly pnl: string;
  /** `pnl / startEquity` in percent (6 digits); null when the period began at equity ≤ 0. */
  readonly returnPct: string | null;
}

/** Returns per UTC day and per UTC month, from the equity curve. */
export interface PeriodReturns {
  /** Every day from the first sample's to the last sample's, in order. */
  readonly daily: readonly PeriodReturn[];
  /** Every month those days touch, in order; each chains the days it holds. */
  readonly monthly: readonly PeriodReturn[];
}

function row(period: string, startX18: bigint, endX18: bigint): PeriodReturn {
  return {
    period,
    startEquity: formatX18(startX18),
    endEquity: formatX18(endX18),
    pnl: formatX18(endX18 - startX18),
    returnPct:
      startX18 <= 0n ? null : formatRatio(bigintRatio((endX18 - startX18) * 100n, startX18)),
  };
}

/**
 * Daily and monthly returns of the account (UTC): a day's return runs from the previous day's
 * closing equity (the starting capital before the first) to its own; a day between two sampled
 * days that had no sample (a gap in the data) keeps the previous close, a return of 0. A month
 * runs from the close before its first day to its last day's close, so its PnL is the sum of
 * its days' (docs/figures.md, "Returns per day and per month").
 *
 * @param closes - the run's {@link DayCloses}.
 * @param startX18 - equity before the first sample.
 */
export function periodReturns(closes: DayCloses, startX18: bigint): PeriodReturns {
  const daily: PeriodReturn[] = [];
  const monthly: PeriodReturn[] = [];
  const first = closes.days[0];
  const lastDay = closes.days[closes.days.length - 1];
  if (first === undefined || lastDay === undefined) return { daily, monthly };
  let previous = startX18;
  let index = 0;
  let month: { name: string; startX18: bigint; endX18: bigint } | undefined;
  for (let day = first; day <= lastDay; day++) {
    let close = previous;
    if (closes.days[index] === day) close = closes.closesX18[index++] as bigint;
    const date = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    daily.push(row(date, previous, close));
    const name = date.slice(0, 7);
    if (month?.name !== name) {
      if (month !== undefined) monthly.push(row(month.name, month.startX18, month.endX18));
      month = { name, startX18: previous, endX18: close };
    } else month.endX18 = close;
    previous = close;
  }
  if (month !== undefined) monthly.push(row(month.name, month.startX18, month.endX18));
  return { daily, monthly };
}
