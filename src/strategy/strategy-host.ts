import { ErrorCodes, isQuantaError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { formatX18, parseDecimalToX18 } from '../money/index.ts';
import type { Strategy, StrategyContext, StrategyStore } from './define-strategy.ts';
import type { ExitSpec, Fill, OpenOrder, OrderIntent } from '../domain/index.ts';
import { checkOrderIntentFast, orderIntentSchema } from '../domain/intent-schema.ts';
import { raceDeadline, realTimer, TIMED_OUT, type StartTimer } from './strategy-timer.ts';
import type { Bar } from './bars/bar.ts';
import { BarFeed } from './bars/bar-feed.ts';
import { planIndicators, planTimeframes } from './bars/bar-plan.ts';
import { IndicatorBank } from './indicators/indicator-bank.ts';

/** What a host needs to run one strategy instance; everything outside comes in as functions. */
export interface StrategyHostOptions {
  readonly strategy: Strategy;
  readonly name: string;
  /** Params already parsed by the strategy's schema. */
  readonly params: unknown;
  readonly symbols: readonly string[];
  readonly now: () => number;
  readonly log: Logger;
  readonly store: StrategyStore;
  readonly positionOf: (marketId: number) => bigint;
  readonly openOrders: () => readonly OpenOrder[];
  /**
   * Told about every returned value that is not a valid intent (counted and logged by the
   * caller, throttled); without it each one is logged here.
   */
  readonly onInvalidIntent?: (detail: string, candidate: unknown) => void;
  /** Failures in a row after which the strategy is paused (default 5). */
  readonly maxConsecutiveFailures?: number;
  /**
   * How long one `onSnapshot` may keep its promise pending before that snapshot is abandoned
   * (`strategies[].timeoutMs`); without it the host waits as long as the strategy takes.
   */
  readonly timeoutMs?: number | undefined;
  /** Starts the deadline timer; default `setTimeout`. */
  readonly startTimer?: StartTimer | undefined;
  /** Timeouts in a row after which the strategy is paused (default 3). */
  readonly maxConsecutiveTimeouts?: number | undefined;
  /** What `ctx.entryPrice`, `ctx.unrealizedPnl` and `ctx.equity` read; absent: they are undefined. */
  readonly facts?: PositionFacts | undefined;
  /** Where `ctx.setExits` and `ctx.exits` go; absent: they do nothing / say undefined. */
  readonly exits?:
    | {
        get(marketId: number): ExitSpec | undefined;
        set(marketId: number, exits: ExitSpec | null): void;
      }
    | undefined;
  /** Told about every `ctx.plot` point (value as a decimal string), with the time it was drawn. */
  readonly onPlot?: ((name: string, value: string, at: number) => void) | undefined;
  /** Told when the strategy is paused (a strategy in a worker thread has its worker ended). */
  readonly onPause?: (() => Promise<void>) | undefined;
  /** Why its params cannot change while it runs (`isolate: worker`); absent: they can. */
  readonly paramsFixed?: string | undefined;
}

/** A strategy's position facts as the executor knows them (x18). */
export interface PositionFacts {
  /** Average entry price of the strategy's position (0 when flat). */
  entryPriceX18(marketId: number): bigint;
  /** The strategy's unrealized PnL at the marks of `snapshot` (undefined without a mark). */
  unrealizedPnlX18(marketId: number, snapshot: Snapshot): bigint | undefined;
  /** The account's equity at the marks of `snapshot` (undefined where not known). */
  equityX18(snapshot: Snapshot): bigint | undefined;
}

const PLOT_VALUE = /^-?\d+(\.\d+)?$/;

/** A plotted value as a decimal string, or undefined when it is not a finite number. */
function plotValue(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    const text = String(value);
    return PLOT_VALUE.test(text) ? text : value.toFixed(20).replace(/\.?0+$/, '');
  }
  return typeof value === 'string' && PLOT_VALUE.test(value) ? value : undefined;
}

/**
 * Runs one strategy instance in isolation: a strategy that throws (or returns garbage) is
 * logged and, after repeated failures, paused, while the others keep running.
 *
 * An `onSnapshot` whose promise is still pending `timeoutMs` after the call is abandoned for
 * that snapshot (no intents), counted and logged; while it stays pending the strategy is not
 * called again (it may not be reentrant), and each snapshot it misses counts as another timeout,
 * so a strategy that hangs for good is paused after `maxConsecutiveTimeouts` snapshots and costs
 * the others at most one timeout. The deadline is a real-time timer in every mode, backtests
 * included: virtual time does not move while a strategy is thinking, so only a real timer can
 * end a promise that never settles. It fires on a timer turn of the event loop, after every
 * pending promise job, so a strategy that settles without waiting for I/O or timers (every
 * strategy that only computes, sync or async) can never time out, however slow the machine:
 * backtests stay deterministic. Synchronous work cannot be interrupted at all; the deadline
 * only bounds waiting.
 */
export class StrategyHost {
  readonly name: string;
  readonly #options: StrategyHostOptions;
  readonly #maxFailures: number;
  readonly #maxTimeouts: number;
  #failures = 0;
  #timeouts = 0;
  /** Every failure since start (the streak that pauses it is `#failures`). */
  #errors = 0;
  #timeoutsInRow = 0;
  /** The abandoned `onSnapshot` call, until it settles. */
  #late: Promise<void> | undefined;
  #paused = false;
  #pauseReason: string | undefined;
  #state: unknown = undefined;
  /** The params in effect (`ctx.params`): the configured ones until {@link setParams}. */
  #params: unknown;
  /** The `onSnapshot` call under way, until it has answered (a params change waits for it). */
  #turn: Promise<unknown> = Promise.resolve();
  #marketIds: number[] = [];
  /** The last `ctx.position` text of each market and the amount it was formatted from. */
  readonly #positions = new Map<number, { readonly x18: bigint; readonly text: string }>();
  #marketsSeen: Snapshot['markets'] | undefined;
  /** The latest snapshot handed to the strategy: what its position facts are valued at. */
  #snapshot: Snapshot | undefined;
  #symbolsSeen = new Set<string>();
  /** The strategy's declared bars, built from every snapshot (even while it is paused). */
  readonly #bars: BarFeed;
  /** The registered indicators, updated as each bar is committed. */
  readonly #indicators: IndicatorBank;

  constructor(options: StrategyHostOptions) {
    this.name = options.name;
    this.#options = options;
    this.#maxFailures = options.maxConsecutiveFailures ?? 5;
    this.#maxTimeouts = options.maxConsecutiveTimeouts ?? 3;
    const { strategy, name, params } = options;
    this.#params = params;
    const timeframes = planTimeframes(name, strategy.bars);
    const indicators = new IndicatorBank(
      planIndicators(name, strategy.indicators?.bind(strategy), params, timeframes),
    );
    this.#indicators = indicators;
    this.#bars = new BarFeed(
      timeframes,
      indicators.empty ? undefined : (closed) => indicators.update(closed),
    );
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
    this.#timeoutsInRow = 0;
    this.#options.log.info({ strategy: this.name }, `strategy ${this.name} resumed`);
    return true;
  }

  /**
   * The closed bars of its first declared timeframe in its first market, oldest first (what the
   * live page charts); empty for a strategy without bars.
   */
  chartBars(): readonly Bar[] {
    const timeframe = this.#bars.timeframes[0]?.timeframe;
    const marketId = this.#marketIds[0];
    if (timeframe === undefined || marketId === undefined) return [];
    return this.#bars.bars(marketId, timeframe) ?? [];
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
      await strategy.onParams({ previous, params }, this.#context());
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
    return this.#timeouts;
  }

  // `ctx.position` as text, formatted again only when the amount changed (strategies ask for it
  // on every snapshot; it changes with fills).
  #positionText(marketId: number): string {
    const x18 = this.#options.positionOf(marketId);
    const last = this.#positions.get(marketId);
    if (last !== undefined && last.x18 === x18) return last.text;
    const text = formatX18(x18);
    this.#positions.set(marketId, { x18, text });
    return text;
  }

  // The context's functions, made once (a fresh context object is still built for every call).
  readonly #position = (marketId: number): string => this.#positionText(marketId);
  readonly #entryPrice = (marketId: number): string | undefined => {
    const price = this.#options.facts?.entryPriceX18(marketId) ?? 0n;
    return price === 0n ? undefined : formatX18(price);
  };
  readonly #unrealizedPnl = (marketId: number): string | undefined => {
    const snapshot = this.#snapshot;
    if (snapshot === undefined) return undefined;
    const pnl = this.#options.facts?.unrealizedPnlX18(marketId, snapshot);
    return pnl === undefined ? undefined : formatX18(pnl);
  };
  readonly #equity = (): string | undefined => {
    const snapshot = this.#snapshot;
    const equity = snapshot === undefined ? undefined : this.#options.facts?.equityX18(snapshot);
    return equity === undefined ? undefined : formatX18(equity);
  };
  readonly #setExits = (marketId: number, exits: ExitSpec | null): void =>
    this.#options.exits?.set(marketId, exits);
  readonly #exits = (marketId: number): ExitSpec | undefined => this.#options.exits?.get(marketId);
  readonly #plot = (name: string, value: number | string): void => {
    const options = this.#options;
    const text = plotValue(value);
    if (typeof name !== 'string' || name === '' || name.length > 64 || text === undefined) {
      options.log.warn(
        { plot: String(name).slice(0, 64) },
        'ctx.plot ignored: expected a name of 1 to 64 characters and a finite number or decimal string',
      );
      return;
    }
    options.log.debug({ plot: name, value: text }, 'plot');
    options.onPlot?.(name, text, options.now());
  };

  readonly #barsOf = (market: number | string, timeframe: string): readonly Bar[] => {
    const marketId = typeof market === 'number' ? market : this.#idOf(market);
    const bars = this.#bars.bars(marketId ?? -1, timeframe);
    if (bars === undefined) {
      const declared = this.#bars.timeframes.map((plan) => plan.timeframe).join(', ');
      throw new RangeError(
        `ctx.bars: timeframe ${timeframe} is not declared in the bars of strategy ${this.name} (declared: ${declared === '' ? 'none' : declared})`,
      );
    }
    return bars;
  };

  readonly #indicatorsOf = (market: number | string): Record<string, never> => {
    const marketId = typeof market === 'number' ? market : this.#idOf(market);
    if (marketId === undefined)
      throw new RangeError(`ctx.indicators: ${market} is not a market of strategy ${this.name}`);
    return this.#indicators.views(marketId) as Record<string, never>;
  };

  /** The id of one of the strategy's markets by symbol, or undefined. */
  #idOf(symbol: string): number | undefined {
    for (const id of this.#marketIds) if (this.#marketsSeen?.get(id)?.symbol === symbol) return id;
    return undefined;
  }

  #context(): StrategyContext<unknown, unknown> {
    const options = this.#options;
    return {
      name: this.name,
      params: this.#params,
      symbols: options.symbols,
      marketIds: this.#marketIds,
      position: this.#position,
      entryPrice: this.#entryPrice,
      unrealizedPnl: this.#unrealizedPnl,
      equity: this.#equity,
      setExits: this.#setExits,
      exits: this.#exits,
      openOrders: options.openOrders,
      now: options.now,
      log: options.log,
      store: options.store,
      state: this.#state,
      plot: this.#plot,
      bars: this.#barsOf,
      indicators: this.#indicatorsOf,
    };
  }

  /** Runs `init`. A failing init pauses the strategy (logged), it does not stop the bot. */
  async start(): Promise<void> {
    const strategy = this.#options.strategy;
    if (strategy.init === undefined) return;
    try {
      this.#state = await strategy.init(this.#context());
    } catch (error) {
      this.#pause(`init failed: ${firstLine(error)}`);
      this.#options.log.error(
        { err: error, strategy: this.name },
        'strategy init failed; strategy paused',
      );
    }
  }

  #resolveMarkets(snapshot: Snapshot): void {
    if (this.#marketsSeen === snapshot.markets) return;
    this.#marketsSeen = snapshot.markets;
    const wanted = new Set(this.#options.symbols);
    this.#marketIds = [];
    const found = new Set<string>();
    for (const market of snapshot.markets.values()) {
      if (!wanted.has(market.symbol)) continue;
      this.#marketIds.push(market.id);
      found.add(market.symbol);
    }
    // Start-up checked every symbol is listed; one that vanishes later is worth a line (once).
    for (const symbol of this.#symbolsSeen) {
      if (found.has(symbol)) continue;
      this.#options.log.warn(
        { strategy: this.name, symbol },
        `market ${symbol} is no longer listed by the venue; strategy ${this.name} sees it no more`,
      );
    }
    for (const symbol of found) {
      if (this.#symbolsSeen.size > 0 && !this.#symbolsSeen.has(symbol))
        this.#options.log.info({ strategy: this.name, symbol }, `market ${symbol} is listed again`);
    }
    this.#symbolsSeen = found;
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
      this.#resolveMarkets(snapshot);
      this.#bars.update(snapshot, this.#marketIds);
    }
    if (this.#paused) {
      while (this.#bars.next() !== undefined);
      return [];
    }
    if (this.#late !== undefined) {
      this.#timedOut(snapshot, 'skipped');
      return [];
    }
    this.#resolveMarkets(snapshot);
    this.#snapshot = snapshot;
    try {
      let returned: unknown = this.#ask(snapshot);
      // Only a pending promise needs a deadline; an array returned at once arms no timer.
      if (isPromiseLike(returned)) {
        const answer = await this.#withinDeadline(returned, snapshot);
        if (answer === TIMED_OUT) return [];
        returned = answer;
      }
      const intents = this.#validate(returned);
      this.#failures = 0;
      this.#timeoutsInRow = 0;
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
    const context = this.#context();
    const out: unknown[] = [];
    for (let bar = this.#bars.next(); bar !== undefined; bar = this.#bars.next()) {
      if (strategy.onBar === undefined) continue;
      const returned = strategy.onBar(bar, context);
      if (isPromiseLike(returned)) return this.#askLater(returned, out, snapshot, context);
      gather(out, returned, 'onBar');
    }
    if (strategy.onSnapshot === undefined) return out;
    const returned: unknown = strategy.onSnapshot(snapshot, context);
    if (isPromiseLike(returned))
      return Promise.resolve(returned).then((value) => gather(out, value, 'onSnapshot'));
    return gather(out, returned, 'onSnapshot');
  }

  /** The rest of {@link #ask} once a hook returned a promise. */
  async #askLater(
    pending: PromiseLike<unknown>,
    out: unknown[],
    snapshot: Snapshot,
    context: StrategyContext<unknown, unknown>,
  ): Promise<unknown[]> {
    const strategy = this.#options.strategy;
    gather(out, await pending, 'onBar');
    for (let bar = this.#bars.next(); bar !== undefined; bar = this.#bars.next())
      if (strategy.onBar !== undefined) gather(out, await strategy.onBar(bar, context), 'onBar');
    if (strategy.onSnapshot !== undefined)
      gather(out, await strategy.onSnapshot(snapshot, context), 'onSnapshot');
    return out;
  }

  /** The strategy's answer, or TIMED_OUT after `timeoutMs` (the call is then remembered as late). */
  async #withinDeadline(pending: PromiseLike<unknown>, snapshot: Snapshot): Promise<unknown> {
    const { timeoutMs, startTimer = realTimer } = this.#options;
    if (timeoutMs === undefined) return await pending;
    // Settled into a value so that a late rejection is never an unhandled one.
    const settled = Promise.resolve(pending).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const answer = await raceDeadline(settled, timeoutMs, startTimer);
    if (answer === TIMED_OUT) {
      this.#late = settled.then((late) => {
        this.#late = undefined;
        this.#options.log.info(
          {
            strategy: this.name,
            seq: snapshot.seq,
            failed: !late.ok,
          },
          `strategy ${this.name} answered snapshot ${snapshot.seq} after its deadline; answer discarded`,
        );
      });
      this.#timedOut(snapshot, 'abandoned');
      return TIMED_OUT;
    }
    if (!answer.ok) throw answer.error;
    return answer.value;
  }

  /** Counts a snapshot the strategy did not answer in time; pauses it after too many in a row. */
  #timedOut(snapshot: Snapshot, how: 'abandoned' | 'skipped'): void {
    const { log, timeoutMs } = this.#options;
    this.#timeouts += 1;
    this.#timeoutsInRow += 1;
    const fields = {
      strategy: this.name,
      seq: snapshot.seq,
      timeoutMs,
      timeoutsInRow: this.#timeoutsInRow,
    };
    // One warning per hang; the snapshots it goes on missing are counted, not shouted.
    if (how === 'abandoned') {
      log.warn(
        fields,
        `strategy ${this.name} did not answer snapshot ${snapshot.seq} within ${timeoutMs} ms; snapshot abandoned`,
      );
    } else {
      log.debug(
        fields,
        `strategy ${this.name} is still busy with an abandoned snapshot; snapshot ${snapshot.seq} skipped`,
      );
    }
    if (this.#timeoutsInRow >= this.#maxTimeouts) {
      this.#pause(`${this.#timeoutsInRow} timeouts in a row`);
      log.error(
        fields,
        `strategy ${this.name} paused after ${this.#timeoutsInRow} timeouts in a row`,
      );
    }
  }

  #validate(returned: unknown): OrderIntent[] {
    if (!Array.isArray(returned)) {
      throw new TypeError(`onSnapshot must return an array of intents, got ${typeof returned}`);
    }
    if (returned.length === 0) return [];
    const intents: OrderIntent[] = [];
    for (const candidate of returned) {
      const fast = checkOrderIntentFast(candidate);
      if (fast !== undefined) {
        intents.push(fast);
        continue;
      }
      const parsed = orderIntentSchema.safeParse(candidate);
      if (parsed.success) {
        intents.push(parsed.data as OrderIntent);
        continue;
      }
      const issue = parsed.error.issues[0];
      const path = issue?.path.join('.') ?? '';
      const detail = `not a valid OrderIntent: ${path === '' ? '' : `${path}: `}${issue?.message ?? 'invalid'}`;
      if (this.#options.onInvalidIntent !== undefined) {
        this.#options.onInvalidIntent(detail, candidate);
      } else {
        this.#options.log.warn(
          { strategy: this.name, reason: 'INVALID_INTENT', detail },
          `intent refused: ${detail}`,
        );
      }
    }
    return intents;
  }

  /** Passes a fill to the strategy's `onFill`. */
  async onFill(fill: Fill): Promise<void> {
    const strategy = this.#options.strategy;
    if (!this.#bars.empty) this.#bars.addVolume(fill.marketId, parseDecimalToX18(fill.amount));
    if (strategy.onFill === undefined || this.#paused) return;
    try {
      await strategy.onFill(fill, this.#context());
    } catch (error) {
      this.#fail(error, 'onFill');
    }
  }

  /** Runs `stop`; failures are logged. */
  async stop(): Promise<void> {
    const strategy = this.#options.strategy;
    if (strategy.stop === undefined) return;
    try {
      await strategy.stop(this.#context());
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

/**
 * Appends a hook's intents to `out` (returned, for chaining). `onBar` may return nothing;
 * anything else that is not an array is the hook's failure.
 */
function gather(out: unknown[], returned: unknown, hook: 'onBar' | 'onSnapshot'): unknown[] {
  if (Array.isArray(returned)) {
    for (const candidate of returned) out.push(candidate);
    return out;
  }
  if (returned === undefined && hook === 'onBar') return out;
  throw new TypeError(`${hook} must return an array of intents, got ${typeof returned}`);
}

/** An indicator set as one line (`fast=1m ema(9), slow=1m ema(21)`), to compare two. */
function describeIndicators(
  set: Readonly<Record<string, { timeframe: string; label: string }>>,
): string {
  return Object.entries(set)
    .map(([key, spec]) => `${key}=${spec.timeframe} ${spec.label}`)
    .join(', ');
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
