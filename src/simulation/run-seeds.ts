import { availableParallelism, totalmem } from 'node:os';
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
 * The young generation of a worker thread, in MB (V8 gives a third of it to each semi-space).
 * A schedule allocates ~130 MB, most of it dead within a few steps, and a scavenge costs what
 * survives it, not what it frees: the fewer scavenges, the less a schedule pays. With the
 * default 16 MB semi-spaces a worker scavenged ~9 times a schedule; with a 192 MB young
 * generation ~2 times (about 6 ms each, `--trace-gc`), and GC pauses in a worker went from ~60
 * to ~30 ms a schedule. 512 MB was about 4% faster again, for ~300 MB more memory a worker
 * (ad hoc runs; the commit that made it 512 has the figures). So a worker gets up to 512 MB,
 * and no more than its share of an eighth of the memory the process may use (`totalBytes`:
 * the machine's, or a container's limit when lower); 64 MB at the least, even where that
 * floor takes more than the eighth.
 */
export function workerYoungGenerationMb(
  threads: number,
  totalBytes: number = memoryBytes(),
): number {
  const eighthPerThreadMb = Math.floor(totalBytes / 8 / Math.max(1, threads) / 2 ** 20);
  return Math.max(64, Math.min(512, eighthPerThreadMb));
}

/** The memory this process may use: the machine's, or its container's limit when lower. */
function memoryBytes(): number {
  const limit = process.constrainedMemory();
  return limit !== undefined && limit > 0 ? Math.min(limit, totalmem()) : totalmem();
}

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
    resourceLimits: { maxYoungGenerationSizeMb: workerYoungGenerationMb(threads) },
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
