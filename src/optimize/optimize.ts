import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { resolveFillModel } from '../backtest/fill-model.ts';
import { loadConfig, type Config } from '../config/index.ts';
import { ErrorCodes, isQuantaError, QuantaError } from '../errors/index.ts';
import { loadStrategy, parseStrategyParams } from '../strategy/load-strategy.ts';
import { canonicalJson, expandSpace, type ParamSet } from './expand-space.ts';
import type { SetMetrics } from './objective.ts';
import { rankSets, scoreOf, type FailedSet, type RankedSet } from './rank.ts';
import { openResultsFile } from './results-file.ts';
import { decodedSnapshots, type SetOutcome, type SetTask, type TimeWindow } from './run-set.ts';
import type { SetRunner } from './local-pool.ts';
import { readSpace, type Constraints, type SweepSpace } from './space.ts';
import {
  stitchEquity,
  sweepWindows,
  type HoldoutSpec,
  type WalkForwardSpec,
} from './walk-forward.ts';

/** Options of {@link runOptimize}. */
export interface OptimizeOptions {
  /** The config file, as the user named it (resolved against the cwd). */
  readonly configFile: string;
  /** A recording path or an http(s) URL of a recording file. */
  readonly data: string;
  readonly spaceFile: string;
  /** Where results.jsonl goes (and, from the caller, optimize.json and the HTML page). */
  readonly outDir: string;
  /** Where strategy modules are looked up besides the config's folder. */
  readonly projectRoot: string;
  readonly walkForward?: WalkForwardSpec;
  readonly holdout?: HoldoutSpec;
  /** Runs the sets: the local worker-thread pool or the queue. */
  readonly runner: SetRunner;
  /** Called once the sets are known with how many there are to run and how many were done. */
  readonly onStart?: (total: number, resumed: number) => void;
  /** Called after each set finishes. */
  readonly onProgress?: () => void;
  /** A line for the user (stderr): skipped sets, a results file started afresh. */
  readonly onNote?: (line: string) => void;
}

/** A finished sweep: its result and what is needed to replay its sets again. */
export interface OptimizeRun {
  readonly result: OptimizeResult;
  /** The config file, absolute. */
  readonly configPath: string;
  /** The recording: an absolute path or a URL. */
  readonly data: string;
  readonly strategyIndex: number;
  /** The span searched (before the holdout). */
  readonly search: TimeWindow;
}

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

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function view(window: TimeWindow): WindowView {
  return { from: iso(window.from), to: iso(window.to) };
}

function windowKey(window: TimeWindow | null): string {
  return window === null ? 'all' : `${window.from}-${window.to}`;
}

/** Which config strategy the space's params are for. */
function strategyIndexOf(config: Config, space: SweepSpace): number {
  const names = config.strategies.map((entry, index) => entry.name ?? `#${index}`);
  if (space.strategy === undefined) {
    if (config.strategies.length === 1) return 0;
    throw new QuantaError(
      ErrorCodes.CONFIG_INVALID,
      `${space.locate([])} strategy: the config runs ${config.strategies.length} strategies; name the one to search`,
      { details: ['Add strategy: <instance name or index> to the space file.'] },
    );
  }
  if (typeof space.strategy === 'number') {
    if (space.strategy < config.strategies.length) return space.strategy;
  } else {
    const byName = config.strategies.findIndex((entry) => entry.name === space.strategy);
    if (byName >= 0) return byName;
    const byModule = config.strategies.findIndex((entry) =>
      entry.module.replace(/\.[cm]?[tj]s$/, '').endsWith(`/${String(space.strategy)}`),
    );
    if (byModule >= 0) return byModule;
  }
  throw new QuantaError(
    ErrorCodes.CONFIG_INVALID,
    `${space.locate(['strategy'])} strategy: no strategy ${JSON.stringify(space.strategy)} in the config`,
    { details: [`The config's strategies: ${names.join(', ')}`] },
  );
}

/**
 * Checks every set with the strategy's own params schema (as a config's params are checked). A
 * param the schema does not name is an error pointing at the space file; a set the schema
 * refuses for its values (say exitZ above entryZ) is skipped and listed.
 */
async function validateSets(
  config: Config,
  index: number,
  space: SweepSpace,
  sets: readonly ParamSet[],
  projectRoot: string,
): Promise<{ valid: ParamSet[]; skipped: FailedSet[]; instance: string }> {
  const entry = config.strategies[index]!;
  const strategy = await loadStrategy(entry.module, [projectRoot], entry.searched);
  const instance = entry.name ?? strategy.name;
  const valid: ParamSet[] = [];
  const skipped: FailedSet[] = [];
  let first: QuantaError | undefined;
  for (const set of sets) {
    try {
      parseStrategyParams(
        strategy,
        instance,
        { ...(entry.params as object), ...set.params },
        {
          keyPath: 'params',
          locate: (path) =>
            space.params.has(String(path[0]))
              ? space.locate(['params', String(path[0])])
              : (config.source?.locate(['strategies', index, 'params', ...path]) ??
                space.locate(['params'])),
        },
      );
      valid.push(set);
    } catch (error) {
      if (!isQuantaError(error, ErrorCodes.STRATEGY_PARAMS)) throw error;
      // A name the schema does not know is wrong in every set: the space file is wrong.
      if (error.details.some((line) => line.includes('unknown param'))) throw error;
      first ??= error;
      skipped.push({ id: set.id, params: set.params, error: error.details.join('; ') });
    }
  }
  if (valid.length === 0 && first !== undefined) throw first;
  skipped.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { valid, skipped, instance };
}

/**
 * A parameter sweep: every set of the space backtested on the recording (or on the span before
 * the holdout), ranked by the objective under the constraints; with walk-forward, a search on
 * each fold's train window whose winner is scored on the test window after it; with a holdout,
 * the overall winner scored on the tail the search never saw. Results stream to
 * `outDir/results.jsonl`; a sweep started again with the same inputs runs only the sets that are
 * not there yet. The result is the same for the same inputs, whichever runner ran the sets and
 * in whatever order they finished.
 *
 * @throws QuantaError for a bad space file, config, recording or param name (nothing is run).
 */
export async function runOptimize(options: OptimizeOptions): Promise<OptimizeRun> {
  const space = await readSpace(options.spaceFile);
  const configPath = resolve(options.configFile);
  const config = await loadConfig(configPath, { env: process.env });
  const strategyIndex = strategyIndexOf(config, space);
  const sets = expandSpace(space);
  const { valid, skipped, instance } = await validateSets(
    config,
    strategyIndex,
    space,
    sets,
    options.projectRoot,
  );
  for (const set of skipped)
    options.onNote?.(`skipped set ${canonicalJson(set.params)}: ${set.error}`);

  const data = /^https?:\/\//i.test(options.data) ? options.data : resolve(options.data);
  const snapshots = await decodedSnapshots(data);
  if (snapshots.length === 0)
    throw new QuantaError(ErrorCodes.RECORDING_INVALID, `recording ${options.data}: no snapshots`);
  let windows;
  try {
    windows = sweepWindows(
      snapshots[0]!.takenAt,
      snapshots[snapshots.length - 1]!.takenAt,
      options.walkForward,
      options.holdout,
    );
  } catch (error) {
    throw new QuantaError(ErrorCodes.USAGE, (error as Error).message, { cause: error });
  }
  const startingCapital = resolveFillModel(config.backtest).startingCapital;
  const sweep = createHash('sha256')
    .update(
      canonicalJson({
        config: await readFile(configPath, 'utf8'),
        space: space.text,
        data,
        strategyIndex,
        walkForward: options.walkForward ?? null,
        holdout: options.holdout ?? null,
      }),
    )
    .digest('hex')
    .slice(0, 16);
  const results = openResultsFile(join(options.outDir, 'results.jsonl'), sweep);
  if (results.restarted)
    options.onNote?.(`${results.path} held another sweep's results: started afresh`);

  const searchWindow = windows.holdout === null ? null : windows.search;
  const task = (set: ParamSet, window: TimeWindow | null, curve: boolean): SetTask => ({
    key: `${windowKey(window)}/${set.id}`,
    sweep,
    setId: set.id,
    configFile: configPath,
    data,
    projectRoot: options.projectRoot,
    strategyIndex,
    params: set.params,
    window,
    curve,
  });

  // Phase 1: every set on the search span and on each fold's train window.
  const phase1: SetTask[] = [];
  for (const window of [searchWindow, ...windows.folds.map((fold) => fold.train)])
    for (const set of valid) phase1.push(task(set, window, false));
  const phase2Count = windows.folds.length + (windows.holdout === null ? 0 : 1);
  const total = phase1.length + phase2Count;
  const pending = phase1.filter((t) => !results.done.has(t.key));
  options.onStart?.(total, total - pending.length - phase2Count);
  await runAll(pending, options.runner, (outcome) => {
    results.append(outcome);
    options.onProgress?.();
  });

  const outcomeIn =
    (window: TimeWindow | null) =>
    (set: ParamSet): SetOutcome | undefined =>
      results.done.get(`${windowKey(window)}/${set.id}`);
  const ranking = rankSets(valid, outcomeIn(searchWindow), space.objective, space.constraints);
  const winnerOf = (window: TimeWindow | null): ParamSet | undefined => {
    const best = rankSets(valid, outcomeIn(window), space.objective, space.constraints).ranked[0];
    return best === undefined || best.score === null
      ? undefined
      : { id: best.id, params: best.params };
  };

  // Phase 2: each fold's winner on its test window, the overall winner on the holdout.
  const foldWinners = windows.folds.map((fold) => winnerOf(fold.train));
  const holdoutWinner = windows.holdout === null ? undefined : winnerOf(searchWindow);
  const phase2: SetTask[] = [];
  for (const [index, fold] of windows.folds.entries()) {
    const winner = foldWinners[index];
    if (winner !== undefined) phase2.push(task(winner, fold.test, true));
  }
  if (windows.holdout !== null && holdoutWinner !== undefined)
    phase2.push(task(holdoutWinner, windows.holdout, true));
  const pending2 = phase2.filter((t) => {
    if (!results.done.has(t.key)) return true;
    options.onProgress?.();
    return false;
  });
  await runAll(pending2, options.runner, (outcome) => {
    results.append(outcome);
    options.onProgress?.();
  });

  const windowScore = (window: TimeWindow | null, set: ParamSet | undefined): WindowScore => {
    const outcome = set === undefined ? undefined : outcomeIn(window)(set);
    return { score: scoreOf(outcome, space.objective), metrics: outcome?.metrics ?? null };
  };
  const walkForward =
    windows.folds.length === 0
      ? null
      : {
          folds: windows.folds.map((fold, index) => {
            const winner = foldWinners[index];
            return {
              fold: index + 1,
              train: view(fold.train),
              test: view(fold.test),
              winner: winner === undefined ? null : { id: winner.id, params: { ...winner.params } },
              inSample: windowScore(fold.train, winner),
              outOfSample: windowScore(fold.test, winner),
            };
          }),
          stitched: stitchEquity(
            windows.folds.flatMap((fold, index) => {
              const winner = foldWinners[index];
              const curve = winner === undefined ? undefined : outcomeIn(fold.test)(winner)?.equity;
              return curve === undefined ? [] : [curve];
            }),
            startingCapital,
          ),
        };
  const holdout =
    windows.holdout === null
      ? null
      : {
          window: view(windows.holdout),
          winner:
            holdoutWinner === undefined
              ? null
              : { id: holdoutWinner.id, params: { ...holdoutWinner.params } },
          inSample: windowScore(searchWindow, holdoutWinner),
          outOfSample: windowScore(windows.holdout, holdoutWinner),
        };
  const result: OptimizeResult = {
    format: 'quanta-optimize',
    version: 1,
    config: options.configFile,
    data: options.data,
    space: options.spaceFile,
    strategy: instance,
    objective: space.objective.text,
    constraints: space.constraints,
    window: view(windows.search),
    sets: sets.length,
    skipped,
    failed: ranking.failed,
    ranking: ranking.ranked,
    walkForward,
    holdout,
  };
  return { result, configPath, data, strategyIndex, search: windows.search };
}

/** Runs tasks keeping the runner full (its capacity in flight, no more), in the given order. */
async function runAll(
  tasks: readonly SetTask[],
  runner: SetRunner,
  onOutcome: (outcome: SetOutcome) => void,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length) {
      const task = tasks[next++]!;
      onOutcome(await runner.run(task));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, runner.capacity) }, lane));
}

/** The result as `optimize.json` and `--json` print it: stable key order, a final newline. */
export function serializeOptimizeResult(result: OptimizeResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
