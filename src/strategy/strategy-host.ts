import type { Logger } from '../log/logger.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { formatX18 } from '../money/index.ts';
import type {
  Fill,
  OpenOrder,
  Strategy,
  StrategyContext,
  StrategyStore,
} from './define-strategy.ts';
import type { OrderIntent } from './intent.ts';
import { orderIntentSchema } from './intent-schema.ts';

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
}

/**
 * Runs one strategy instance in isolation: a strategy that throws (or returns garbage) is
 * logged and, after repeated failures, paused, while the others keep running.
 */
export class StrategyHost {
  readonly name: string;
  readonly #options: StrategyHostOptions;
  readonly #maxFailures: number;
  #failures = 0;
  #paused = false;
  #state: unknown = undefined;
  #marketIds: number[] = [];
  #marketsSeen: Snapshot['markets'] | undefined;
  #symbolsSeen = new Set<string>();

  constructor(options: StrategyHostOptions) {
    this.name = options.name;
    this.#options = options;
    this.#maxFailures = options.maxConsecutiveFailures ?? 5;
  }

  /** True once the strategy failed too often in a row; it gets no more snapshots. */
  get paused(): boolean {
    return this.#paused;
  }

  #context(): StrategyContext<unknown, unknown> {
    const options = this.#options;
    return {
      name: this.name,
      params: options.params,
      symbols: options.symbols,
      marketIds: this.#marketIds,
      position: (marketId) => formatX18(options.positionOf(marketId)),
      openOrders: options.openOrders,
      now: options.now,
      log: options.log,
      store: options.store,
      state: this.#state,
    };
  }

  /** Runs `init`. A failing init pauses the strategy (logged), it does not stop the bot. */
  async start(): Promise<void> {
    const strategy = this.#options.strategy;
    if (strategy.init === undefined) return;
    try {
      this.#state = await strategy.init(this.#context());
    } catch (error) {
      this.#paused = true;
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

  /** Asks the strategy for intents. Never throws: failures are counted and logged. */
  async onSnapshot(snapshot: Snapshot): Promise<readonly OrderIntent[]> {
    if (this.#paused) return [];
    this.#resolveMarkets(snapshot);
    try {
      const returned: unknown = await this.#options.strategy.onSnapshot(snapshot, this.#context());
      const intents = this.#validate(returned);
      this.#failures = 0;
      return intents;
    } catch (error) {
      this.#fail(error, 'onSnapshot');
      return [];
    }
  }

  #validate(returned: unknown): OrderIntent[] {
    if (!Array.isArray(returned)) {
      throw new TypeError(`onSnapshot must return an array of intents, got ${typeof returned}`);
    }
    const intents: OrderIntent[] = [];
    for (const candidate of returned) {
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
    this.#options.log.error(
      { err: error, strategy: this.name, phase, failures: this.#failures },
      `strategy ${this.name} threw in ${phase}`,
    );
    if (this.#failures >= this.#maxFailures) {
      this.#paused = true;
      this.#options.log.error(
        { strategy: this.name, failures: this.#failures },
        `strategy ${this.name} paused after ${this.#failures} failures in a row`,
      );
    }
  }
}
