import { Decimal } from 'decimal.js';
import type { TimeWindow } from './run-set.ts';

/** How to cut the searchable span into folds. */
export type WalkForwardSpec =
  { readonly trainMs: number; readonly testMs: number } | { readonly folds: number };

/** The tail kept from the search: a duration or a share of the recording. */
export type HoldoutSpec = { readonly ms: number } | { readonly percent: number };

/** One fold: search on `train`, score the winner on the `test` window right after it. */
export interface Fold {
  readonly train: TimeWindow;
  readonly test: TimeWindow;
}

/** The windows of a sweep over a recording spanning `[first, last]` (snapshot times, ms). */
export interface SweepWindows {
  /** Where the search runs: the whole recording, or all of it before the holdout. */
  readonly search: TimeWindow;
  readonly holdout: TimeWindow | null;
  readonly folds: readonly Fold[];
}

/**
 * Cuts a recording's span into the search span, the holdout tail and the walk-forward folds.
 * Rolling folds: fold k trains on `[start + k·test, + train)` and tests on the `test` after it,
 * as long as the test window fits in the search span. `folds: N` makes N+1 equal parts, each
 * fold training on one and testing on the next.
 *
 * @throws Error when the holdout leaves nothing to search or no fold fits.
 */
export function sweepWindows(
  first: number,
  last: number,
  walkForward: WalkForwardSpec | undefined,
  holdout: HoldoutSpec | undefined,
): SweepWindows {
  const end = last + 1;
  let searchEnd = end;
  if (holdout !== undefined) {
    const length =
      'ms' in holdout
        ? holdout.ms
        : new Decimal(end - first).times(holdout.percent).div(100).floor().toNumber();
    searchEnd = end - length;
    if (searchEnd <= first || length <= 0)
      throw new Error('the holdout leaves no part of the recording to search');
  }
  const search = { from: first, to: searchEnd };
  const folds: Fold[] = [];
  if (walkForward !== undefined) {
    let trainMs: number;
    let testMs: number;
    if ('folds' in walkForward) {
      const part = Math.floor((searchEnd - first) / (walkForward.folds + 1));
      trainMs = part;
      testMs = part;
    } else {
      ({ trainMs, testMs } = walkForward);
    }
    for (let from = first; trainMs > 0 && testMs > 0; from += testMs) {
      const trainTo = from + trainMs;
      const testTo = trainTo + testMs;
      if (testTo > searchEnd) break;
      folds.push({ train: { from, to: trainTo }, test: { from: trainTo, to: testTo } });
      if ('folds' in walkForward && folds.length === walkForward.folds) break;
    }
    if (folds.length === 0)
      throw new Error('no walk-forward fold fits: the recording is shorter than train + test');
  }
  return { search, holdout: holdout === undefined ? null : { from: searchEnd, to: end }, folds };
}

/**
 * Chains out-of-sample equity curves, each starting from `start`: every curve is scaled to begin
 * where the previous one ended, so the result is the equity of trading each fold's winner in
 * turn. 6 fraction digits.
 */
export function stitchEquity(
  curves: readonly { readonly t: readonly number[]; readonly equity: readonly string[] }[],
  start: string,
): { t: number[]; equity: string[] } {
  const base = new Decimal(start);
  let level = base;
  const t: number[] = [];
  const equity: string[] = [];
  for (const curve of curves) {
    let lastValue = level;
    for (const [index, value] of curve.equity.entries()) {
      lastValue = level.times(value).div(base);
      t.push(curve.t[index]!);
      equity.push(lastValue.toFixed(6));
    }
    level = lastValue;
  }
  return { t, equity };
}
