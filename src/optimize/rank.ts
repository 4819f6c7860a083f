import { Decimal } from 'decimal.js';
import type { ParamSet } from './expand-space.ts';
import type { Objective, SetMetrics } from './objective.ts';
import type { SetOutcome } from './run-set.ts';
import type { Constraints } from './space.ts';

/** One row of a ranking. */
export interface RankedSet {
  readonly rank: number;
  readonly id: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** The objective, 6 fraction digits; null when a figure it uses is undefined. */
  readonly score: string | null;
  /** Whether the set meets every constraint. */
  readonly passed: boolean;
  /** The constraints it misses, e.g. `trades 2 < minTrades 5`. */
  readonly violations: readonly string[];
  readonly metrics: SetMetrics;
}

/** A set whose backtest failed. */
export interface FailedSet {
  readonly id: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly error: string;
}

export interface Ranking {
  readonly ranked: readonly RankedSet[];
  readonly failed: readonly FailedSet[];
}

/** The constraints a set's metrics miss. */
export function violationsOf(metrics: SetMetrics, constraints: Constraints): string[] {
  const missed: string[] = [];
  if (constraints.minTrades !== undefined && metrics.trades < constraints.minTrades)
    missed.push(`trades ${metrics.trades} < minTrades ${constraints.minTrades}`);
  if (
    constraints.maxDrawdownPct !== undefined &&
    new Decimal(metrics.maxDrawdownPct).gt(constraints.maxDrawdownPct)
  )
    missed.push(`maxDrawdownPct ${metrics.maxDrawdownPct} > ${constraints.maxDrawdownPct}`);
  return missed;
}

/**
 * Ranks sets by their outcomes: sets meeting every constraint first, then those with a score
 * before those without, then score descending; ties by set id, so the order never depends on
 * which set finished first.
 */
export function rankSets(
  sets: readonly ParamSet[],
  outcomeOf: (set: ParamSet) => SetOutcome | undefined,
  objective: Objective,
  constraints: Constraints,
): Ranking {
  const rows: {
    set: ParamSet;
    score: Decimal | null;
    metrics: SetMetrics;
    violations: string[];
  }[] = [];
  const failed: FailedSet[] = [];
  for (const set of sets) {
    const outcome = outcomeOf(set);
    if (outcome === undefined) continue;
    if (outcome.metrics === null) {
      failed.push({ id: set.id, params: set.params, error: outcome.error ?? 'failed' });
      continue;
    }
    rows.push({
      set,
      score: objective.score(outcome.metrics),
      metrics: outcome.metrics,
      violations: violationsOf(outcome.metrics, constraints),
    });
  }
  rows.sort((a, b) => {
    const passed = Number(b.violations.length === 0) - Number(a.violations.length === 0);
    if (passed !== 0) return passed;
    if (a.score === null || b.score === null) {
      if (a.score !== b.score) return a.score === null ? 1 : -1;
    } else {
      const byScore = b.score.comparedTo(a.score);
      if (byScore !== 0) return byScore;
    }
    return a.set.id < b.set.id ? -1 : a.set.id > b.set.id ? 1 : 0;
  });
  failed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    ranked: rows.map((row, index) => ({
      rank: index + 1,
      id: row.set.id,
      params: row.set.params,
      score: row.score === null ? null : row.score.toFixed(6),
      passed: row.violations.length === 0,
      violations: row.violations,
      metrics: row.metrics,
    })),
    failed,
  };
}

/** The score of one outcome alone (an out-of-sample run), 6 digits. */
export function scoreOf(outcome: SetOutcome | undefined, objective: Objective): string | null {
  if (outcome?.metrics === null || outcome === undefined) return null;
  return objective.score(outcome.metrics)?.toFixed(6) ?? null;
}
