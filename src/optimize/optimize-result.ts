/** What a sweep found (`optimize.json`, `--json`): its shape and its serialization. */
import type { FailedSet, RankedSet } from './rank.ts';
import type { SetMetrics } from './objective.ts';
import type { TimeWindow } from './run-set.ts';
import type { Constraints } from './space.ts';

/** A time window as a result shows it. */
export interface WindowView {
  readonly from: string;
  readonly to: string;
}

/** One set's figures on one window. */
export interface WindowScore {
  readonly score: string | null;
  readonly metrics: SetMetrics | null;
}

export interface FoldResult {
  readonly fold: number;
  readonly train: WindowView;
  readonly test: WindowView;
  /** The best set of the train window (null when no set gave a score). */
  readonly winner: { readonly id: string; readonly params: Record<string, unknown> } | null;
  readonly inSample: WindowScore;
  readonly outOfSample: WindowScore;
}

/** Everything a sweep found: what `optimize.json` and `--json` hold. No timestamps, no paths of the run. */
export interface OptimizeResult {
  readonly format: 'quanta-optimize';
  readonly version: 1;
  readonly config: string;
  readonly data: string;
  readonly space: string;
  /** The strategy instance whose params were searched. */
  readonly strategy: string;
  readonly objective: string;
  readonly constraints: Constraints;
  /** The span searched (everything before the holdout). */
  readonly window: WindowView;
  readonly sets: number;
  /** Sets the strategy's params schema refused, with why. */
  readonly skipped: readonly FailedSet[];
  readonly failed: readonly FailedSet[];
  readonly ranking: readonly RankedSet[];
  readonly walkForward: {
    readonly folds: readonly FoldResult[];
    /** Out-of-sample equity of trading each fold's winner in turn. */
    readonly stitched: { readonly t: readonly number[]; readonly equity: readonly string[] };
  } | null;
  readonly holdout: {
    readonly window: WindowView;
    readonly winner: { readonly id: string; readonly params: Record<string, unknown> } | null;
    readonly inSample: WindowScore;
    readonly outOfSample: WindowScore;
  } | null;
}

/** A time window as a result shows it: ISO times. */
export function windowView(window: TimeWindow): WindowView {
  return { from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() };
}

/** The result as `optimize.json` and `--json` print it: stable key order, a final newline. */
export function serializeOptimizeResult(result: OptimizeResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
