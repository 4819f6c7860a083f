import type { DataKind } from './data-kind.ts';
import type { MarketType } from '../domain/market.ts';
import type { SimLiquidation } from '../sim/index.ts';
import type { RefusalReason } from '../execution/refusal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import type { FillModel } from './fill-model.ts';
import type { MarketSample } from './market-sample.ts';
import type { MeasuredRun } from './online-metrics.ts';
import type { StrategyWarmup } from '../strategy/bars/warmup.ts';
import type { ParamUse } from './param-sources.ts';
import type { BarChart } from '../strategy/bars/bar-chart.ts';

export type { MarketSample } from './market-sample.ts';

/** The best bid and ask of a market at a sample (null for an empty side). */
export interface MarketTop {
  readonly marketId: number;
  readonly bidX18: bigint | null;
  readonly askX18: bigint | null;
}

/** The order id of a liquidation's closing fills: no order of the bot's placed them. */
export const LIQUIDATION_ORDER_ID = 0;

/** One fill as the portfolio booked it: the amount newly filled, its price and fee, and when. */
export interface FillEvent {
  /** The order it filled; {@link LIQUIDATION_ORDER_ID} for a liquidation's closure. */
  readonly orderId: number;
  readonly strategy: string;
  readonly marketId: number;
  readonly side: 'BUY' | 'SELL';
  readonly amountX18: bigint;
  /** The price the executor booked the fill at: its own, or the order's average (fill-price.ts). */
  readonly priceX18: bigint;
  readonly feeX18: bigint;
  /** Virtual time (ms) the fill was booked: the snapshot at which the venue answered. */
  readonly t: number;
}

/**
 * One liquidation of a backtest, as its trace and report list it (docs/margin.md): the
 * simulation's record, with `t` the virtual time of the snapshot whose marks tripped the rule.
 */
export type LiquidationEvent = Omit<SimLiquidation, 'accountId' | 'at'> & { readonly t: number };

/** One `ctx.plot` point. */
export interface PlotPoint {
  readonly strategy: string;
  readonly name: string;
  /** A decimal string. */
  readonly value: string;
  readonly t: number;
}

/** One strategy instance's own positions after a snapshot (what its `ctx.position` sees). */
export interface StrategySample {
  /** Instance name (`strategies[].name`, else the strategy's, made unique with `#2`…). */
  readonly strategy: string;
  /** Every market this instance traded so far, by id ascending. */
  readonly markets: readonly MarketSample[];
}

/** The account after one snapshot. */
export interface Sample {
  readonly seq: number;
  /** Virtual time of the snapshot (ms). */
  readonly t: number;
  /** Every market traded so far, by id ascending. */
  readonly markets: readonly MarketSample[];
  /** The same per strategy instance, in config order (instances that traded so far). */
  readonly byStrategy: readonly StrategySample[];
  /** Best bid and ask of every market a strategy names or trades, by id ascending. */
  readonly tops: readonly MarketTop[];
}

/** A market's margin rules from the listing (docs/margin.md). */
export interface MarketMarginRules {
  readonly type: MarketType;
  /** `InitialMarginFractionx18`. */
  readonly initialMarginX18: bigint;
  /** `MaintenanceMarginFractionx18`. */
  readonly maintenanceMarginX18: bigint;
}

/** A market's fraction digits: prices to the tick (`priceExpo`), amounts to the quantum. */
export interface MarketPrecision {
  readonly priceExpo: number;
  readonly amountExpo: number;
}

/** One configured strategy instance: what the report embeds next to its figures. */
export interface StrategyInstance {
  readonly name: string;
  /** The module as configured, relative to the project root when inside it. */
  readonly module: string;
  readonly markets: readonly string[];
  /** The params as written in the config (before the strategy's schema applied defaults). */
  readonly params: Readonly<Record<string, unknown>>;
  /**
   * Every param it ran with, after its schema, each from the config or the strategy's default
   * (absent in hand-built traces).
   */
  readonly paramsUsed?: readonly ParamUse[];
  /**
   * Its warm-up, when it declares one (`warmup` bars or indicators): the virtual time it ended
   * (intents before were refused, `WARMING_UP`), or what it still waited for at the end.
   */
  readonly warmup?: StrategyWarmup;
}

/**
 * What a backtest run hands to metrics and reports: the samples, the journal's orders and the
 * refusals. Everything is deterministic for the same recording and config.
 */
export interface BacktestTrace {
  /** Recording file(s) replayed, as given. */
  readonly data: string;
  /** Strategy instance names. */
  readonly strategies: readonly string[];
  /** Symbols by market id (every market seen in the recording). */
  readonly symbols: ReadonlyMap<number, string>;
  /**
   * Each market's precision by id (every market seen in the recording): the report shows prices
   * to the tick and amounts to the quantum with it. Absent in hand-built traces (figures are
   * then shown exact).
   */
  readonly precision?: ReadonlyMap<number, MarketPrecision>;
  /**
   * Each market's margin rules by id (every market seen in the recording): the report's margin
   * use and leverage come from them. Absent in hand-built traces (no margin figures then).
   */
  readonly margins?: ReadonlyMap<number, MarketMarginRules>;
  /** Median spacing of snapshots in ms (annualization of Sharpe/Sortino). */
  readonly snapshotIntervalMs: number;
  /**
   * What the run replayed (and so which fill rule it used, `data-kind.ts`); absent in
   * hand-built traces (quotes).
   */
  readonly dataKind?: DataKind;
  /** Candle history: the candles' timeframe, like `"1m"`. */
  readonly timeframe?: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly snapshots: number;
  /** How orders were filled (latency, depth, slippage, fees) and the starting capital. */
  readonly fillModel: FillModel;
  /**
   * The samples to draw from: every one (hand-built traces, short runs), or a bounded,
   * shape-keeping selection of them (`sampleCount` says how many there were): the first and
   * last, each stretch's lowest and highest equity and deepest drawdown, every sample with a
   * fill, and the first with each market's mid.
   */
  readonly samples: readonly Sample[];
  /** How many samples the run had (one per snapshot); default `samples.length`. */
  readonly sampleCount?: number;
  /**
   * The exact figures over every sample, accumulated while the run went (a backtest keeps these
   * instead of every sample); metrics use them when measured at the same starting capital.
   */
  readonly measured?: MeasuredRun;
  /** Time and seq of every snapshot, when the run was asked to keep them (`quanta compare`). */
  readonly timeline?: { readonly t: readonly number[]; readonly seq: readonly number[] };
  readonly orders: readonly OrderRecord[];
  readonly refusals: Readonly<Partial<Record<RefusalReason, number>>>;
  /** Strategy instances in config order; two of one module with other params are two. */
  readonly instances: readonly StrategyInstance[];
  /**
   * The settings that shaped the run, as configured (JSON data: risk, execution, backtest,
   * paper seed, strategies with their params), embedded in the report.
   */
  readonly config: Readonly<Record<string, unknown>>;
  /**
   * The mark of every market at the end: the last snapshot's mid where it had a quote, else the
   * last mark seen (what `quanta compare` values both runs at).
   */
  readonly finalMarks: ReadonlyMap<number, bigint>;
  /** Every fill, in the order it was booked. */
  readonly fills: readonly FillEvent[];
  /** Every `ctx.plot` point, in the order drawn (those at the samples kept). */
  readonly plots: readonly PlotPoint[];
  /**
   * Each strategy instance's own bars (its first declared timeframe, per market) with its
   * indicators' values per bar, bounded (`BarChartRecorder`): the report's candles. Absent or
   * empty: no strategy declares bars (the candles are then of the mid).
   */
  readonly barCharts?: readonly BarChart[];
  /** Refusals per instance, then reason. */
  readonly refusalsByStrategy: Readonly<
    Record<string, Readonly<Partial<Record<RefusalReason, number>>>>
  >;
  /** Positions the simulation liquidated (docs/margin.md); absent or empty: none. */
  readonly liquidations?: readonly LiquidationEvent[];
  /** Intents in the order strategies produced them (the agreement test compares these). */
  readonly intents: readonly {
    readonly seq: number;
    readonly strategy: string;
    readonly intent: unknown;
  }[];
}
