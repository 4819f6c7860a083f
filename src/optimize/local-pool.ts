import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { SetOutcome, SetTask } from './run-set.ts';

/** Runs sets somewhere: worker threads here, or a queue that workers elsewhere take from. */
export interface SetRunner {
  /** How many sets it runs at once (to keep that many in flight). */
  readonly capacity: number;
  run(task: SetTask): Promise<SetOutcome>;
  close(): Promise<void>;
}

/**
 * The worker file for this build: compiled quanta loads `worker-entry.js` beside this file; from
 * sources (the repository, tests) `bin/optimize-worker.mjs`, which registers tsx inside the
 * thread (plain node cannot load a `.ts` file, and the main thread's hooks do not reach it).
 */
function workerFile(): string {
  const fromSources = import.meta.url.endsWith('.ts');
  return fileURLToPath(
    new URL(fromSources ? '../../bin/optimize-worker.mjs' : './worker-entry.js', import.meta.url),
  );
}

/** Worker threads by default: one per core. */
export function defaultThreads(): number {
  return availableParallelism();
}

/**
 * A pool of `threads` worker threads (piscina), each decoding the recording once and running
 * many sets; a set waits in the pool's queue until a thread is free.
 */
export function createLocalPool(threads: number = defaultThreads()): SetRunner {
  const pool = new Piscina({
    filename: workerFile(),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
  });
  return {
    capacity: threads,
    run: (task) => pool.run(task) as Promise<SetOutcome>,
    close: () => pool.destroy(),
  };
}
