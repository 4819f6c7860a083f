import type { Logger } from '../log/logger.ts';
import type { Snapshot } from '../market/snapshot.ts';
import type { Fill } from '../strategy/define-strategy.ts';
import type { OrderIntent } from '../strategy/intent.ts';
import type { StrategyHost } from '../strategy/strategy-host.ts';
import type { Executor } from './executor.ts';

/** An intent as a strategy produced it, before sizing (the agreement test compares these). */
export interface ProducedIntent {
  readonly seq: number;
  readonly strategy: string;
  readonly intent: OrderIntent;
}

/** Options of {@link TradingSession}. */
export interface TradingSessionOptions {
  readonly hosts: readonly StrategyHost[];
  readonly executor: Executor;
  readonly log: Logger;
  /** Told about every intent a strategy produced, before checks. */
  readonly onIntent?: (produced: ProducedIntent) => void;
}

/**
 * The per-snapshot cycle shared by live, paper and backtest: every strategy sees the snapshot,
 * its intents go through the executor in order, then resting orders are refreshed. One class
 * for all three modes, so a backtest cannot take a path that live trading does not.
 */
export class TradingSession {
  readonly #options: TradingSessionOptions;
  readonly #hosts: ReadonlyMap<string, StrategyHost>;

  constructor(options: TradingSessionOptions) {
    this.#options = options;
    this.#hosts = new Map(options.hosts.map((host) => [host.name, host]));
  }

  /** Runs one snapshot through every strategy and the executor. */
  async onSnapshot(snapshot: Snapshot): Promise<void> {
    const { executor, onIntent } = this.#options;
    for (const host of this.#hosts.values()) {
      const intents = await host.onSnapshot(snapshot);
      for (const intent of intents) {
        onIntent?.({ seq: snapshot.seq, strategy: host.name, intent });
        await executor.submit(host.name, intent, snapshot);
      }
    }
    await executor.refreshOpenOrders();
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

  /** Strategy names that were paused after repeated failures. */
  pausedStrategies(): string[] {
    return [...this.#hosts.values()].filter((host) => host.paused).map((host) => host.name);
  }
}
