import { createHash } from 'node:crypto';
import type { ScheduleResult } from './run-schedule.ts';

/**
 * One name for a whole range of schedules: the SHA-256 (16 hex characters, like a trace hash)
 * of `seed traceHash` lines in seed order. Two runs of the same range on code that simulates
 * the same way give the same digest, so a range run once (and written down) can be checked by
 * anyone who runs it again with `quanta sim --seeds A-B`, without comparing 100,000 lines.
 *
 * @example
 * rangeDigest(await runSeeds({ from: 1, to: 500 })); // e.g. '3f0c9a1b2d4e5f60'
 */
export function rangeDigest(
  results: readonly Pick<ScheduleResult, 'seed' | 'traceHash'>[],
): string {
  const ordered = [...results].sort((a, b) => a.seed - b.seed);
  const hash = createHash('sha256');
  for (const { seed, traceHash } of ordered) hash.update(`${seed} ${traceHash}\n`);
  return hash.digest('hex').slice(0, 16);
}
