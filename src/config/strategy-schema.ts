import { z } from 'zod';
import { durationMs, integer, mapping, marketSymbol, nonEmptyList, oneOf, text } from './fields.ts';

/**
 * How a strategy runs: `none` in the bot's own thread (a crash or an endless allocation there
 * takes the bot down); `worker` in a worker thread with a heap limit, whose crash or out-of-memory
 * pauses that strategy and raises an alert instead.
 */
export const STRATEGY_ISOLATION = ['none', 'worker'] as const;

/**
 * Default heap limit (V8 old generation, `resourceLimits.maxOldGenerationSizeMb`) of a strategy
 * run with `isolate: worker`: room for indicators over long histories, far below what would
 * starve the bot of memory.
 */
export const DEFAULT_STRATEGY_HEAP_MB = 256;

/** One `strategies[]` entry as written (its defaults that depend on `poll` not yet filled in). */
export const strategySchema = mapping({
  module: text('expected a module path like strategies/dca.ts'),
  markets: nonEmptyList(
    marketSymbol(),
    'expected a non-empty list of market symbols like [ETH-USD]',
  ),
  params: z
    .record(z.string(), z.unknown(), { error: 'expected a mapping of strategy parameters' })
    .default(() => ({})),
  name: text('expected a non-empty name').optional(),
  /** Real-time budget of one `onSnapshot`; default {@link defaultStrategyTimeoutMs}. */
  timeoutMs: durationMs().optional(),
  /** `worker`: the strategy runs in a worker thread of its own (see `heapLimitMb`); absent: none. */
  isolate: oneOf(STRATEGY_ISOLATION).optional(),
  /** Heap limit of an isolated strategy's worker; default {@link DEFAULT_STRATEGY_HEAP_MB}. */
  heapLimitMb: integer('expected an integer number of MB from 16 to 65536', 16, 65_536).optional(),
}).superRefine((strategy, ctx) => {
  // A limit that would not apply is a mistake to say, not a setting to ignore.
  if (strategy.heapLimitMb !== undefined && strategy.isolate !== 'worker') {
    ctx.addIssue({
      code: 'custom',
      path: ['heapLimitMb'],
      message: 'applies only with isolate: worker',
    });
  }
});

/**
 * Default of `strategies[].timeoutMs`: half of `poll.intervalMs`. A strategy that hangs then
 * holds back the strategies listed after it by half an interval at most, once (it is not asked
 * again while its call is pending, and is paused after three timeouts in a row), so the others
 * still trade within the poll they were asked in. Longer is allowed: polls then wait up to that
 * long for a slow strategy, they never overlap.
 */
export function defaultStrategyTimeoutMs(pollIntervalMs: number): number {
  return Math.max(1, Math.floor(pollIntervalMs / 2));
}

/**
 * The entries with the defaults that depend on another section filled in: the timeout (from
 * `poll.intervalMs`) and, for an isolated strategy, its heap limit.
 */
export function withStrategyDefaults(
  strategies: readonly z.output<typeof strategySchema>[],
  pollIntervalMs: number,
) {
  return strategies.map(({ timeoutMs, heapLimitMb, ...strategy }) => ({
    ...strategy,
    timeoutMs: timeoutMs ?? defaultStrategyTimeoutMs(pollIntervalMs),
    ...(strategy.isolate === 'worker'
      ? { heapLimitMb: heapLimitMb ?? DEFAULT_STRATEGY_HEAP_MB }
      : {}),
  }));
}

/** One `strategies[]` entry, its module resolved and its timeout defaulted. */
export type StrategyConfig = Omit<z.output<typeof strategySchema>, 'timeoutMs'> & {
  /** Milliseconds one `onSnapshot` may take (see {@link defaultStrategyTimeoutMs}). */
  readonly timeoutMs: number;
  /** With `isolate: worker`, its heap limit in MB (default {@link DEFAULT_STRATEGY_HEAP_MB}). */
  readonly heapLimitMb?: number;
  /** Every absolute path the module was looked for at, in order (for a "not found" error). */
  readonly searched?: readonly string[];
};
