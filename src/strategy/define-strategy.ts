import type { z } from 'zod';
import type { Logger } from '../log/logger.ts';
import type { Snapshot } from '../market/snapshot.ts';
import type { ExitSpec, Fill, OpenOrder, OrderIntent } from '../domain/index.ts';
import type { Bar } from './bars/bar.ts';
import type { IndicatorSet, IndicatorValues } from './indicators/spec.ts';

/** A strategy's small persisted key-value store (kept in the journal; survives restarts). */
export interface StrategyStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/**
 * What a strategy sees besides snapshots. It never sees HTTP, keys or signatures.
 *
 * @typeParam P - the parsed params type (from the strategy's `params` schema).
 * @typeParam S - the strategy's own state, created by `init`.
 * @typeParam I - the indicators it registers (`indicators`).
 */
export interface StrategyContext<P, S, I = Record<string, never>> {
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
  /**
   * The average entry price of this strategy's position in a market (average cost of the open
   * amount, from its fills), or undefined when flat.
   *
   * @example
   * const entry = ctx.entryPrice(id); // '3012.5'
   */
  entryPrice(marketId: number): string | undefined;
  /**
   * This strategy's unrealized PnL in a market, in quote units: `position × (mark − entry)` at
   * the mark price of the latest snapshot (the mid: the one mark-price rule); `"0"` when flat,
   * undefined when the market has no mark (an empty book side) or before the first snapshot.
   */
  unrealizedPnl(marketId: number): string | undefined;
  /**
   * The account's equity in quote units, as the bot knows it: the configured `risk.capital`
   * (the embedded paper venue: `paper.balance` unless `risk.capital` is set; a backtest:
   * `backtest.startingCapital` unless `risk.capital` is set) plus the PnL realized
   * net of fees by every fill in the journal, plus the unrealized PnL of every open position at
   * the latest snapshot's marks. Deposits, withdrawals and trades outside this bot are not seen.
   * Undefined when no capital is configured (the venue reports no balance) or before the first
   * snapshot. What `risk` sizing divides.
   */
  equity(): string | undefined;
  /**
   * The account's free margin in quote units: its equity by the account model (docs/margin.md)
   * minus the initial margin of every open position (`|amount| × mark ×
   * InitialMarginFractionx18`, rounded up), at the latest snapshot's marks, the positions as
   * every strategy's fills left them (orders in flight are not counted here; the pre-trade check
   * counts them). An order that adds exposure needs its own initial margin plus its fee within
   * it (stricter under `risk.maxLeverage`). Negative: nothing may be added. Exact (bigint x18
   * inside). Undefined where `equity()` is, or when a held market has no mark or listing (the
   * margin is not known).
   *
   * @example
   * // 1000 USDC and a long of 1 ETH-USD at 3000 (IMF 5 %), mark 3000:
   * ctx.freeMargin(); // '850'
   */
  freeMargin(): string | undefined;
  /**
   * The mark price of a market at which the account is liquidated (equity below its maintenance
   * margin), the other markets' marks held: cross margin, the whole account's position there
   * (every strategy's), by the account model (docs/margin.md). A long is liquidated at this price
   * or below, a short at this price or above; one unit (10^-18) better is not liquidated.
   * Undefined when the account holds nothing there, for a SPOT holding or a long no positive
   * price liquidates, and where `freeMargin()` is undefined.
   *
   * @example
   * // 1000 USDC and a long of 1 ETH-USD at 3000 (MMF 2 %): liquidated below 2000 / 0.98
   * ctx.liquidationPrice(ethId); // '2040.816326530612244897'
   */
  liquidationPrice(marketId: number): string | undefined;
  /**
   * Sets the protective exits of this strategy's position in a market (replacing those set
   * before; null removes them). Set while flat, they wait for the position; set on an open
   * position, they apply from the next snapshot. Kept in the journal across restarts.
   *
   * @throws ZodError when a level is not a price like `"2950"` or a percentage like `"1.5%"`.
   * @example
   * ctx.setExits(id, { stopLoss: '1.5%', trailingStop: '2%' });
   */
  setExits(marketId: number, exits: ExitSpec | null): void;
  /** The protective exits of this strategy's position in a market, or undefined. */
  exits(marketId: number): ExitSpec | undefined;
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
  /**
   * The closed bars of a market (its id or symbol) and a timeframe the strategy declares in
   * `bars`, oldest first, at most the declared history. The bar still open is never in it: the
   * last bar is the one that ended at or before now.
   *
   * @throws RangeError for a timeframe `bars` does not declare.
   * @example
   * const last = ctx.bars('ETH-USD', '1m').at(-1); // undefined before the first bar closed
   */
  bars(market: number | string, timeframe: string): readonly Bar[];
  /**
   * The registered indicators of a market (its id or symbol), by the names `indicators` gave
   * them, each updated with every closed bar of its timeframe before `onBar` sees that bar.
   * Values are numbers, signals not money: turn one into an order price with `toOrderPrice`.
   *
   * @example
   * const { fast, slow } = ctx.indicators(bar.marketId);
   * if (fast.value !== undefined && slow.value !== undefined && fast.value > slow.value) { ... }
   */
  indicators(market: number | string): IndicatorValues<I>;
}

/**
 * A strategy plugin. Create one with {@link defineStrategy} and make it the default export of a
 * module in `strategies/`.
 */
export interface StrategyDefinition<P, S, I extends IndicatorSet = Record<string, never>> {
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
  init?(context: Omit<StrategyContext<P, S, I>, 'state'>): S | Promise<S>;
  /**
   * Time bars to build from snapshots for every market of the strategy: timeframe (`"1s"` to
   * `"1d"`, dividing a day: `"1m"`, `"5m"`, `"1h"`, `"4h"`…) → how many closed bars
   * `ctx.bars` keeps. Bars are aligned to UTC, made of the mid, and delivered to `onBar` once
   * closed (docs/strategy-guide.md, "Bars").
   *
   * @example
   * bars: { '1m': 100, '15m': 20 }
   */
  readonly bars?: Readonly<Record<string, number>>;
  /**
   * What the strategy needs before it may trade: closed bars of declared timeframes per market
   * (timeframe → bars). Until every market of the strategy has them, and every registered
   * indicator of every market has a value, each intent it returns is refused (`WARMING_UP`,
   * counted and logged with what it still waits for); its hooks are still called. Without
   * `warmup`, the registered indicators alone decide; a strategy with neither trades from its
   * first snapshot. `quanta run --warmup DIR` pre-loads the bars from history so that a bot
   * trades right after it starts (docs/strategy-guide.md, "Warm-up").
   *
   * @example
   * warmup: { '1m': 22 } // two values of a 21-bar EMA, to see it cross
   */
  readonly warmup?: Readonly<Record<string, number>>;
  /**
   * Indicators to keep per market, made from the params once at load: name → an indicator of
   * `quanta/indicators` on a declared timeframe. Read them with `ctx.indicators(market)`.
   *
   * @example
   * indicators: (p) => ({ fast: ema('1m', p.fast), slow: ema('1m', p.slow), rsi: rsi('1m', 14) })
   */
  indicators?(params: P): I;
  /**
   * Called for every snapshot (after `onBar` for the bars it closed); returns the intents to
   * send (maybe none). A strategy has `onSnapshot`, `onBar` or both.
   */
  onSnapshot?(
    snapshot: Snapshot,
    context: StrategyContext<P, S, I>,
  ): readonly OrderIntent[] | Promise<readonly OrderIntent[]>;
  /**
   * Called for every bar of a declared timeframe once it has closed, in order of close time,
   * then timeframe (shorter first), then market; before `onSnapshot` of the snapshot that
   * closed it. Returns the intents to send (an empty array or nothing for none).
   */
  onBar?(
    bar: Bar,
    context: StrategyContext<P, S, I>,
  ): readonly OrderIntent[] | void | Promise<readonly OrderIntent[] | void>;
  /** Called when one of this strategy's orders fills (fully or partly). */
  onFill?(fill: Fill, context: StrategyContext<P, S, I>): void | Promise<void>;
  /**
   * Called when the strategy's params are changed while the bot runs (`POST
   * /strategies/{name}/params`, the live page's form, `quanta params set`), after the new params
   * passed the `params` schema and between two snapshots: `context.params` is already the new
   * value and `context.state` is the same object as before, so the strategy adapts its state
   * instead of losing it. Throwing refuses the change: the previous params are put back, and
   * the caller is told the error's message. Without this hook the new params simply apply from
   * the next snapshot.
   *
   * @example
   * onParams({ previous, params }, ctx) {
   *   if (params.window < previous.window) ctx.state.prices.splice(0, ctx.state.prices.length - params.window);
   *   if (params.window > 500) throw new Error('window above 500 needs a restart');
   * }
   */
  onParams?(change: ParamsChange<P>, context: StrategyContext<P, S, I>): void | Promise<void>;
  /** Called once on shutdown. */
  stop?(context: StrategyContext<P, S, I>): void | Promise<void>;
}

/** A live change of a strategy's params, as `onParams` sees it (both parsed by the schema). */
export interface ParamsChange<P> {
  /** The params in effect until now. */
  readonly previous: P;
  /** The params in effect from now on (also `context.params`). */
  readonly params: P;
}

/**
 * At least one of the hooks that return intents: a definition with neither is a type error (and
 * {@link defineStrategy} throws for one that slips through as `any`).
 */
export type WithAnIntentHook<P, S, I extends IndicatorSet> =
  | Required<Pick<StrategyDefinition<P, S, I>, 'onSnapshot'>>
  | Required<Pick<StrategyDefinition<P, S, I>, 'onBar'>>;

const STRATEGY_BRAND: unique symbol = Symbol.for('quanta.strategy');

/** A defined strategy: the definition plus a brand the loader checks. */
export type Strategy<
  P = unknown,
  S = unknown,
  I extends IndicatorSet = IndicatorSet,
> = StrategyDefinition<P, S, I> & {
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
export function defineStrategy<
  P = Record<string, never>,
  S = undefined,
  I extends IndicatorSet = Record<string, never>,
>(definition: StrategyDefinition<P, S, I> & WithAnIntentHook<P, S, I>): Strategy<P, S, I> {
  if (typeof definition.onSnapshot !== 'function' && typeof definition.onBar !== 'function')
    throw new TypeError(
      `strategy ${definition.name} has neither onSnapshot nor onBar: define at least one`,
    );
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
