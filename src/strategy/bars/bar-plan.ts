import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { IndicatorSet, IndicatorSpec } from '../indicators/spec.ts';
import { timeframeMs } from './timeframe.ts';

/** One declared timeframe: its text, length and how many closed bars `ctx.bars` keeps. */
export interface TimeframePlan {
  readonly timeframe: string;
  readonly ms: number;
  readonly history: number;
}

/** The most bars of history one timeframe may keep per market (a year of 1-minute bars). */
export const MAX_HISTORY = 525_600;

/**
 * Reads a strategy's `bars` declaration (timeframe → bars of history) into plans ordered by
 * length, shortest first.
 *
 * @throws QuantaError `QUANTA_STRATEGY_LOAD` naming the strategy, the key and the rule, for a
 *   timeframe that is not one or a history that is not a whole number from 1 to {@link MAX_HISTORY}.
 */
export function planTimeframes(
  strategy: string,
  bars: Readonly<Record<string, number>> | undefined,
): TimeframePlan[] {
  if (bars === undefined) return [];
  const problems: string[] = [];
  const plans: TimeframePlan[] = [];
  for (const [timeframe, history] of Object.entries(bars)) {
    const ms = timeframeMs(timeframe);
    if (typeof ms === 'string') problems.push(`bars.${timeframe}: ${ms}`);
    else if (!Number.isSafeInteger(history) || history < 1 || history > MAX_HISTORY)
      problems.push(
        `bars.${timeframe}: bars of history must be a whole number from 1 to ${MAX_HISTORY}, got ${String(history)}`,
      );
    else if (plans.some((plan) => plan.ms === ms))
      problems.push(`bars.${timeframe}: the same length as another timeframe declared`);
    else plans.push({ timeframe, ms, history });
  }
  if (problems.length > 0)
    throw new QuantaError(
      ErrorCodes.STRATEGY_LOAD,
      `strategy ${strategy} declares bars it cannot have:`,
      {
        details: problems,
      },
    );
  return plans.sort((a, b) => a.ms - b.ms);
}

/**
 * Reads a strategy's registered indicators (its `indicators(params)`), checking that each is an
 * indicator of `quanta/indicators` on a declared timeframe.
 *
 * @throws QuantaError `QUANTA_STRATEGY_LOAD` naming the strategy, the indicator and the rule.
 */
export function planIndicators(
  strategy: string,
  make: ((params: unknown) => unknown) | undefined,
  params: unknown,
  timeframes: readonly TimeframePlan[],
): IndicatorSet {
  if (make === undefined) return {};
  let made: unknown;
  try {
    made = make(params);
  } catch (error) {
    if (error instanceof QuantaError)
      throw new QuantaError(
        ErrorCodes.STRATEGY_LOAD,
        `strategy ${strategy}: ${error.shortMessage}`,
        {
          cause: error,
        },
      );
    throw error;
  }
  if (typeof made !== 'object' || made === null)
    throw new QuantaError(
      ErrorCodes.STRATEGY_LOAD,
      `strategy ${strategy}: indicators must return an object of indicators by name`,
    );
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(made)) {
    const candidate = spec as Partial<IndicatorSpec> | null;
    if (typeof candidate?.create !== 'function' || typeof candidate.timeframe !== 'string')
      problems.push(`indicators.${name}: not an indicator of quanta/indicators (ema, rsi, …)`);
    else if (!timeframes.some((plan) => plan.timeframe === candidate.timeframe))
      problems.push(
        `indicators.${name}: ${candidate.label ?? 'indicator'} on ${candidate.timeframe}, which bars does not declare (declared: ${timeframes.map((plan) => plan.timeframe).join(', ') || 'none'})`,
      );
  }
  if (problems.length > 0)
    throw new QuantaError(
      ErrorCodes.STRATEGY_LOAD,
      `strategy ${strategy} registers indicators it cannot have:`,
      {
        details: problems,
      },
    );
  return made as IndicatorSet;
}
