import type { Logger } from '../log/logger.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { absX18, parseDecimalToX18, formatX18, X18_SCALE } from '../money/index.ts';
import type { OrderIntent } from '../domain/index.ts';
import type { RiskLimits } from './pre-trade/index.ts';
import type { Executor } from './executor.ts';
import type { TradingModes } from './trading-mode.ts';

/** The journal's strategy name of flatten orders that no single strategy's position explains. */
export const FLATTEN_STRATEGY = 'quanta:flatten';

/** Options of {@link Flattener}. */
export interface FlattenerOptions {
  readonly executor: Pick<Executor, 'positions' | 'strategyPositions' | 'submit'>;
  readonly modes: Pick<TradingModes, 'mode' | 'set'>;
  /** Strategy instance names, in config order: each closes its own position first. */
  readonly strategies: readonly string[];
  readonly limits: RiskLimits;
  /** Orders being sent or waiting to be (the dispatcher's `pending`). */
  readonly inFlight: () => number;
  readonly log: Logger;
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/**
 * The `flatten` mode: on every fresh snapshot while it lasts, one reduce-only MARKET order per
 * market that still holds a position, through the same checks as any intent (so no order is
 * larger than `risk.maxOrderNotional` or the market's maximum: a large position closes over
 * several snapshots). Orders still in flight are waited for. Once every position is flat, the
 * mode turns to `halt`.
 *
 * Each order is journaled in the name of a strategy that holds the position (so its own
 * `ctx.position` reads flat afterwards), or {@link FLATTEN_STRATEGY} for what none explains.
 */
export class Flattener {
  readonly #options: FlattenerOptions;

  constructor(options: FlattenerOptions) {
    this.#options = options;
  }

  /** Runs one step of the flatten mode on `snapshot`; does nothing in any other mode. */
  async onSnapshot(snapshot: Snapshot): Promise<void> {
    const { executor, modes, log } = this.#options;
    if (modes.mode !== 'flatten' || snapshot.stale) return;
    if (this.#options.inFlight() > 0) return;
    const open = executor.positions.entries().filter(([, p]) => p.amountX18 !== 0n);
    if (open.length === 0) {
      log.info('flatten: every position is flat');
      modes.set('halt', 'flatten-done');
      return;
    }
    for (const [marketId, position] of open) {
      const order = this.#closingOrder(snapshot, marketId, position.amountX18);
      if (order === undefined) continue;
      await executor.submit(order.strategy, order.intent, snapshot);
    }
  }

  #closingOrder(
    snapshot: Snapshot,
    marketId: number,
    accountX18: bigint,
  ): { strategy: string; intent: OrderIntent } | undefined {
    const side = accountX18 > 0n ? 'SELL' : 'BUY';
    let strategy = FLATTEN_STRATEGY;
    let amountX18 = absX18(accountX18);
    for (const name of this.#options.strategies) {
      const own = this.#options.executor.strategyPositions(name).amountX18(marketId);
      if (own !== 0n && own > 0n === accountX18 > 0n) {
        strategy = name;
        amountX18 = min(absX18(own), amountX18);
        break;
      }
    }
    amountX18 = min(amountX18, this.#largestAmountX18(snapshot, marketId, side) ?? amountX18);
    if (amountX18 === 0n) return undefined;
    return {
      strategy,
      intent: {
        marketId,
        side,
        type: 'MARKET',
        amount: formatX18(amountX18),
        reduceOnly: true,
        tag: 'flatten',
      },
    };
  }

  // The largest amount whose notional at the price the order would meet stays within the
  // configured and the market's limits (sizing then rounds it down to the quantum).
  #largestAmountX18(
    snapshot: Snapshot,
    marketId: number,
    side: 'BUY' | 'SELL',
  ): bigint | undefined {
    const quote = snapshot.quotes?.get(marketId);
    const level = side === 'BUY' ? quote?.asks[0] : quote?.bids[0];
    const market = snapshot.markets.get(marketId);
    if (level === undefined || market === undefined) return undefined;
    const priceX18 = parseDecimalToX18(level.price, 'quote price');
    if (priceX18 <= 0n) return undefined;
    const cap = min(this.#options.limits.maxOrderNotionalX18, market.maxPositionValueX18);
    return (cap * X18_SCALE) / priceX18;
  }
}
