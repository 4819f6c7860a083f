import { midPriceX18 } from '../domain/index.ts';
import { formatX18, parseSignedDecimalToX18 } from '../money/index.ts';
import { annualizedCaveat } from './annualized-caveat.ts';
import { exitStats, tripExitOfOrder, type ExitStats, type TripExit } from './exit-reasons.ts';
import type { BacktestMetrics, PnlMetrics } from './metrics.ts';
import { periodReturns, type PeriodReturns } from './period-returns.ts';
import { RatioDecimal, bigintRatio, formatRatio } from './ratio-decimal.ts';
import { returnsHistogram, returnsOf, type ReturnsHistogram } from './snapshot-returns.ts';
import { roundTrips, tradeStats, type RoundTrip, type TradeStats } from './round-trips.ts';
import { priceCharts, type PriceChart } from './price-charts.ts';
import type { BacktestTrace } from './trace.ts';
import { directionStats, tagStats, type DirectionStats, type TagStats } from './trip-groups.ts';

export type { PriceChart } from './price-charts.ts';

const MS_PER_DAY = 24 * 3600 * 1000;
const MS_PER_YEAR = 365 * MS_PER_DAY;
/** Below this span CAGR and Calmar are not computed at all (null): a year from hours is noise. */
const MIN_ANNUALIZED_SPAN_MS = MS_PER_DAY;

/** One row of the trades table. Money and prices as decimal strings; times ISO 8601 UTC. */
export interface TradeRow {
  readonly strategy: string;
  readonly symbol: string;
  readonly direction: 'LONG' | 'SHORT';
  readonly entryTime: string;
  readonly exitTime: string | null;
  readonly durationMs: number | null;
  readonly amount: string;
  readonly entryPrice: string;
  readonly exitPrice: string | null;
  readonly pnl: string;
  readonly fees: string;
  readonly netPnl: string;
  readonly fills: number;
  /**
   * What closed it: a protective exit (`stop-loss`, `take-profit`, `trailing-stop`,
   * `time-limit`) or `strategy` (any other order); null while it is open.
   */
  readonly exit: TripExit | null;
}

/** Annualized growth figures; null when the run is too short for them to mean anything. */
export interface Annualized {
  /** Compound annual growth rate of equity, percent. */
  readonly cagrPct: string | null;
  /** CAGR % / max drawdown %. */
  readonly calmar: string | null;
}

/** One instance's (or the account's) tearsheet figures. */
export interface TearsheetFigures extends Annualized {
  readonly trades: TradeStats;
  /** Share (0..1) of samples with a position. */
  readonly exposure: string | null;
}

/** The tearsheet part of the report. */
export interface Tearsheet {
  /** What was replayed: first and last snapshot, how long, how many. */
  readonly span: {
    readonly from: string;
    readonly to: string;
    readonly durationMs: number;
    readonly snapshots: number;
  };
  /** Where a figure rests on too little data to be trusted. */
  readonly warnings: readonly string[];
  readonly total: TearsheetFigures & {
    /** Return of holding the traded markets (equal weights) from the first snapshot, percent. */
    readonly benchmarkReturnPct: string | null;
  };
  readonly strategies: readonly (TearsheetFigures & { readonly strategy: string })[];
  /** Round trips by entry time, per instance and market. */
  readonly trades: readonly TradeRow[];
  /** The closed round trips by what closed them (only the exits that closed one). */
  readonly exits: readonly ExitStats[];
  /** The closed round trips by the tag of the order that opened them. */
  readonly tags: readonly TagStats[];
  /** The trade statistics of long and of short round trips apart. */
  readonly directions: DirectionStats;
  /** The account's returns per UTC day and per UTC month, from its equity at every snapshot. */
  readonly periodReturns: PeriodReturns;
  /** Per-snapshot returns of equity in basis points: bins of equal width, zero returns apart. */
  readonly returnsHistogram: ReturnsHistogram;
  readonly priceCharts: readonly PriceChart[];
}

function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

function symbolOf(trace: BacktestTrace, marketId: number): string {
  return trace.symbols.get(marketId) ?? `market ${marketId}`;
}

/** CAGR and Calmar from the start and end equity, the span and the max drawdown (percent). */
export function annualized(
  startX18: bigint,
  endX18: bigint,
  spanMs: number,
  maxDrawdownPct: string,
): Annualized {
  if (spanMs < MIN_ANNUALIZED_SPAN_MS || startX18 <= 0n || endX18 <= 0n)
    return { cagrPct: null, calmar: null };
  const growth = bigintRatio(endX18, startX18).pow(new RatioDecimal(MS_PER_YEAR).div(spanMs));
  const cagr = growth.minus(1).times(100);
  const drawdown = new RatioDecimal(maxDrawdownPct);
  return {
    cagrPct: formatRatio(cagr),
    calmar: drawdown.isZero() ? null : formatRatio(cagr.div(drawdown)),
  };
}

function figures(
  trips: readonly RoundTrip[],
  pnl: PnlMetrics,
  startX18: bigint,
  spanMs: number,
): TearsheetFigures {
  const end = startX18 + parseSignedDecimalToX18(pnl.netPnl, 'net PnL');
  return {
    trades: tradeStats(trips),
    ...annualized(startX18, end, spanMs, pnl.maxDrawdownPct),
    exposure: pnl.exposure.timeInMarket,
  };
}

/**
 * Buy-and-hold of the traded markets (the markets named by the strategies when none traded):
 * the starting capital split equally, each part bought at its market's first mid and marked at
 * every later mid (a market without a mid yet holds its part in cash; a one-sided book has no
 * mid, so its market keeps the last one). Aligned with the samples.
 */
export function benchmarkEquity(trace: BacktestTrace, startX18: bigint): bigint[] {
  const traded = new Set(trace.fills.map((f) => f.marketId));
  const ids = new Set<number>();
  for (const sample of trace.samples)
    for (const top of sample.tops)
      if (traded.size === 0 || traded.has(top.marketId)) ids.add(top.marketId);
  const markets = [...ids].sort((a, b) => a - b);
  if (markets.length === 0) return trace.samples.map(() => startX18);
  const share = startX18 / BigInt(markets.length);
  const cash = startX18 - share * BigInt(markets.length);
  const first = new Map<number, bigint>();
  const last = new Map<number, bigint>();
  return trace.samples.map((sample) => {
    for (const top of sample.tops) {
      const mid = midPriceX18(top.bidX18, top.askX18);
      if (mid === undefined || mid <= 0n || !ids.has(top.marketId)) continue;
      if (!first.has(top.marketId)) first.set(top.marketId, mid);
      last.set(top.marketId, mid);
    }
    let value = cash;
    for (const id of markets) {
      const entry = first.get(id);
      const now = last.get(id);
      value += entry === undefined || now === undefined ? share : (share * now) / entry;
    }
    return value;
  });
}

function warningsOf(trace: BacktestTrace, spanMs: number): string[] {
  const warnings: string[] = [];
  const caveat = annualizedCaveat(trace.sampleCount ?? trace.samples.length, spanMs);
  if (caveat !== undefined) warnings.push(caveat);
  if (spanMs < MIN_ANNUALIZED_SPAN_MS)
    warnings.push('CAGR and Calmar are not computed for a run shorter than one day.');
  const closed = roundTrips(trace.fills).filter((t) => t.exitTime !== null).length;
  if (closed > 0 && closed < 30)
    warnings.push(
      `Only ${closed} closed trades: win rate, profit factor and expectancy are anecdotes, not statistics.`,
    );
  return warnings;
}

/**
 * The tearsheet of a run: round-trip trades and their statistics per instance and in total,
 * CAGR and Calmar where the span allows, exposure, a buy-and-hold benchmark, a histogram of
 * per-snapshot returns, one price chart per market with fills and plots, and warnings where the
 * data is too thin. Pure and deterministic.
 */
export function buildTearsheet(trace: BacktestTrace, metrics: BacktestMetrics): Tearsheet {
  const startX18 = parseSignedDecimalToX18(metrics.startingCapital, 'starting capital');
  const spanMs = Math.max(0, trace.endedAt - trace.startedAt);
  const trips = roundTrips(trace.fills);
  const tags = new Map(trace.orders.map((order) => [order.id, order.tag]));
  const tagOf = (orderId: number): string | null | undefined => tags.get(orderId);
  const exitOf = (trip: RoundTrip): TripExit | null =>
    trip.exitOrderId === null ? null : tripExitOfOrder(trip.exitOrderId, tags);
  const returns = returnsOf(trace, startX18);
  const benchmark = benchmarkEquity(trace, startX18);
  const lastBenchmark = benchmark[benchmark.length - 1];
  return {
    span: {
      from: isoTime(trace.startedAt),
      to: isoTime(trace.endedAt),
      durationMs: spanMs,
      snapshots: trace.snapshots,
    },
    warnings: warningsOf(trace, spanMs),
    total: {
      ...figures(trips, metrics.total, startX18, spanMs),
      benchmarkReturnPct:
        lastBenchmark === undefined
          ? null
          : formatRatio(bigintRatio((lastBenchmark - startX18) * 100n, startX18)),
    },
    strategies: metrics.strategies.map((instance) => ({
      strategy: instance.strategy,
      ...figures(
        trips.filter((t) => t.strategy === instance.strategy),
        instance,
        startX18,
        spanMs,
      ),
    })),
    trades: trips.map((trip) => ({
      strategy: trip.strategy,
      symbol: symbolOf(trace, trip.marketId),
      direction: trip.direction,
      entryTime: isoTime(trip.entryTime),
      exitTime: trip.exitTime === null ? null : isoTime(trip.exitTime),
      durationMs: trip.exitTime === null ? null : trip.exitTime - trip.entryTime,
      amount: formatX18(trip.maxAmountX18),
      entryPrice: formatX18(trip.entryPriceX18),
      exitPrice: trip.exitPriceX18 === null ? null : formatX18(trip.exitPriceX18),
      pnl: formatX18(trip.pnlX18),
      fees: formatX18(trip.feesX18),
      netPnl: formatX18(trip.netPnlX18),
      fills: trip.fills,
      exit: exitOf(trip),
    })),
    exits: exitStats(trips, exitOf),
    tags: tagStats(trips, tagOf),
    directions: directionStats(trips),
    periodReturns: periodReturns(returns.days, startX18),
    returnsHistogram: returnsHistogram(returns),
    priceCharts: priceCharts(trace, spanMs),
  };
}
