import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { SeedTask } from './pool-worker.ts';
import type { ScheduleResult } from './run-schedule.ts';
import type { SimMixName } from './sim-mix.ts';

/** The worker file for this build (see optimize/local-pool.ts for why two). */
function workerFile(): string {
  const fromSources = import.meta.url.endsWith('.ts');
  return fileURLToPath(
    new URL(fromSources ? '../../bin/sim-worker.mjs' : './worker-entry.js', import.meta.url),
  );
}

/**
 * The young generation of a worker thread, in MB (V8 gives a third of it to each semi-space:
 * 64 MB, four times the default 16 MB). A schedule allocates ~130 MB, most of it dead within a
 * few steps; with the default a worker scavenged ~9 times a schedule, with this ~2.5 times, and
 * a scavenge costs what survives it, not what it frees: GC pauses in a worker went from ~60 to
 * ~30 ms a schedule (2 threads, seeds 1-8, 3 interleaved rounds; the commit has the figures).
 * What it costs: ~100 MB more memory a worker once its new space has grown.
 */
export const SIM_WORKER_YOUNG_GENERATION_MB = 192;

/** What {@link runSeeds} runs. */
export interface RunSeedsOptions {
  readonly from: number;
  readonly to: number;
  /** Worker threads; default one per core. */
  readonly threads?: number;
  readonly durationMs?: number;
  /** What the schedules trade (`SIM_MIXES`); default `default`. */
  readonly mix?: SimMixName;
  /** Told about each schedule as it ends (in the order they end). */
  readonly onResult?: (result: ScheduleResult) => void;
}

/** Worker threads that run schedules, started once for many ranges (the benchmark's rounds). */
export interface SeedPool {
  /** Runs seeds `from`..`to` (inclusive), one task each; resolves to the results in seed order. */
  run(options: Omit<RunSeedsOptions, 'threads'>): Promise<ScheduleResult[]>;
  close(): Promise<void>;
}

/** Starts `threads` worker threads (default one per core) for {@link SeedPool.run}. */
export function openSeedPool(threads = availableParallelism()): SeedPool {
  const pool = new Piscina({
    filename: workerFile(),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    resourceLimits: { maxYoungGenerationSizeMb: SIM_WORKER_YOUNG_GENERATION_MB },
  });
  return {
    async run(options) {
      const tasks: Promise<ScheduleResult>[] = [];
      for (let seed = options.from; seed <= options.to; seed++) {
        const task: SeedTask = {
          seed,
          ...(options.durationMs === undefined ? {} : { durationMs: options.durationMs }),
          ...(options.mix === undefined ? {} : { mix: options.mix }),
        };
        tasks.push(
          (pool.run(task) as Promise<ScheduleResult>).then((result) => {
            options.onResult?.(result);
            return result;
          }),
        );
      }
      return Promise.all(tasks);
    },
    close: () => pool.destroy(),
  };
}

/**
 * Runs the schedules of seeds `from`..`to` (inclusive) on a pool of worker threads (piscina),
 * one schedule per task; resolves to every result, in seed order.
 */
export async function runSeeds(options: RunSeedsOptions): Promise<ScheduleResult[]> {
  const pool = openSeedPool(options.threads);
  try {
    return await pool.run(options);
  } finally {
    await pool.close();
  }
}
