import { stderr } from 'node:process';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { createLocalPool, defaultThreads } from '../optimize/local-pool.ts';
import { startQueueWorker } from '../optimize/queue.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';

/**
 * `quanta worker`: takes parameter sets of `quanta optimize --queue` sweeps from the BullMQ queue
 * and runs them on a pool of worker threads (every core by default), until SIGINT or SIGTERM,
 * which let the sets in progress finish first. It needs to read the sweep's config, strategies
 * and recording at the same paths (or the recording's URL).
 */
export async function run({ flags }: CommandInput<typeof COMMANDS.worker>): Promise<number> {
  const usage = (message: string): QuantaError => new QuantaError(ErrorCodes.USAGE, message);
  const number = (text: string | undefined, flag: string, fallback: number): number => {
    if (text === undefined) return fallback;
    if (!/^\d+$/.test(text) || Number(text) < 1)
      throw usage(`${flag} expects a whole number >= 1, got ${JSON.stringify(text)}`);
    return Number(text);
  };
  const threads = number(flags.threads, '--threads', defaultThreads());
  const lockMs = number(flags['lock-ms'], '--lock-ms', 0);
  const pool = createLocalPool(threads);
  let worker;
  try {
    worker = await startQueueWorker({
      url: flags.queue,
      runner: pool,
      lockMs,
      onJob: (id) => stderr.write(`worker: running ${id}\n`),
    });
  } catch (error) {
    await pool.close();
    throw error;
  }
  stderr.write(`worker: ready, ${threads} threads\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  stderr.write(`worker: ${signal}, finishing the sets in progress\n`);
  await worker.close();
  await pool.close();
  return signal === 'SIGINT' ? 130 : 0;
}
