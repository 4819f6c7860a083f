import { ErrorCodes, QuantaError } from '../errors/index.ts';

/** Default cap on the points of a report series. */
export const MAX_SERIES_POINTS = 2000;

/**
 * Picks at most `maxPoints` indices of a series of `length` points to draw it, deterministically
 * and keeping its shape: the first and last points always, and in each of
 * `floor((maxPoints − 2) / 3)` equal buckets of the rest the lowest and highest equity and the
 * deepest drawdown. So the chart still shows every peak, trough and the worst drawdown, which
 * plain striding would skip. Ties pick the earliest index. Pure.
 *
 * @param equity - values whose extremes are kept (e.g. equity).
 * @param drawdown - values whose maximum is kept in each bucket (same length).
 * @param maxPoints - cap on the result's length, at least 5.
 * @returns ascending indices; all of them when `length ≤ maxPoints`.
 * @throws QuantaError `QUANTA_BACKTEST_INVALID_OPTION` when `maxPoints < 5`.
 */
export function downsampleIndices(
  equity: readonly bigint[],
  drawdown: readonly bigint[],
  maxPoints = MAX_SERIES_POINTS,
): number[] {
  if (!Number.isInteger(maxPoints) || maxPoints < 5) {
    throw new QuantaError(
      ErrorCodes.BACKTEST_INVALID_OPTION,
      `report series maxPoints: expected an integer of at least 5, got ${String(maxPoints)}`,
    );
  }
  const length = equity.length;
  if (length <= maxPoints) return Array.from({ length }, (_, i) => i);
  const inner = length - 2;
  const buckets = Math.floor((maxPoints - 2) / 3);
  const picked = new Set<number>([0, length - 1]);
  for (let b = 0; b < buckets; b += 1) {
    const from = 1 + Math.floor((b * inner) / buckets);
    const to = 1 + Math.floor(((b + 1) * inner) / buckets);
    if (from >= to) continue;
    let low = from;
    let high = from;
    let deepest = from;
    for (let i = from + 1; i < to; i += 1) {
      const value = equity[i] as bigint;
      if (value < (equity[low] as bigint)) low = i;
      if (value > (equity[high] as bigint)) high = i;
      if ((drawdown[i] ?? 0n) > (drawdown[deepest] ?? 0n)) deepest = i;
    }
    picked.add(low).add(high).add(deepest);
  }
  return [...picked].sort((a, b) => a - b);
}
