import type { Logger } from '../log/logger.ts';
import type { Snapshot } from '../market/snapshot.ts';
import type { Fill } from '../domain/index.ts';
import type { OrderIntent } from '../domain/index.ts';
import type { StrategyHost } from '../strategy/strategy-host.ts';
import type { Bar } from '../strategy/bars/bar.ts';
import type { BarChart } from '../strategy/bars/bar-chart.ts';
import type { Executor } from '../execution/executor.ts';
import type { ExitBook } from '../execution/exits/exit-book.ts';
import type { StrategyWarmup } from '../strategy/bars/warmup.ts';

/** An intent as a strategy produced it, before sizing (the agreement test compares these). */
export interface ProducedIntent {
  readonly seq: number;
  readonly strategy: string;
  readonly intent: OrderIntent;
}

/** The part of the executor a session drives. */
export type SessionExecutor = Pick<Executor, 'submitAll' | 'refreshOpenOrders'>;

/** What a strategy's answer is while it has not come yet. */
const NOT_YET = Symbol('not yet');
/** Already settled: a race against it tells whether an answer is there yet. */
const NOT_YET_P: Promise<typeof NOT_YET> = Promise.resolve(NOT_YET);

/** Options of {@link TradingSession}. */
export interface TradingSessionOptions {
  readonly hosts: readonly StrategyHost[];
  readonly executor: SessionExecutor;
  readonly log: Logger;
  /** Told about every intent a strategy produced, before checks. */
  readonly onIntent?: (produced: ProducedIntent) => void;
  /** The protective exits: evaluated first on every snapshot, armed by sent entry intents. */
  readonly exits?: Pick<ExitBook, 'intents' | 'set'> | undefined;
}

/**
 * The per-snapshot cycle shared by live, paper and backtest: every strategy sees the snapshot,
 * its intents go through the executor in order, then resting orders are refreshed. One class
 * for all three modes, so a backtest cannot take a path that live trading does not.
 */
export class TradingSession {
  readonly #options: TradingSessionOptions;
  readonly #hosts: ReadonlyMap<string, StrategyHost>;
  /** The same hosts in config order, asked on every snapshot. */
  readonly #hostList: readonly StrategyHost[];

  constructor(options: TradingSessionOptions) {
    this.#options = options;
    this.#hosts = new Map(options.hosts.map((host) => [host.name, host]));
    this.#hostList = [...this.#hosts.values()];
  }

  /**
   * Runs one snapshot through every strategy and the executor.
   *
   * Every strategy is asked first, in config order, and their answers are then taken in that
   * same order: a strategy waiting on something (or hanging) holds back the strategies after it
   * by at most its own timeout, not by theirs added up, because all their deadlines run at once.
   * Intents still reach the executor (its checks, the journal, the venue) in config order, so
   * that order is the same in every mode and every run; strategies see only their own
   * positions and orders, so asking all of them before submitting changes nothing they see.
   *
   * The intents of every answer already there are handed to the executor together, which
   * journals them in one transaction before sending any (one fsync for the snapshot); before
   * waiting on an answer that has not come yet, the intents taken so far are handed over first,
   * so no strategy's orders wait for a slower strategy after it.
   */
  async onSnapshot(snapshot: Snapshot): Promise<void> {
    const { onIntent, exits } = this.#options;
    // Exits are judged on the snapshot before any strategy acts on it, and sent first.
    let batch: { strategy: string; intent: OrderIntent }[] = exits?.intents(snapshot) ?? [];
    const answers = this.#hostList.map((host) => [host, host.onSnapshot(snapshot)] as const);
    for (const [host, answer] of answers) {
      // host.onSnapshot never rejects, so the answers not awaited yet cannot fail unhandled.
      // With nothing taken yet there is nothing to hand over first: just wait.
      let intents = batch.length === 0 ? await answer : await Promise.race([answer, NOT_YET_P]);
      if (intents === NOT_YET) {
        if (batch.length > 0) await this.#submit(batch, snapshot);
        batch = [];
        intents = await answer;
      }
      for (const intent of intents) {
        onIntent?.({ seq: snapshot.seq, strategy: host.name, intent });
        batch.push({ strategy: host.name, intent });
      }
    }
    if (batch.length > 0) await this.#submit(batch, snapshot);
    await this.#options.executor.refreshOpenOrders();
  }

  /** Hands a batch to the executor; an entry sent with `exits` arms them for its position. */
  async #submit(
    batch: readonly { strategy: string; intent: OrderIntent }[],
    snapshot: Snapshot,
  ): Promise<void> {
    const outcomes = await this.#options.executor.submitAll(batch, snapshot);
    const exits = this.#options.exits;
    if (exits === undefined) return;
    batch.forEach(({ strategy, intent }, i) => {
      if (intent.exits !== undefined && outcomes[i]?.kind === 'sent')
        exits.set(strategy, intent.marketId, intent.exits);
    });
  }

  /** Routes a fill to the strategy that owns the order. */
  async onFill(strategy: string, fill: Fill): Promise<void> {
    await this.#hosts.get(strategy)?.onFill(fill);
  }

  /** Stops every strategy (their `stop` hooks). */
  async stop(): Promise<void> {
    for (const host of this.#hosts.values()) await host.stop();
  }

  /** Every strategy instance name, in config order. */
  strategyNames(): string[] {
    return [...this.#hosts.keys()];
  }

  /** Failed `onSnapshot`/`onFill` calls per strategy since start, every strategy listed. */
  strategyErrors(): Record<string, number> {
    return Object.fromEntries([...this.#hosts.values()].map((host) => [host.name, host.errors]));
  }

  /** Snapshots each strategy let time out since start, for those with any. */
  strategyTimeouts(): Record<string, number> {
    const timeouts: Record<string, number> = {};
    for (const host of this.#hosts.values())
      if (host.timeouts > 0) timeouts[host.name] = host.timeouts;
    return timeouts;
  }

  /**
   * Resumes a paused strategy: `resumed`, `not-paused`, or `unknown` when no strategy has that
   * name.
   */
  resumeStrategy(name: string): 'resumed' | 'not-paused' | 'unknown' {
    const host = this.#hosts.get(name);
    if (host === undefined) return 'unknown';
    return host.resume() ? 'resumed' : 'not-paused';
  }

  /** Each strategy with bars: the closed bars of its first timeframe and market (the page's chart). */
  strategyBars(): Record<string, readonly Bar[]> {
    const bars: Record<string, readonly Bar[]> = {};
    for (const host of this.#hostList) {
      const closed = host.chartBars();
      if (closed.length > 0) bars[host.name] = closed;
    }
    return bars;
  }

  /** Every strategy's kept candles and indicator values (`chartBars`), in config order. */
  barCharts(): BarChart[] {
    return this.#hostList.flatMap((host) => host.barCharts());
  }

  /**
   * Feeds one snapshot of history to every strategy's bars and indicators, before the first
   * live one (`quanta run --warmup`): no hook is called, nothing is traded.
   */
  preload(snapshot: Snapshot): void {
    for (const host of this.#hostList) host.preload(snapshot);
  }

  /**
   * The warm-up of each strategy that declares one (`warmup` bars or indicators): when it ended
   * (the clock's time), or what it still waits for.
   */
  warmups(): Record<string, StrategyWarmup> {
    const warmups: Record<string, StrategyWarmup> = {};
    for (const host of this.#hostList) {
      if (!host.warmupDeclared) continue;
      const waitingFor = host.warmingUpFor();
      warmups[host.name] =
        waitingFor === undefined ? { endedAt: host.warmedUpAt ?? 0 } : { waitingFor };
    }
    return warmups;
  }

  /** The params a strategy runs on (parsed), undefined when no strategy has that name. */
  paramsOf(name: string): unknown {
    return this.#hosts.get(name)?.params;
  }

  /**
   * Puts new params (parsed by its schema) in effect for a strategy, between two snapshots.
   *
   * @throws Error saying why when there is no such strategy or it refuses them (nothing changed).
   */
  async setParams(name: string, params: unknown): Promise<void> {
    const host = this.#hosts.get(name);
    if (host === undefined) throw new Error(`no strategy named ${name}`);
    await host.setParams(params);
  }

  /** Why a strategy is paused (one line), undefined when it is not or has no such name. */
  pauseReasonOf(name: string): string | undefined {
    return this.#hosts.get(name)?.pauseReason;
  }

  /** Strategy names that were paused after repeated failures or timeouts. */
  pausedStrategies(): string[] {
    return [...this.#hosts.values()].filter((host) => host.paused).map((host) => host.name);
  }
}
