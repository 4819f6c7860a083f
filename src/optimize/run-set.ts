import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { computeEquityCurve } from '../backtest/equity-curve.ts';
import { downsampleIndices } from '../backtest/downsample.ts';
import { computeMetrics, type BacktestMetrics } from '../backtest/metrics.ts';
import { runBacktest } from '../backtest/run-backtest.ts';
import { annualized } from '../backtest/tearsheet.ts';
import { loadConfig, type Config } from '../config/index.ts';
import { openRecording } from '../market/recording/index.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { formatX18, parseSignedDecimalToX18 } from '../money/index.ts';
import type { SetMetrics } from './objective.ts';
import { systemTimeoutSignal } from '../clock/timers.ts';

/** A time window of a recording: snapshots with `from <= takenAt < to` (ms). */
export interface TimeWindow {
  readonly from: number;
  readonly to: number;
}

/** One backtest of a sweep: a parameter set on a recording (or a window of it). Plain data. */
export interface SetTask {
  /** Identifies the result in the results file: `<window key>/<set id>`. */
  readonly key: string;
  /** The sweep it belongs to (a hash of its inputs): queue jobs of two sweeps never mix. */
  readonly sweep: string;
  readonly setId: string;
  /** Absolute path of the config file. */
  readonly configFile: string;
  /** Absolute path of the recording (file or folder), or an http(s) URL of a recording file. */
  readonly data: string;
  /** Where strategy modules are looked up besides the config's folder. */
  readonly projectRoot: string;
  /** Which config strategy gets `params`. */
  readonly strategyIndex: number;
  /** The searched params, laid over the config's. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly window: TimeWindow | null;
  /** Return the equity curve too (out-of-sample runs of a walk-forward). */
  readonly curve: boolean;
}

/** What a set's backtest gave. Plain data (JSON), the same wherever it ran. */
export interface SetOutcome {
  readonly key: string;
  readonly setId: string;
  readonly metrics: SetMetrics | null;
  /** Why the backtest failed (then `metrics` is null). */
  readonly error?: string;
  /** With `curve`: sample times and equity (decimal strings), at most 500 points. */
  readonly equity?: { readonly t: readonly number[]; readonly equity: readonly string[] };
}

const CURVE_POINTS = 500;
const configs = new Map<string, Promise<Config>>();
const recordings = new Map<string, Promise<Snapshot[]>>();
/** The sweep whose config and recording the caches hold. */
let cachedSweep: string | undefined;

/**
 * Empties the caches when a task of another sweep comes: a worker thread outlives its sweep (a
 * queue worker runs one after another), and a sweep's id changes with its config, recording and
 * strategy source (sweep-inputs.ts), so the next sweep reads them afresh.
 */
function cacheFor(sweep: string): void {
  if (sweep === cachedSweep) return;
  configs.clear();
  recordings.clear();
  cachedSweep = sweep;
}

function cached<T>(
  cache: Map<string, Promise<T>>,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  let value = cache.get(key);
  if (value === undefined) {
    value = load();
    cache.set(key, value);
    // A failure is not kept: the next task tries again.
    value.catch(() => cache.delete(key));
  }
  return value;
}

/**
 * Every snapshot of a recording, decoded once per process (worker thread) and shared by all the
 * sets it runs: snapshots are frozen, so replays cannot change them.
 */
export function decodedSnapshots(data: string): Promise<Snapshot[]> {
  return cached(recordings, data, async () => {
    const remote = /^https?:\/\//i.test(data);
    const path = remote ? await download(data) : data;
    try {
      const recording = await openRecording(path, { onWarning: () => undefined });
      const snapshots: Snapshot[] = [];
      for await (const snapshot of recording.snapshots()) snapshots.push(snapshot);
      return snapshots;
    } finally {
      // The download is decoded in memory now; its file is not needed.
      if (remote) await rm(dirname(path), { recursive: true, force: true });
    }
  });
}

async function download(url: string): Promise<string> {
  const response = await fetch(url, { signal: systemTimeoutSignal(600_000) });
  if (!response.ok || response.body === null)
    throw new Error(`recording ${url}: HTTP ${response.status}`);
  const name = basename(new URL(url).pathname) || 'recording.jsonl';
  const file = join(await mkdtemp(join(tmpdir(), 'quanta-recording-')), name);
  await pipeline(
    Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
    createWriteStream(file),
  );
  return file;
}

/** The snapshots of a window (binary search on takenAt, which increases). */
function windowOf(snapshots: readonly Snapshot[], window: TimeWindow | null): readonly Snapshot[] {
  if (window === null) return snapshots;
  const lowerBound = (t: number): number => {
    let lo = 0;
    let hi = snapshots.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (snapshots[mid]!.takenAt < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return snapshots.slice(lowerBound(window.from), lowerBound(window.to));
}

/**
 * What a sweep ranks a set by, from its backtest's metrics over `spanMs`. A run that ends with
 * negative equity (a loss beyond the capital: a liquidation's shortfall, docs/margin.md) is
 * ranked like any other, with no Calmar, not reported as a failed set.
 */
export function setMetricsOf(metrics: BacktestMetrics, spanMs: number): SetMetrics {
  const total = metrics.total;
  const startX18 = parseSignedDecimalToX18(metrics.startingCapital, 'starting capital');
  const endX18 = parseSignedDecimalToX18(total.finalEquity, 'final equity');
  return {
    pnl: total.netPnl,
    returnPct: total.returnPct,
    sharpe: total.sharpe,
    sortino: total.sortino,
    calmar: annualized(startX18, endX18, spanMs, total.maxDrawdownPct).calmar,
    maxDrawdown: total.maxDrawdown,
    maxDrawdownPct: total.maxDrawdownPct,
    trades: total.roundTrips.closed,
    winRate: total.winRate,
    fees: total.fees,
    turnover: total.turnover,
    orders: total.orders.total,
  };
}

/**
 * Runs one set: the config with the set's params, on the (cached) decoded recording or its window;
 * measures what objectives and constraints use. A failing backtest is an outcome with its error,
 * not a throw, so one bad set does not stop a sweep.
 */
export async function runSet(task: SetTask): Promise<SetOutcome> {
  cacheFor(task.sweep);
  try {
    const config = await cached(configs, task.configFile, () =>
      loadConfig(task.configFile, { env: process.env }),
    );
    const snapshots = windowOf(await decodedSnapshots(task.data), task.window);
    if (snapshots.length === 0) throw new Error('no snapshot in this window');
    const strategies = config.strategies.map((entry, index) =>
      index === task.strategyIndex
        ? { ...entry, params: { ...(entry.params as object), ...task.params } }
        : entry,
    );
    const trace = await runBacktest({
      config: { ...config, strategies },
      data: task.data,
      projectRoot: task.projectRoot,
      snapshots,
    });
    const metrics = computeMetrics(trace);
    const setMetrics = setMetricsOf(metrics, trace.endedAt - trace.startedAt);
    if (!task.curve) return { key: task.key, setId: task.setId, metrics: setMetrics };
    const curve = computeEquityCurve(trace);
    const startX18 = parseSignedDecimalToX18(metrics.startingCapital, 'starting capital');
    const equity = curve.totalNetPnlX18.map((net) => startX18 + net);
    let peak = equity[0] ?? startX18;
    const drawdown = equity.map((value) => {
      if (value > peak) peak = value;
      return peak - value;
    });
    const picked = downsampleIndices(equity, drawdown, CURVE_POINTS);
    return {
      key: task.key,
      setId: task.setId,
      metrics: setMetrics,
      equity: {
        t: picked.map((i) => curve.t[i]!),
        equity: picked.map((i) => formatX18(equity[i]!)),
      },
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { key: task.key, setId: task.setId, metrics: null, error: message };
  }
}
