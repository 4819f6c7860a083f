import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { resolveFillModel } from '../backtest/fill-model.ts';
import { loadConfig } from '../config/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { canonicalJson, expandSpace, type ParamSet } from './expand-space.ts';
import {
  windowView,
  type FoldResult,
  type OptimizeResult,
  type WindowScore,
} from './optimize-result.ts';
import { rankSets, scoreOf, type FailedSet } from './rank.ts';
import { openResultsFile, type ResultsFile } from './results-file.ts';
import { decodedSnapshots, type SetOutcome, type SetTask, type TimeWindow } from './run-set.ts';
import type { SetRunner } from './local-pool.ts';
import { readSpace, type SweepSpace } from './space.ts';
import { sweepInputs } from './sweep-inputs.ts';
import { strategyIndexOf, validateSets } from './sweep-sets.ts';
import {
  stitchEquity,
  sweepWindows,
  type HoldoutSpec,
  type SweepWindows,
  type WalkForwardSpec,
} from './walk-forward.ts';

export {
  serializeOptimizeResult,
  type FoldResult,
  type OptimizeResult,
  type WindowScore,
  type WindowView,
} from './optimize-result.ts';

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

function windowKey(window: TimeWindow | null): string {
  return window === null ? 'all' : `${window.from}-${window.to}`;
}

/** A sweep ready to run: its inputs checked, its windows cut, its results file open. */
interface Sweep {
  readonly options: OptimizeOptions;
  readonly space: SweepSpace;
  readonly configPath: string;
  readonly strategyIndex: number;
  /** The strategy instance whose params are searched. */
  readonly instance: string;
  /** Every set of the space, and those the strategy's params schema accepts. */
  readonly sets: readonly ParamSet[];
  readonly valid: readonly ParamSet[];
  readonly skipped: readonly FailedSet[];
  readonly data: string;
  readonly windows: SweepWindows;
  /** The search span when a holdout cuts it, else null (the whole recording). */
  readonly searchWindow: TimeWindow | null;
  /** The backtests' starting capital, a decimal string. */
  readonly startingCapital: string;
  /** The sweep's id: a hash of everything its results depend on. */
  readonly id: string;
  readonly results: ResultsFile;
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
  const sweep = await prepareSweep(options);
  await runSearch(sweep);
  const winners = await runWinners(sweep);
  return {
    result: resultOf(sweep, winners),
    configPath: sweep.configPath,
    data: sweep.data,
    strategyIndex: sweep.strategyIndex,
    search: sweep.windows.search,
  };
}

/** Reads and checks the inputs, cuts the windows and opens the results file. */
async function prepareSweep(options: OptimizeOptions): Promise<Sweep> {
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
  const windows = await windowsOf(data, options);
  const id = createHash('sha256')
    .update(
      canonicalJson({
        config: await readFile(configPath, 'utf8'),
        space: space.text,
        data,
        strategyIndex,
        walkForward: options.walkForward ?? null,
        holdout: options.holdout ?? null,
        inputs: await sweepInputs(config, data, options.projectRoot),
      }),
    )
    .digest('hex')
    .slice(0, 16);
  const results = openResultsFile(join(options.outDir, 'results.jsonl'), id);
  if (results.setAside !== undefined)
    options.onNote?.(
      `${results.path} held another sweep's results (other inputs): moved to ${results.setAside}, started afresh`,
    );
  const searchWindow = windows.holdout === null ? null : windows.search;
  const startingCapital = resolveFillModel(config.backtest).startingCapital;
  return {
    options,
    space,
    configPath,
    strategyIndex,
    instance,
    sets,
    valid,
    skipped,
    data,
    windows,
    searchWindow,
    startingCapital,
    id,
    results,
  };
}

/** The search span, the walk-forward folds and the holdout of the recording `data`. */
async function windowsOf(data: string, options: OptimizeOptions): Promise<SweepWindows> {
  const snapshots = await decodedSnapshots(data);
  if (snapshots.length === 0)
    throw new QuantaError(ErrorCodes.RECORDING_INVALID, `recording ${options.data}: no snapshots`);
  try {
    return sweepWindows(
      snapshots[0]!.takenAt,
      snapshots[snapshots.length - 1]!.takenAt,
      options.walkForward,
      options.holdout,
    );
  } catch (error) {
    throw new QuantaError(ErrorCodes.USAGE, (error as Error).message, { cause: error });
  }
}

/** The task of running `set` on `window` (null: the whole recording). */
function taskOf(sweep: Sweep, set: ParamSet, window: TimeWindow | null, curve: boolean): SetTask {
  return {
    key: `${windowKey(window)}/${set.id}`,
    sweep: sweep.id,
    setId: set.id,
    configFile: sweep.configPath,
    data: sweep.data,
    projectRoot: sweep.options.projectRoot,
    strategyIndex: sweep.strategyIndex,
    params: set.params,
    window,
    curve,
  };
}

/** Phase 1: every set on the search span and on each fold's train window. */
async function runSearch(sweep: Sweep): Promise<void> {
  const { windows, results, options } = sweep;
  const phase1: SetTask[] = [];
  for (const window of [sweep.searchWindow, ...windows.folds.map((fold) => fold.train)])
    for (const set of sweep.valid) phase1.push(taskOf(sweep, set, window, false));
  const phase2Count = windows.folds.length + (windows.holdout === null ? 0 : 1);
  const total = phase1.length + phase2Count;
  const pending = phase1.filter((t) => !results.done.has(t.key));
  options.onStart?.(total, total - pending.length - phase2Count);
  await runAll(pending, options.runner, (outcome) => {
    results.append(outcome);
    options.onProgress?.();
  });
}

/** The winners of phase 1: each fold's (of its train window) and the holdout's (of the search). */
interface Winners {
  readonly folds: readonly (ParamSet | undefined)[];
  readonly holdout: ParamSet | undefined;
}

/** `set`'s outcome on `window`, once run. */
function outcomeOf(sweep: Sweep, window: TimeWindow | null, set: ParamSet): SetOutcome | undefined {
  return sweep.results.done.get(`${windowKey(window)}/${set.id}`);
}

/** The best-ranked set on `window` (undefined when no set gave a score). */
function winnerOf(sweep: Sweep, window: TimeWindow | null): ParamSet | undefined {
  const { space } = sweep;
  const outcomes = (set: ParamSet): SetOutcome | undefined => outcomeOf(sweep, window, set);
  const best = rankSets(sweep.valid, outcomes, space.objective, space.constraints).ranked[0];
  return best === undefined || best.score === null
    ? undefined
    : { id: best.id, params: best.params };
}

/** Phase 2: each fold's winner on its test window, the overall winner on the holdout. */
async function runWinners(sweep: Sweep): Promise<Winners> {
  const { windows, results, options } = sweep;
  const winners: Winners = {
    folds: windows.folds.map((fold) => winnerOf(sweep, fold.train)),
    holdout: windows.holdout === null ? undefined : winnerOf(sweep, sweep.searchWindow),
  };
  const phase2: SetTask[] = [];
  for (const [index, fold] of windows.folds.entries()) {
    const winner = winners.folds[index];
    if (winner !== undefined) phase2.push(taskOf(sweep, winner, fold.test, true));
  }
  if (windows.holdout !== null && winners.holdout !== undefined)
    phase2.push(taskOf(sweep, winners.holdout, windows.holdout, true));
  const pending = phase2.filter((t) => {
    if (!results.done.has(t.key)) return true;
    options.onProgress?.();
    return false;
  });
  await runAll(pending, options.runner, (outcome) => {
    results.append(outcome);
    options.onProgress?.();
  });
  return winners;
}

/** `set`'s score and metrics on `window` (nulls when it has none). */
function windowScore(
  sweep: Sweep,
  window: TimeWindow | null,
  set: ParamSet | undefined,
): WindowScore {
  const outcome = set === undefined ? undefined : outcomeOf(sweep, window, set);
  return { score: scoreOf(outcome, sweep.space.objective), metrics: outcome?.metrics ?? null };
}

const winnerView = (set: ParamSet | undefined): FoldResult['winner'] =>
  set === undefined ? null : { id: set.id, params: { ...set.params } };

function walkForwardOf(sweep: Sweep, winners: Winners): OptimizeResult['walkForward'] {
  const { folds } = sweep.windows;
  if (folds.length === 0) return null;
  return {
    folds: folds.map((fold, index) => {
      const winner = winners.folds[index];
      return {
        fold: index + 1,
        train: windowView(fold.train),
        test: windowView(fold.test),
        winner: winnerView(winner),
        inSample: windowScore(sweep, fold.train, winner),
        outOfSample: windowScore(sweep, fold.test, winner),
      };
    }),
    stitched: stitchEquity(
      folds.flatMap((fold, index) => {
        const winner = winners.folds[index];
        const curve =
          winner === undefined ? undefined : outcomeOf(sweep, fold.test, winner)?.equity;
        return curve === undefined ? [] : [curve];
      }),
      sweep.startingCapital,
    ),
  };
}

function holdoutOf(sweep: Sweep, winners: Winners): OptimizeResult['holdout'] {
  const { holdout } = sweep.windows;
  if (holdout === null) return null;
  return {
    window: windowView(holdout),
    winner: winnerView(winners.holdout),
    inSample: windowScore(sweep, sweep.searchWindow, winners.holdout),
    outOfSample: windowScore(sweep, holdout, winners.holdout),
  };
}

function resultOf(sweep: Sweep, winners: Winners): OptimizeResult {
  const { options, space } = sweep;
  const outcomes = (set: ParamSet): SetOutcome | undefined =>
    outcomeOf(sweep, sweep.searchWindow, set);
  const ranking = rankSets(sweep.valid, outcomes, space.objective, space.constraints);
  return {
    format: 'quanta-optimize',
    version: 1,
    config: options.configFile,
    data: options.data,
    space: options.spaceFile,
    strategy: sweep.instance,
    objective: space.objective.text,
    constraints: space.constraints,
    window: windowView(sweep.windows.search),
    sets: sweep.sets.length,
    skipped: sweep.skipped,
    failed: ranking.failed,
    ranking: ranking.ranked,
    walkForward: walkForwardOf(sweep, winners),
    holdout: holdoutOf(sweep, winners),
  };
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
