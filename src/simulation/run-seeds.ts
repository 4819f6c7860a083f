import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { SeedTask } from './pool-worker.ts';
import type { ScheduleResult } from './run-schedule.ts';

/** The worker file for this build (see optimize/local-pool.ts for why two). */
function workerFile(): string {
  const fromSources = import.meta.url.endsWith('.ts');
  return fileURLToPath(
    new URL(fromSources ? '../../bin/sim-worker.mjs' : './worker-entry.js', import.meta.url),
  );
}

/**
 * Each worker's young generation (V8's new space, three times its semi-space), in MB. A
 * schedule allocates a few hundred MB, nearly all short-lived (bigint arithmetic of signature
 * checks, answers' texts and objects): with V8's default (16 MB semi-spaces) it is collected
 * about every 15 MB, and what is alive then is copied, and promoted after two copies, which
 * later costs the old generation's marking, on V8's helper threads beside the worker. With 64 MB
 * semi-spaces seeds 1-8 took 51 young collections and 3 full ones, not 147 and 6; a worker may
 * hold that much more memory.
 */
const YOUNG_GENERATION_MB = 192;

/** What {@link runSeeds} runs. */
export interface RunSeedsOptions {
  readonly from: number;
  readonly to: number;
  /** Worker threads; default one per core. */
  readonly threads?: number;
  readonly durationMs?: number;
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
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  return {
    async run(options) {
      const tasks: Promise<ScheduleResult>[] = [];
      for (let seed = options.from; seed <= options.to; seed++) {
        const task: SeedTask = {
          seed,
          ...(options.durationMs === undefined ? {} : { durationMs: options.durationMs }),
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
