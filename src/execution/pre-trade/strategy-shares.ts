import type { Logger } from '../../log/logger.ts';

/** Options of {@link StrategyShares}. */
export interface StrategySharesOptions {
  /** The strategies that get a share (config names); any other (flatten) is never throttled. */
  readonly strategies: readonly string[];
  /** Orders per window all strategies together may start: the budget minus the polls' reserve. */
  readonly requests: number;
  /** The window in ms (`execution.rateLimit.perMs`). */
  readonly perMs: number;
  readonly now: () => number;
  readonly log: Logger;
}

interface Share {
  /** When each order admitted in the current window was admitted (oldest first). */
  readonly admitted: number[];
  /** The current throttling episode began at (ms), or undefined outside one. */
  throttledSince: number | undefined;
  /** The last refused intent (ms): an episode ends a whole window after it. */
  lastRefusedAt: number;
  /** Throttling episodes since start. */
  episodes: number;
}

/**
 * Each strategy's share of the order budget (issue 25), for bots of two or more strategies:
 * `floor(requests / strategies)` orders per `perMs` window, at least one. A strategy that returns more intents than its share (a bug, a
 * flood of 10,000 per snapshot) has the rest refused (`STRATEGY_THROTTLED`), counted, and one
 * warning per episode logged, instead of taking every slot of the budget: before, such a flood
 * left the other strategies three orders in 40 s and the poller no slot at all. The share is
 * counted when an order is accepted (an intent the checks refuse takes none), per window, so
 * the orders of all strategies together never queue up beyond what the budget sends in a window.
 */
export class StrategyShares {
  readonly #options: StrategySharesOptions;
  readonly #perStrategy: number;
  readonly #shares = new Map<string, Share>();

  constructor(options: StrategySharesOptions) {
    this.#options = options;
    this.#perStrategy = Math.max(
      1,
      Math.floor(options.requests / Math.max(1, options.strategies.length)),
    );
    for (const name of options.strategies)
      this.#shares.set(name, {
        admitted: [],
        throttledSince: undefined,
        lastRefusedAt: 0,
        episodes: 0,
      });
  }

  /** Orders per window each strategy may start. */
  get perStrategy(): number {
    return this.#perStrategy;
  }

  /**
   * Whether `strategy` may have one more order accepted now. False starts (or continues) a
   * throttling episode: the caller refuses the intent; the first refusal of an episode logs.
   */
  allows(strategy: string): boolean {
    const share = this.#shares.get(strategy);
    if (share === undefined) return true;
    const now = this.#options.now();
    const { admitted } = share;
    while (admitted.length > 0 && (admitted[0] ?? 0) <= now - this.#options.perMs) admitted.shift();
    if (share.throttledSince !== undefined && now - share.lastRefusedAt >= this.#options.perMs)
      share.throttledSince = undefined;
    if (admitted.length < this.#perStrategy) return true;
    share.lastRefusedAt = now;
    if (share.throttledSince === undefined) {
      share.throttledSince = now;
      share.episodes += 1;
      this.#options.log.warn(
        { strategy, share: this.#perStrategy, perMs: this.#options.perMs },
        `strategy ${strategy} asks for more orders than its share of the rate budget (${this.#perStrategy} per ${this.#options.perMs} ms): the rest are refused (STRATEGY_THROTTLED) until it keeps to its share`,
      );
    }
    return false;
  }

  /** Counts an accepted order against `strategy`'s share (after {@link allows} said yes). */
  admit(strategy: string): void {
    this.#shares.get(strategy)?.admitted.push(this.#options.now());
  }

  /** Throttling episodes since start, by strategy (only those with any). */
  episodes(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [name, share] of this.#shares) if (share.episodes > 0) out[name] = share.episodes;
    return out;
  }
}
