import { ErrorCodes, isQuantaError } from '../errors/index.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { parseDecimalToX18 } from '../money/index.ts';
import type { StrategyContext } from './define-strategy.ts';
import type { Fill, OrderIntent } from '../domain/index.ts';
import { TIMED_OUT } from './strategy-timer.ts';
import type { Bar } from './bars/bar.ts';
import type { BarChart, BarChartRecorder } from './bars/bar-chart.ts';
import type { BarFeed } from './bars/bar-feed.ts';
import { strategyBars } from './bars/strategy-bars.ts';
import { planIndicators, planTimeframes } from './bars/bar-plan.ts';
import type { WarmupGate } from './bars/warmup.ts';
import {
  describeIndicators,
  firstLine,
  gather,
  isPromiseLike,
  marketOf,
  validIntents,
} from './host-answers.ts';
import { HostContext } from './host-context.ts';
import { HostDeadline } from './host-deadline.ts';
import type { StrategyHostOptions } from './host-options.ts';

export type { PositionFacts, StrategyHostOptions } from './host-options.ts';

/**
 * Runs one strategy instance in isolation: a strategy that throws (or returns garbage) is
 * logged and, after repeated failures, paused, while the others keep running.
 *
 * An `onSnapshot` whose promise is still pending `timeoutMs` after the call is abandoned for
 * that snapshot (no intents), counted and logged (host-deadline.ts says how, and why the
 * deadline is a real-time timer in every mode).
 */
export class StrategyHost {
  readonly name: string;
  readonly #options: StrategyHostOptions;
  readonly #maxFailures: number;
  #failures = 0;
  /** Every failure since start (the streak that pauses it is `#failures`). */
  #errors = 0;
  /** The `onSnapshot` deadline, its timeouts and the call it abandoned. */
  readonly #deadline: HostDeadline;
  #paused = false;
  #pauseReason: string | undefined;
  #state: unknown = undefined;
  /** The params in effect (`ctx.params`): the configured ones until {@link setParams}. */
  #params: unknown;
  /** The `onSnapshot` call under way, until it has answered (a params change waits for it). */
  #turn: Promise<unknown> = Promise.resolve();
  /** Its markets and the `ctx` its hooks get. */
  readonly #view: HostContext;
  /** The strategy's declared bars, built from every snapshot (even while it is paused). */
  readonly #bars: BarFeed;
  /** What the strategy needs before its intents are accepted. */
  readonly #warmup: WarmupGate;
  /** The candles and indicator values the backtest report draws (`chartBars`), if kept. */
  readonly #chart: BarChartRecorder | undefined;

  constructor(options: StrategyHostOptions) {
    this.name = options.name;
    this.#options = options;
    this.#maxFailures = options.maxConsecutiveFailures ?? 5;
    this.#deadline = new HostDeadline({
      name: options.name,
      log: options.log,
      timeoutMs: options.timeoutMs,
      startTimer: options.startTimer,
      maxTimeouts: options.maxConsecutiveTimeouts ?? 3,
      pause: (reason) => this.#pause(reason),
    });
    const { strategy, name, params } = options;
    this.#params = params;
    const made = strategyBars(name, strategy, params, options.chartBars === true);
    const indicators = made.indicators;
    [this.#bars, this.#warmup, this.#chart] = [made.bars, made.warmup, made.chart];
    this.#view = new HostContext(options, this.#bars, indicators);
  }

  /**
   * When the strategy's warm-up ended (the clock's time: virtual in a backtest), 0 when it
   * declares nothing to wait for, undefined while it is still warming up.
   */
  get warmedUpAt(): number | undefined {
    return this.#warmup.endedAt;
  }

  /** True when the strategy declares a warm-up (`warmup` bars or registered indicators). */
  get warmupDeclared(): boolean {
    return this.#warmup.declared;
  }

  /** What the strategy still waits for before it may trade, or undefined once warmed up. */
  warmingUpFor(): string | undefined {
    return this.#warmup.waitingFor(this.#view.marketIds, this.#view.symbolOf, this.#options.now());
  }

  /**
   * Feeds one snapshot of history (`quanta run --warmup`) to the strategy's bars and indicators
   * only: the bars it closes are committed (`ctx.bars`, indicators), no hook is called and
   * nothing is traded. History comes in time order, before the first live snapshot.
   */
  preload(snapshot: Snapshot): void {
    if (this.#bars.empty) return;
    this.#view.resolveMarkets(snapshot);
    this.#bars.update(snapshot, this.#view.marketIds);
    while (this.#bars.next() !== undefined);
  }

  /** True once the strategy failed or timed out too often in a row; it gets no more snapshots. */
  get paused(): boolean {
    return this.#paused;
  }

  /** Why the strategy is paused (one line), undefined while it runs. */
  get pauseReason(): string | undefined {
    return this.#pauseReason;
  }

  /** Pauses the strategy: it gets no more snapshots or fills until resumed. */
  #pause(reason: string): void {
    this.#paused = true;
    this.#pauseReason = reason;
    const onPause = this.#options.onPause;
    if (onPause === undefined) return;
    // Owned here: a failure to end a worker is logged, never unhandled.
    onPause().catch((error: unknown) =>
      this.#options.log.error({ err: error, strategy: this.name }, 'ending the strategy failed'),
    );
  }

  /**
   * Gives a paused strategy snapshots again (`POST /strategies/{name}/resume`), its failure and
   * timeout streaks forgotten. Returns false when it was not paused.
   */
  resume(): boolean {
    if (!this.#paused) return false;
    this.#paused = false;
    this.#pauseReason = undefined;
    this.#failures = 0;
    this.#deadline.answered();
    this.#options.log.info({ strategy: this.name }, `strategy ${this.name} resumed`);
    return true;
  }

  /**
   * The closed bars of its first declared timeframe in its first market, oldest first (what the
   * live page charts); empty for a strategy without bars.
   */
  chartBars(): readonly Bar[] {
    const timeframe = this.#bars.timeframes[0]?.timeframe;
    const marketId = this.#view.marketIds[0];
    if (timeframe === undefined || marketId === undefined) return [];
    return this.#bars.bars(marketId, timeframe) ?? [];
  }

  /** The candles of its bars and its indicators per market, when kept (`chartBars`). */
  barCharts(): readonly BarChart[] {
    return this.#chart?.charts() ?? [];
  }

  /** The params in effect, as the strategy's schema parsed them. */
  get params(): unknown {
    return this.#params;
  }

  /**
   * Puts new params (already parsed by the strategy's schema) in effect between two snapshots:
   * after the `onSnapshot` call under way, if any, has answered. The strategy's state is kept
   * (the same object); its `onParams` hook, if any, sees the previous and the new params and
   * may refuse them by throwing, which puts the previous ones back.
   *
   * @throws Error saying why, when the change is refused: the strategy runs in a worker, the
   *   new params would make other indicators (made once at load), or `onParams` threw. Nothing
   *   has changed then.
   */
  async setParams(params: unknown): Promise<void> {
    const { strategy, name, paramsFixed } = this.#options;
    if (paramsFixed !== undefined) throw new Error(paramsFixed);
    if (strategy.indicators !== undefined) {
      const timeframes = planTimeframes(name, strategy.bars);
      const before = describeIndicators(
        planIndicators(name, strategy.indicators.bind(strategy), this.#params, timeframes),
      );
      const after = describeIndicators(
        planIndicators(name, strategy.indicators.bind(strategy), params, timeframes),
      );
      if (before !== after)
        throw new Error(
          `these params change the strategy's indicators (${before} → ${after}), which are made once at load: restart the bot to change them`,
        );
    }
    await this.#turn.catch(() => undefined);
    const previous = this.#params;
    this.#params = params;
    if (strategy.onParams === undefined) return;
    try {
      await strategy.onParams({ previous, params }, this.#view.build(this.#params, this.#state));
    } catch (error) {
      this.#params = previous;
      throw new Error(`onParams refused the change: ${firstLine(error)}`, { cause: error });
    }
  }

  /** Calls of `onSnapshot` or `onFill` that threw (or returned something unusable), since start. */
  get errors(): number {
    return this.#errors;
  }

  /** Snapshots abandoned because `onSnapshot` did not answer within `timeoutMs`, since start. */
  get timeouts(): number {
    return this.#deadline.timeouts;
  }

  /** Runs `init`. A failing init pauses the strategy (logged), it does not stop the bot. */
  async start(): Promise<void> {
    const strategy = this.#options.strategy;
    if (strategy.init === undefined) return;
    try {
      this.#state = await strategy.init(this.#view.build(this.#params, this.#state));
    } catch (error) {
      this.#pause(`init failed: ${firstLine(error)}`);
      this.#options.log.error(
        { err: error, strategy: this.name },
        'strategy init failed; strategy paused',
      );
    }
  }

  /**
   * Asks the strategy for intents. Never throws: failures and timeouts are counted and logged,
   * and resolve to no intents.
   */
  onSnapshot(snapshot: Snapshot): Promise<readonly OrderIntent[]> {
    const answer = this.#onSnapshot(snapshot);
    this.#turn = answer;
    return answer;
  }

  async #onSnapshot(snapshot: Snapshot): Promise<readonly OrderIntent[]> {
    // Bars are built from every snapshot, whatever the strategy's state, so they stay true to
    // the market (a paused strategy resumes with the bars it would have had).
    if (!this.#bars.empty) {
      this.#view.resolveMarkets(snapshot);
      this.#bars.update(snapshot, this.#view.marketIds);
    }
    if (this.#paused) {
      while (this.#bars.next() !== undefined);
      return [];
    }
    if (this.#deadline.busy) {
      this.#deadline.timedOut(snapshot, 'skipped');
      return [];
    }
    this.#view.resolveMarkets(snapshot);
    this.#view.snapshot = snapshot;
    try {
      let returned: unknown = this.#ask(snapshot);
      // Only a pending promise needs a deadline; an array returned at once arms no timer.
      if (isPromiseLike(returned)) {
        const answer = await this.#deadline.within(returned, snapshot);
        if (answer === TIMED_OUT) return [];
        returned = answer;
      }
      const intents = validIntents(returned, this.#invalid);
      this.#failures = 0;
      this.#deadline.answered();
      return intents;
    } catch (error) {
      this.#fail(error, 'onSnapshot');
      return [];
    }
  }

  /**
   * Calls `onBar` for each bar this snapshot closed (committing each just before), then
   * `onSnapshot`, and gathers what they returned; stays synchronous until a hook returns a
   * promise.
   */
  #ask(snapshot: Snapshot): unknown[] | Promise<unknown[]> {
    const strategy = this.#options.strategy;
    const context = this.#view.build(this.#params, this.#state);
    const out: unknown[] = [];
    for (let bar = this.#bars.next(); bar !== undefined; bar = this.#bars.next()) {
      if (strategy.onBar === undefined) continue;
      const returned = strategy.onBar(bar, context);
      if (isPromiseLike(returned)) return this.#askLater(returned, out, snapshot, context);
      this.#gather(out, returned, 'onBar');
    }
    if (strategy.onSnapshot === undefined) return out;
    const returned: unknown = strategy.onSnapshot(snapshot, context);
    if (isPromiseLike(returned))
      return Promise.resolve(returned).then((value) => this.#gather(out, value, 'onSnapshot'));
    return this.#gather(out, returned, 'onSnapshot');
  }

  /**
   * {@link gather}, once the strategy has warmed up; before that, what the hook returned is
   * refused, each intent told to `onWarmingUp` with what the strategy still waits for. The
   * warm-up is judged when the hook answers: after the bars it was given were committed.
   */
  #gather(out: unknown[], returned: unknown, hook: 'onBar' | 'onSnapshot'): unknown[] {
    const waiting = this.warmingUpFor();
    if (waiting === undefined) return gather(out, returned, hook);
    const early = gather([], returned, hook);
    for (const candidate of early) {
      const symbol = marketOf(candidate, this.#view.symbolOf);
      const detail = `strategy ${this.name} is warming up: it waits for ${waiting}; ${symbol === undefined ? 'an intent' : `an intent on ${symbol}`} from ${hook} before the end of its warm-up`;
      if (this.#options.onWarmingUp !== undefined) this.#options.onWarmingUp(detail);
      else
        this.#options.log.warn(
          { strategy: this.name, reason: 'WARMING_UP', detail },
          `intent refused: ${detail}`,
        );
    }
    return out;
  }

  /** The rest of {@link #ask} once a hook returned a promise. */
  async #askLater(
    pending: PromiseLike<unknown>,
    out: unknown[],
    snapshot: Snapshot,
    context: StrategyContext<unknown, unknown>,
  ): Promise<unknown[]> {
    const strategy = this.#options.strategy;
    this.#gather(out, await pending, 'onBar');
    for (let bar = this.#bars.next(); bar !== undefined; bar = this.#bars.next())
      if (strategy.onBar !== undefined)
        this.#gather(out, await strategy.onBar(bar, context), 'onBar');
    if (strategy.onSnapshot !== undefined)
      this.#gather(out, await strategy.onSnapshot(snapshot, context), 'onSnapshot');
    return out;
  }

  /** Tells the caller (or the log) about a returned value that is not a valid intent. */
  readonly #invalid = (detail: string, candidate: unknown): void => {
    if (this.#options.onInvalidIntent !== undefined) {
      this.#options.onInvalidIntent(detail, candidate);
    } else {
      this.#options.log.warn(
        { strategy: this.name, reason: 'INVALID_INTENT', detail },
        `intent refused: ${detail}`,
      );
    }
  };

  /** Passes a fill to the strategy's `onFill`. */
  async onFill(fill: Fill): Promise<void> {
    const strategy = this.#options.strategy;
    if (!this.#bars.empty) this.#bars.addVolume(fill.marketId, parseDecimalToX18(fill.amount));
    if (strategy.onFill === undefined || this.#paused) return;
    try {
      await strategy.onFill(fill, this.#view.build(this.#params, this.#state));
    } catch (error) {
      this.#fail(error, 'onFill');
    }
  }

  /** Runs `stop`; failures are logged. */
  async stop(): Promise<void> {
    const strategy = this.#options.strategy;
    if (strategy.stop === undefined) return;
    try {
      await strategy.stop(this.#view.build(this.#params, this.#state));
    } catch (error) {
      this.#options.log.error({ err: error, strategy: this.name }, 'strategy stop failed');
    }
  }

  #fail(error: unknown, phase: string): void {
    this.#failures += 1;
    this.#errors += 1;
    // A dead worker (isolate: worker) will not get better by being asked again: paused at once.
    if (isQuantaError(error, ErrorCodes.STRATEGY_CRASHED)) {
      this.#pause(error.shortMessage);
      this.#options.log.error(
        { err: error, strategy: this.name, phase },
        `${error.shortMessage}; strategy paused`,
      );
      return;
    }
    this.#options.log.error(
      { err: error, strategy: this.name, phase, failures: this.#failures },
      `strategy ${this.name} threw in ${phase}`,
    );
    if (this.#failures >= this.#maxFailures) {
      this.#pause(`${this.#failures} failures in a row`);
      this.#options.log.error(
        { strategy: this.name, failures: this.#failures },
        `strategy ${this.name} paused after ${this.#failures} failures in a row`,
      );
    }
  }
}
