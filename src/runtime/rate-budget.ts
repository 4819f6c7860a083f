import type { Config } from '../config/index.ts';
import { budgetKey, redisLabel } from '../execution/rate-budget/budget-key.ts';
import { LocalRateBudget } from '../execution/rate-budget/local-rate-budget.ts';
import { pollReserve } from '../execution/rate-budget/poll-reserve.ts';
import type { RateBudget } from '../execution/rate-budget/rate-budget.ts';
import { RedisRateBudget } from '../execution/rate-budget/redis-rate-budget.ts';
import type { Logger } from '../log/logger.ts';

/** What {@link openRateBudget} needs. */
export interface OpenRateBudgetOptions {
  readonly config: Pick<Config, 'execution' | 'venue' | 'poll'>;
  /** The venue's write URL as resolved (the embedded paper venue's included). */
  readonly writeUrl: string;
  /** The wallet the bot trades for: with the venue's write URL, the key of a shared budget. */
  readonly walletAddress: string;
  /** The monotonic clock (`Clock.monotonic`): slots are held for durations, never wall time. */
  readonly monotonic: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly log: Logger;
}

/**
 * The bot's rate budget from `execution.rateBudget`: this process's own (`local`), or the one
 * in Redis that every process trading with the same venue and wallet shares. Orders, polls and
 * order lookups all take its permits (polls unless `execution.countPolls` is false).
 */
export async function openRateBudget(options: OpenRateBudgetOptions): Promise<RateBudget> {
  const { execution, venue } = options.config;
  const { requests, perMs } = execution.rateLimit;
  const common = {
    requests,
    perMs,
    countPolls: execution.countPolls,
    now: options.monotonic,
    sleep: options.sleep,
  };
  if (execution.rateBudget === 'local')
    return new LocalRateBudget({ ...common, pollReserve: pollReserveOf(options.config) });
  const log = options.log.child({ part: 'rate-budget' });
  const budget = await RedisRateBudget.open({
    ...common,
    url: execution.rateBudget,
    key: budgetKey(options.writeUrl, venue.brokerId, options.walletAddress),
    expectedProcesses: execution.expectedProcesses ?? 1,
    leaseMarginMs: execution.leaseMarginMs,
    log,
  });
  log.info(
    { redis: redisLabel(execution.rateBudget), mode: budget.status().mode, requests, perMs },
    'shared rate budget',
  );
  return budget;
}

/**
 * The slots the bot's polls keep for themselves (see `pollReserve`), and so what its strategies
 * share: `execution.rateLimit.requests` minus this.
 */
export function pollReserveOf(config: Pick<Config, 'execution' | 'poll'>): number {
  return pollReserve({
    requests: config.execution.rateLimit.requests,
    perMs: config.execution.rateLimit.perMs,
    pollIntervalMs: config.poll.intervalMs,
    permitsPerPoll: config.poll.quotes ? 2 : 1,
    countPolls: config.execution.countPolls,
  });
}

/**
 * The trading stack's rate settings from the config: the one derivation `quanta run` and
 * `quanta sim` share (orders get what the polls leave, see {@link pollReserveOf}).
 */
export function stackRateOf(config: Pick<Config, 'execution' | 'poll'>): {
  readonly requests: number;
  readonly perMs: number;
  readonly concurrency: number;
  readonly maxAttempts: number;
  readonly orderShare: number;
} {
  const { rateLimit, concurrency, maxAttempts } = config.execution;
  return {
    requests: rateLimit.requests,
    perMs: rateLimit.perMs,
    concurrency,
    maxAttempts,
    orderShare: rateLimit.requests - pollReserveOf(config),
  };
}
