import type { OrderRecord } from '../execution/order-record.ts';
import { describeDataKind, type DataKind } from './data-kind.ts';
import { formatX18, parseDecimalToX18 } from '../money/index.ts';
import { downsampleIndices } from './downsample.ts';
import { computeDrawdown } from './drawdown.ts';
import { computeEquityCurve } from './equity-curve.ts';
import { buildMargin, marginSeries, usesMargin, type ReportMargin } from './margin-report.ts';
import { describeFillModel, type FillModel } from './fill-model.ts';
import {
  instanceTrace,
  type BacktestMetrics,
  type MarketMetrics,
  type PnlMetrics,
  type StrategyMetrics,
} from './metrics.ts';
import { benchmarkEquity, buildTearsheet, type Tearsheet } from './tearsheet.ts';
import type { ParamUse } from './param-sources.ts';
import type { BacktestTrace, MarketPrecision } from './trace.ts';

/** Format marker and version of `report.json`; bump the version when a field changes meaning. */
export const REPORT_FORMAT = 'quanta-backtest-report';
export const REPORT_VERSION = 3;

/** A market's fraction digits, as the report shows its prices and amounts. */
export interface ReportMarketPrecision extends MarketPrecision {
  readonly marketId: number;
  readonly symbol: string;
}

/** One row of the report's orders table. Money as decimal strings. */
export interface ReportOrderRow {
  readonly id: number;
  /** Virtual time the order was created, ISO 8601 UTC. */
  readonly time: string;
  readonly strategy: string;
  readonly tag: string | null;
  readonly symbol: string;
  readonly side: string;
  readonly type: string;
  readonly amount: string;
  /** Limit price; null for MARKET orders (they carry price 0 on the wire). */
  readonly price: string | null;
  readonly state: string;
  readonly filled: string;
  readonly avgFillPrice: string | null;
  /** True when the fill price is the reference quote, not one the venue reported. */
  readonly estimated: boolean;
  readonly error: string | null;
}

/**
 * One fill of the run, as the portfolio booked it: each order's fills one by one (a LIMIT
 * order that took the book and then rested has several, at their own prices), a liquidation's
 * closing fills under order 0.
 */
export interface ReportFillRow {
  /** The order it filled; 0 for a liquidation's closure. */
  readonly orderId: number;
  /** Virtual time the fill was booked (the snapshot at which the venue answered), ISO 8601 UTC. */
  readonly time: string;
  readonly strategy: string;
  readonly symbol: string;
  readonly side: string;
  readonly amount: string;
  readonly price: string;
  readonly fee: string;
}

/** A market's position at the end of the run. */
export interface ReportFinalPosition {
  readonly marketId: number;
  readonly symbol: string;
  readonly position: string;
  readonly avgEntryPrice: string;
  readonly markPrice: string;
  readonly unrealizedPnl: string;
}

/** Chart series, downsampled to at most 2000 points (all arrays aligned). */
export interface ReportSeries {
  /** Number of samples before downsampling. */
  readonly sampleCount: number;
  /** Virtual time (ms). */
  readonly t: readonly number[];
  readonly seq: readonly number[];
  /** Total equity, quote units. */
  readonly equity: readonly string[];
  /** Fall of total equity from its running peak (≥ 0), quote units. */
  readonly drawdown: readonly string[];
  /** Signed position of each market at the same points. */
  readonly positions: readonly {
    readonly marketId: number;
    readonly symbol: string;
    readonly position: readonly string[];
  }[];
  /** Buy-and-hold of the traded markets (see `benchmarkEquity`), at the same points. */
  readonly benchmark: readonly string[];
  /** Each strategy instance's own equity (starting capital + its PnL), at the same points. */
  readonly strategyEquity: readonly {
    readonly strategy: string;
    readonly equity: readonly string[];
  }[];
  /**
   * Initial margin used / equity at the same points (present with `margin`): a ratio, 0.25 is a
   * quarter of the equity; null where equity was zero or below with a position open.
   */
  readonly marginUse?: readonly (string | null)[];
  /** Leverage `Σ |position| × mark / equity` at the same points (present with `margin`). */
  readonly leverage?: readonly (string | null)[];
}

/** One instance's params as it ran with them. */
export interface ReportInstanceParams {
  readonly strategy: string;
  readonly params: readonly ParamUse[];
}

/** One instance's warm-up in the report: ended (ISO time), or what it still waited for. */
export type ReportWarmup =
  | { readonly strategy: string; readonly endedAt: string }
  | { readonly strategy: string; readonly waitingFor: string };

/** `run.warmups`, present only when some instance declares a warm-up. */
function warmupsOf(trace: BacktestTrace): { warmups?: ReportWarmup[] } {
  const warmups = trace.instances.flatMap((i): ReportWarmup[] =>
    i.warmup === undefined
      ? []
      : [
          'endedAt' in i.warmup
            ? { strategy: i.name, endedAt: isoTime(i.warmup.endedAt) }
            : { strategy: i.name, waitingFor: i.warmup.waitingFor },
        ],
  );
  return warmups.length === 0 ? {} : { warmups };
}

/** What `report.json` holds and `report.html` draws. Plain JSON-able data, stable key order. */
export interface BacktestReport {
  readonly format: typeof REPORT_FORMAT;
  readonly version: typeof REPORT_VERSION;
  readonly run: {
    readonly data: string;
    readonly strategies: readonly string[];
    /** Virtual times of the first and last snapshot, ISO 8601 UTC. */
    readonly startedAt: string;
    readonly endedAt: string;
    readonly snapshots: number;
    readonly samples: number;
    readonly snapshotIntervalMs: number;
    readonly periodsPerYear: string | null;
    readonly startingCapital: string;
    /** How orders were filled, and the same in words. */
    readonly fillModel: FillModel & { readonly description: string };
    /**
     * What the run replayed (`candles`, `quotes` or `book`) and its fill rule with its caveat, in
     * words (data-kind.ts).
     */
    readonly dataKind: DataKind;
    readonly fillRule: string;
    /**
     * The warm-up of each instance that declares one (absent when none does): when it ended
     * (ISO 8601 UTC; intents before were refused) or what it still waited for at the end.
     */
    readonly warmups?: readonly ReportWarmup[];
    /** The settings that shaped the run, as configured (strategies with their params). */
    readonly config: Readonly<Record<string, unknown>>;
    /**
     * Each instance's params as it ran with them (after its schema), each marked `config` or
     * `default` (the strategy's own default, the config leaving it out). Empty for hand-built
     * traces.
     */
    readonly params: readonly ReportInstanceParams[];
    /**
     * Precision of the markets the report shows (traded, named or charted), by id ascending:
     * report.html shows their prices to the tick and amounts to the quantum. Empty when the
     * trace does not carry it.
     */
    readonly markets: readonly ReportMarketPrecision[];
  };
  /** Trades, their statistics, CAGR/Calmar, benchmark, histogram, price charts, warnings. */
  readonly tearsheet: Tearsheet;
  readonly summary: PnlMetrics;
  readonly markets: readonly MarketMetrics[];
  /** Each strategy instance on its own, with its module and params, per market too. */
  readonly strategies: readonly StrategyMetrics[];
  readonly refusals: BacktestMetrics['refusals'];
  readonly finalPositions: readonly ReportFinalPosition[];
  /**
   * Margin use, leverage and liquidations (docs/margin.md), present when the run traded a
   * PERPETUAL market.
   */
  readonly margin?: ReportMargin;
  readonly series: ReportSeries;
  readonly orders: readonly ReportOrderRow[];
  /** Every fill, in the order booked (absent from reports written before it was kept). */
  readonly fills?: readonly ReportFillRow[];
}

/**
 * Builds the report of a backtest: run facts, summary and per-market metrics, final positions,
 * chart series (deterministically downsampled to ≤ 2000 points) and the orders table. Pure: the
 * same trace and metrics give a deep-equal report with the same key order, and nothing in it
 * depends on the wall clock.
 *
 * @param trace - what the replay produced.
 * @param metrics - `computeMetrics(trace, …)` of the same trace.
 * @example
 * const report = buildReport(trace, computeMetrics(trace));
 * await writeReport('reports/run-1', report);
 */
export function buildReport(trace: BacktestTrace, metrics: BacktestMetrics): BacktestReport {
  const tearsheet = buildTearsheet(trace, metrics);
  const { series, margin } = buildSeries(trace, metrics);
  return {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    run: {
      data: trace.data,
      strategies: [...trace.strategies],
      startedAt: isoTime(trace.startedAt),
      endedAt: isoTime(trace.endedAt),
      snapshots: trace.snapshots,
      samples: trace.sampleCount ?? trace.samples.length,
      snapshotIntervalMs: trace.snapshotIntervalMs,
      periodsPerYear: metrics.periodsPerYear,
      startingCapital: metrics.startingCapital,
      fillModel: { ...metrics.fillModel, description: describeFillModel(metrics.fillModel) },
      dataKind: trace.dataKind ?? 'quotes',
      fillRule: describeDataKind(trace.dataKind ?? 'quotes', trace.timeframe),
      ...warmupsOf(trace),
      config: {
        ...trace.config,
        strategies: trace.instances.map((i) => ({
          name: i.name,
          module: i.module,
          markets: i.markets,
          params: i.params,
        })),
      },
      params: trace.instances.flatMap((i) =>
        i.paramsUsed === undefined ? [] : [{ strategy: i.name, params: i.paramsUsed }],
      ),
      markets: marketPrecision(trace, metrics, tearsheet),
    },
    tearsheet,
    summary: metrics.total,
    markets: metrics.markets,
    strategies: metrics.strategies,
    refusals: metrics.refusals,
    finalPositions: metrics.markets.map((m) => ({
      marketId: m.marketId,
      symbol: m.symbol,
      position: m.finalPosition,
      avgEntryPrice: m.avgEntryPrice,
      markPrice: m.lastMarkPrice,
      unrealizedPnl: m.unrealizedPnl,
    })),
    ...(margin === undefined ? {} : { margin }),
    series,
    orders: trace.orders.map(orderRow),
    fills: trace.fills.map((fill): ReportFillRow => ({
      orderId: fill.orderId,
      time: isoTime(fill.t),
      strategy: fill.strategy,
      symbol: trace.symbols.get(fill.marketId) ?? `market ${fill.marketId}`,
      side: fill.side,
      amount: formatX18(fill.amountX18),
      price: formatX18(fill.priceX18),
      fee: formatX18(fill.feeX18),
    })),
  };
}

function marketPrecision(
  trace: BacktestTrace,
  metrics: BacktestMetrics,
  tearsheet: Tearsheet,
): ReportMarketPrecision[] {
  const ids = new Set([
    ...metrics.markets.map((m) => m.marketId),
    ...tearsheet.priceCharts.map((c) => c.marketId),
  ]);
  return [...ids]
    .sort((a, b) => a - b)
    .flatMap((marketId) => {
      const precision = trace.precision?.get(marketId);
      if (precision === undefined) return [];
      const { priceExpo, amountExpo } = precision;
      return [
        {
          marketId,
          symbol: trace.symbols.get(marketId) ?? `market ${marketId}`,
          priceExpo,
          amountExpo,
        },
      ];
    });
}

/** The chart series, and the margin figures from the same samples when the run used margin. */
function buildSeries(
  trace: BacktestTrace,
  metrics: BacktestMetrics,
): { series: ReportSeries; margin?: ReportMargin } {
  const startX18 = parseDecimalToX18(metrics.startingCapital, 'startingCapital');
  const curve = computeEquityCurve(trace);
  const equity = curve.totalNetPnlX18.map((net) => startX18 + net);
  const drawdown = computeDrawdown(equity, startX18).drawdownX18;
  const picked = downsampleIndices(equity, drawdown);
  const pick = <T>(values: readonly T[]): T[] => picked.map((i) => values[i] as T);
  const margins = usesMargin(trace, curve) ? marginSeries(trace, curve, startX18) : undefined;
  const text = (v: bigint | null): string | null => (v === null ? null : formatX18(v));
  const series: ReportSeries = {
    sampleCount: trace.sampleCount ?? equity.length,
    t: pick(curve.t),
    seq: pick(curve.seq),
    equity: pick(equity).map(formatX18),
    drawdown: pick(drawdown).map(formatX18),
    benchmark: pick(benchmarkEquity(trace, startX18)).map(formatX18),
    positions: curve.marketIds.map((id) => ({
      marketId: id,
      symbol: metrics.markets.find((m) => m.marketId === id)?.symbol ?? `market ${id}`,
      position: pick(curve.markets.get(id)?.positionX18 ?? []).map((p) => formatX18(p ?? 0n)),
    })),
    strategyEquity: metrics.strategies.map((instance) => {
      const own = computeEquityCurve(instanceTrace(trace, instance.strategy));
      return {
        strategy: instance.strategy,
        equity: pick(own.totalNetPnlX18).map((net) => formatX18(startX18 + net)),
      };
    }),
    ...(margins === undefined
      ? {}
      : {
          marginUse: pick(margins.marginUseX18).map(text),
          leverage: pick(margins.leverageX18).map(text),
        }),
  };
  return margins === undefined
    ? { series }
    : { series, margin: buildMargin(trace, curve, margins) };
}

function orderRow(order: OrderRecord): ReportOrderRow {
  return {
    id: order.id,
    time: isoTime(order.createdAt),
    strategy: order.strategy,
    tag: order.tag,
    symbol: order.symbol,
    side: order.side,
    type: order.type,
    amount: formatX18(order.amountX18),
    price: order.type === 'MARKET' && order.priceX18 === 0n ? null : formatX18(order.priceX18),
    state: order.state,
    filled: formatX18(order.filledX18),
    avgFillPrice: order.avgFillPriceX18 === null ? null : formatX18(order.avgFillPriceX18),
    estimated: order.fillPriceEstimated,
    error: order.error,
  };
}

function isoTime(ms: number): string {
  const date = new Date(ms);
  // An out-of-range time would make toISOString throw; show the raw number instead.
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

/**
 * Serializes a report exactly as `report.json` holds it: two-space indented JSON and a final
 * newline. Byte-identical for equal reports.
 */
export function serializeReport(report: BacktestReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
