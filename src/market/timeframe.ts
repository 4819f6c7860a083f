/** One day in ms: the longest timeframe, and what every timeframe must divide. */
const DAY_MS = 86_400_000;

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS };

const TIMEFRAME = /^([1-9]\d{0,5})([smhd])$/;

/**
 * The bar length of a timeframe such as `"1s"`, `"15m"`, `"4h"` or `"1d"` in ms, or a sentence
 * saying why it is not one. A timeframe is a whole number of seconds, minutes, hours or days from
 * 1 s to 1 d that divides a day evenly, so that every UTC day starts a bar and bars start at
 * the same clock times every day (a 7-minute bar could not: 1440 is not a multiple of 7).
 */
export function timeframeMs(text: string): number | string {
  const match = TIMEFRAME.exec(text);
  if (match === null)
    return `timeframe ${JSON.stringify(text)}: expected a count and a unit s, m, h or d, like "1m" or "4h"`;
  const unit = UNIT_MS[match[2] as string] as number;
  const ms = Number(match[1]) * unit;
  if (ms > DAY_MS) return `timeframe ${text}: longer than 1d (the longest bar is one day)`;
  if (DAY_MS % ms !== 0)
    return `timeframe ${text}: does not divide a day evenly, so its bars could not start at the same UTC times every day (try ${nearestDivisors(ms, unit)})`;
  return ms;
}

/** The timeframes just below and above `ms` in whole `unit`s that divide a day, as text. */
function nearestDivisors(ms: number, unit: number): string {
  let below = ms;
  while (DAY_MS % below !== 0) below -= unit;
  let above = ms;
  while (DAY_MS % above !== 0) above += unit;
  return `${formatTimeframe(below)} or ${formatTimeframe(above)}`;
}

/** A bar length in ms as the shortest timeframe text (`60000` is `"1m"`). */
export function formatTimeframe(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = UNIT_MS[unit] as number;
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/**
 * The start of the bar of length `ms` that holds time `t`: bars are aligned to the Unix epoch,
 * which is a UTC midnight, and every length divides a day, so they are aligned to UTC days.
 */
export function barStart(t: number, ms: number): number {
  return Math.floor(t / ms) * ms;
}

/**
 * The bar lengths charts draw with when a series has too many bars to draw (the report's
 * candles), each dividing a day, so their bars align to UTC days like the strategies'.
 */
export const CHART_TIMEFRAMES_MS: readonly number[] = [
  1000,
  5000,
  15_000,
  30_000,
  60_000,
  300_000,
  900_000,
  1_800_000,
  3_600_000,
  14_400_000,
  DAY_MS,
];

/**
 * The next longer chart bar length made of whole bars of `ms`: the first of
 * {@link CHART_TIMEFRAMES_MS} that `ms` divides, or twice `ms` beyond a day.
 */
export function coarserTimeframeMs(ms: number): number {
  return CHART_TIMEFRAMES_MS.find((longer) => longer > ms && longer % ms === 0) ?? 2 * ms;
}
