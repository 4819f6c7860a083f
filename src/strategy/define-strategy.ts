import type { z } from 'zod';
import type { Logger } from '../log/logger.ts';
import type { Snapshot } from '../market/snapshot.ts';
import type { OrderSide, OrderStatus } from '../domain/index.ts';
import type { OrderIntent } from './intent.ts';

/** A strategy's small persisted key-value store (kept in the journal; survives restarts). */
export interface StrategyStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** An order of this strategy that is resting on the venue. */
export interface OpenOrder {
  readonly orderId: number;
  readonly marketId: number;
  readonly side: OrderSide;
  /** Decimal strings, as in intents. */
  readonly amount: string;
  readonly price: string;
  readonly filled: string;
  readonly status: OrderStatus | 'PENDING' | 'SENT';
}

/** A fill of one of this strategy's orders, passed to `onFill`. */
export interface Fill {
  readonly orderId: number;
  readonly marketId: number;
  readonly side: OrderSide;
  /** Filled quantity of this event (decimal string). */
  readonly amount: string;
  /** Average fill price (decimal string). */
  readonly price: string;
  /** True when the venue gave no fill price and the quote at send time is used instead. */
  readonly priceEstimated: boolean;
  readonly tag: string | null;
}

/**
 * What a strategy sees besides snapshots. It never sees HTTP, keys or signatures.
 *
 * @typeParam P - the parsed params type (from the strategy's `params` schema).
 * @typeParam S - the strategy's own state, created by `init`.
 */
export interface StrategyContext<P, S> {
  /** The instance name (config `name`, else the strategy's `name`). */
  readonly name: string;
  /** Params from the config, parsed by the strategy's schema. */
  readonly params: P;
  /** Symbols named in the config's `markets` for this strategy. */
  readonly symbols: readonly string[];
  /** Ids of those markets that the latest snapshot lists (a new listing appears here later). */
  readonly marketIds: readonly number[];
  /** Signed position in a market as a decimal string (`"-0.5"` is short). */
  position(marketId: number): string;
  /** This strategy's orders that are not final yet. */
  openOrders(): readonly OpenOrder[];
  /** Current time in ms: wall clock live, virtual time in backtests. Never use `Date.now()`. */
  now(): number;
  readonly log: Logger;
  readonly store: StrategyStore;
  /** The value `init` returned (undefined when there is no `init`). */
  readonly state: S;
  /**
   * Records one point of a named series at the current time (an indicator, a band, a signal):
   * drawn on the backtest report's price chart of the market named before a colon
   * (`"ETH-USD:mean"`), else of the strategy's first market, and logged at debug level live. `value` is a finite number or a decimal string (prices: use strings).
   * An invalid name or value is ignored with a warning.
   */
  plot(name: string, value: number | string): void;
}

/**
 * A strategy plugin. Create one with {@link defineStrategy} and make it the default export of a
 * module in `strategies/`.
 */
export interface StrategyDefinition<P, S> {
  /** Short name used in logs and the journal. */
  readonly name: string;
  /**
   * zod schema of the params; the config's `params` are parsed by it before anything else
   * starts. A param the schema does not name is an error (a misspelled param would otherwise
   * run on its default) unless {@link allowUnknownParams} is set. Prefer `z.object({...}).strict()`.
   */
  readonly params?: z.ZodType<P>;
  /** Accept config params the `params` schema does not name (default false: they are errors). */
  readonly allowUnknownParams?: boolean;
  /** Called once before the first snapshot; returns the strategy's state. */
  init?(context: Omit<StrategyContext<P, S>, 'state'>): S | Promise<S>;
  /** Called for every snapshot; returns the intents to send (maybe none). */
  onSnapshot(
    snapshot: Snapshot,
    context: StrategyContext<P, S>,
  ): readonly OrderIntent[] | Promise<readonly OrderIntent[]>;
  /** Called when one of this strategy's orders fills (fully or partly). */
  onFill?(fill: Fill, context: StrategyContext<P, S>): void | Promise<void>;
  /** Called once on shutdown. */
  stop?(context: StrategyContext<P, S>): void | Promise<void>;
}

const STRATEGY_BRAND: unique symbol = Symbol.for('quanta.strategy');

/** A defined strategy: the definition plus a brand the loader checks. */
export type Strategy<P = unknown, S = unknown> = StrategyDefinition<P, S> & {
  readonly [STRATEGY_BRAND]: true;
};

/**
 * Declares a strategy. The module's default export must be the result.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { defineStrategy } from 'quanta';
 *
 * export default defineStrategy({
 *   name: 'buy-every-10',
 *   params: z.object({ amount: z.string().default('0.01') }),
 *   onSnapshot(snapshot, ctx) {
 *     if (snapshot.seq % 10 !== 0) return [];
 *     return ctx.marketIds.map((marketId) => ({ marketId, side: 'BUY', type: 'MARKET', amount: ctx.params.amount }));
 *   },
 * });
 * ```
 */
export function defineStrategy<P = Record<string, never>, S = undefined>(
  definition: StrategyDefinition<P, S>,
): Strategy<P, S> {
  return Object.freeze({ ...definition, [STRATEGY_BRAND]: true as const });
}

/** True when `value` was made by {@link defineStrategy}. */
export function isStrategy(value: unknown): value is Strategy {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[STRATEGY_BRAND] === true
  );
}
