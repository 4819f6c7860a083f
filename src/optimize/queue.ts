import { Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { SetRunner } from './local-pool.ts';
import type { SetOutcome, SetTask } from './run-set.ts';
import { systemTimer } from '../clock/timers.ts';

/** The BullMQ queue sweeps put their sets on. */
export const QUEUE_NAME = 'quanta-optimize';
/** Finished jobs are kept this long, so a restarted sweep finds what ran while it was down. */
const KEEP_SECONDS = 7 * 24 * 3600;

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A connection for BullMQ (its blocking commands need `maxRetriesPerRequest: null`), checked with
 * a PING first: a wrong address fails in seconds instead of retrying for ever.
 *
 * @throws QuantaError `QUANTA_QUEUE_UNREACHABLE` naming host and port (never a password in the
 *   URL) and the last connection error when redis does not answer.
 */
async function connect(url: string): Promise<Redis> {
  let where = url;
  try {
    const { hostname, port } = new URL(url);
    where = `${hostname}:${port || '6379'}`;
  } catch {
    throw new QuantaError(ErrorCodes.USAGE, '--queue expects a URL like redis://HOST:PORT');
  }
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  let lastError = 'no answer';
  // Connection errors are retried by ioredis; the last one is kept for the message.
  connection.on('error', (error: Error) => {
    lastError = error.message;
  });
  let cancelTimer: (() => void) | undefined;
  try {
    await Promise.race([
      connection.ping(),
      new Promise((_, reject) => {
        cancelTimer = systemTimer(CONNECT_TIMEOUT_MS, () => reject(new Error('timeout')));
      }),
    ]);
  } catch (cause) {
    connection.disconnect();
    throw new QuantaError(
      ErrorCodes.QUEUE_UNREACHABLE,
      `queue: redis at ${where} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s (${lastError})`,
      { cause, details: ['Check --queue and that redis-server runs there.'] },
    );
  } finally {
    cancelTimer?.();
  }
  return connection;
}

/** A job id per sweep and set: adding a set twice (a resumed sweep) adds it once. */
export function jobIdOf(task: SetTask): string {
  return `${task.sweep}-${task.key}`.replace(/[:/]/g, '-');
}

/**
 * Runs sets on a BullMQ queue at `url`: every set becomes a job (its id derived from the sweep
 * and the set, so a resumed sweep does not add it twice), and its result comes back through the
 * queue from whichever `quanta worker` ran it. All sets are queued at once so any number of
 * workers can take them.
 */
export async function createQueueRunner(url: string): Promise<SetRunner> {
  const connection = await connect(url);
  const eventsConnection = await connect(url);
  const queue = new Queue(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection: eventsConnection });
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  // Every queued set adds and waits with its own listeners, all at once.
  queue.setMaxListeners(0);
  events.setMaxListeners(0);
  return {
    capacity: 100_000,
    async run(task: SetTask): Promise<SetOutcome> {
      const job = await queue.add('set', task, {
        jobId: jobIdOf(task),
        attempts: 1,
        removeOnComplete: { age: KEEP_SECONDS },
        removeOnFail: { age: KEEP_SECONDS },
      });
      try {
        return (await job.waitUntilFinished(events)) as SetOutcome;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { key: task.key, setId: task.setId, metrics: null, error: message };
      }
    },
    async close() {
      await events.close();
      await queue.close();
      connection.disconnect();
      eventsConnection.disconnect();
    },
  };
}

/** Options of {@link startQueueWorker}. */
export interface QueueWorkerOptions {
  readonly url: string;
  /** Runs each set (a local pool: the work stays off this thread, so locks keep renewing). */
  readonly runner: SetRunner;
  /**
   * How long a job's lock lasts without renewal; a worker that dies holding a job loses it to
   * another after about this long (BullMQ's stalled-job check runs at the same interval).
   */
  readonly lockMs?: number;
  readonly onJob?: (id: string) => void;
}

/**
 * A BullMQ worker taking sets from the queue at `url` and running them on `runner`, as many at
 * once as the runner's capacity. A job whose worker died (its lock expired) is moved back to the
 * queue by the stalled-job check of any live worker and run again there.
 */
export async function startQueueWorker(
  options: QueueWorkerOptions,
): Promise<{ close(): Promise<void> }> {
  const connection = await connect(options.url);
  const lockDuration = options.lockMs ?? 30_000;
  const worker = new Worker(
    QUEUE_NAME,
    async (job) => {
      options.onJob?.(job.id ?? '');
      return options.runner.run(job.data as SetTask);
    },
    {
      connection,
      concurrency: Math.max(1, options.runner.capacity),
      lockDuration,
      stalledInterval: lockDuration,
      // A set is deterministic: running it again after a crash is always safe.
      maxStalledCount: 10,
    },
  );
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}
