import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { IndicatorBank } from '../indicators/indicator-bank.ts';
import type { BarFeed } from './bar-feed.ts';
import { MAX_HISTORY, type TimeframePlan } from './bar-plan.ts';

/** A strategy's warm-up: ended at a time of its clock (ms), or still waiting for something. */
export type StrategyWarmup = { readonly endedAt: number } | { readonly waitingFor: string };

/** Closed bars of one declared timeframe that every market of a strategy needs before it trades. */
export interface WarmupNeed {
  readonly timeframe: string;
  readonly bars: number;
}

/**
 * Reads a strategy's `warmup` declaration (timeframe → closed bars needed per market).
 *
 * @throws QuantaError `QUANTA_STRATEGY_LOAD` naming the strategy, the key and the rule, for a
 *   timeframe `bars` does not declare or a count that is not a whole number from 1 to
 *   {@link MAX_HISTORY}.
 */
export function planWarmup(
  strategy: string,
  warmup: Readonly<Record<string, number>> | undefined,
  timeframes: readonly TimeframePlan[],
): WarmupNeed[] {
  if (warmup === undefined) return [];
  const problems: string[] = [];
  const needs: WarmupNeed[] = [];
  for (const [timeframe, bars] of Object.entries(warmup)) {
    if (!timeframes.some((plan) => plan.timeframe === timeframe))
      problems.push(
        `warmup.${timeframe}: not a timeframe of bars (declared: ${timeframes.map((plan) => plan.timeframe).join(', ') || 'none'})`,
      );
    else if (!Number.isSafeInteger(bars) || bars < 1 || bars > MAX_HISTORY)
      problems.push(
        `warmup.${timeframe}: closed bars needed must be a whole number from 1 to ${MAX_HISTORY}, got ${String(bars)}`,
      );
    else needs.push({ timeframe, bars });
  }
  if (problems.length > 0)
    throw new QuantaError(
      ErrorCodes.STRATEGY_LOAD,
      `strategy ${strategy} declares a warm-up it cannot have:`,
      { details: problems },
    );
  return needs;
}

/**
 * Whether a strategy instance has warmed up: every one of its markets has the closed bars its
 * `warmup` declares, and every registered indicator of every market has a value. Once it has, it
 * stays so for the run (a market listed later does not send it back to warming up).
 */
export class WarmupGate {
  readonly #needs: readonly WarmupNeed[];
  readonly #bars: BarFeed;
  readonly #indicators: IndicatorBank;
  #endedAt: number | undefined;

  constructor(needs: readonly WarmupNeed[], bars: BarFeed, indicators: IndicatorBank) {
    this.#needs = needs;
    this.#bars = bars;
    this.#indicators = indicators;
    // Nothing to wait for: warmed up from the start (time 0: before any snapshot).
    if (needs.length === 0 && indicators.empty) this.#endedAt = 0;
  }

  /** When the warm-up ended (the clock's time then; 0 for a strategy with nothing to wait for). */
  get endedAt(): number | undefined {
    return this.#endedAt;
  }

  /** True when the strategy declares something to wait for (bars or indicators). */
  get declared(): boolean {
    return this.#needs.length > 0 || !this.#indicators.empty;
  }

  /**
   * Undefined once warmed up (the end is noted at `now` the first time); else what it still
   * waits for, as a phrase: `ema(21) of ETH-USD (12 1m bars so far)`.
   */
  waitingFor(
    marketIds: readonly number[],
    symbolOf: (marketId: number) => string,
    now: number,
  ): string | undefined {
    if (this.#endedAt !== undefined) return undefined;
    if (marketIds.length === 0) return 'its markets (none listed yet)';
    for (const marketId of marketIds)
      for (const need of this.#needs) {
        const have = this.#bars.count(marketId, need.timeframe);
        if (have < need.bars)
          return `${need.bars} closed ${need.timeframe} bars of ${symbolOf(marketId)} (${have} so far)`;
      }
    const indicator = this.#indicators.waitingFor(marketIds, symbolOf);
    if (indicator !== undefined) return indicator;
    this.#endedAt = now;
    return undefined;
  }
}
