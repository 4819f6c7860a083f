import type { StrategyWarmup } from '../strategy/bars/warmup.ts';

/** A span in ms as a reader wants it: seconds, minutes or hours. */
function span(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 120 * 60) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/**
 * One instance's warm-up as the summary and the HTML report say it: when it ended and how far
 * into the run (intents before were refused), or what it still waited for at the end.
 *
 * @example
 * describeWarmup('ema-cross', { endedAt: t0 + 1_320_000 }, t0)
 * // 'ema-cross warmed up at 2025-01-01T00:22:00.000Z, 22 min into the run; intents before were refused (WARMING_UP)'
 */
export function describeWarmup(name: string, warmup: StrategyWarmup, startedAt: number): string {
  if ('waitingFor' in warmup)
    return `${name} never warmed up: at the end it still waited for ${warmup.waitingFor}; every intent it returned was refused (WARMING_UP)`;
  return `${name} warmed up at ${new Date(warmup.endedAt).toISOString()}, ${span(Math.max(0, warmup.endedAt - startedAt))} into the run; intents before were refused (WARMING_UP)`;
}
