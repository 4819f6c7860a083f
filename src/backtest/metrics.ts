import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { OrderState } from '../domain/index.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import { formatX18, parseDecimalToX18 } from '../money/index.ts';
import type { FillModel } from './fill-model.ts';
import { bigintRatio, formatRatio } from './ratio-decimal.ts';
import { periodsPerYear } from './risk-ratios.ts';
import { roundTrips, winRateOf, type WinRate } from './round-trips.ts';
import type { BacktestTrace, Sample, StrategyInstance } from './trace.ts';
import { PnlAccumulator, ScopeAccumulator, type MeasuredRun } from './online-metrics.ts';

/** Options of `computeMetrics`. */
export interface MetricsOptions {
  /**
   * Equity before the first snapshot, quote units, a positive decimal string. Default: the
   * trace's fill model's (`backtest.startingCapital`, "100000" unless set).
   */
  readonly startingCapital?: string;
}

/** Orders counted by their final journal state. */
export interface OrderCounts {
  readonly total: number;
  /** Count per state, keys in alphabetical order, only states that occurred. */
  readonly byState: Readonly<Partial<Record<OrderState, number>>>;
}

/**
 * PnL and risk figures of a market or of the whole account. Money as decimal strings in quote
 * units (exact); ratios as strings with 6 fraction digits; null where a figure is undefined.
 */
export interface PnlMetrics {
  /** Cumulative realized PnL before fees at the last sample. */
  readonly realizedPnl: string;
  /** `position × (last mark − avg entry)` at the last sample. */
  readonly unrealizedPnl: string;
  readonly fees: string;
  /** `realized − fees + unrealized`. */
  readonly netPnl: string;
  readonly turnover: string;
  /** `startingCapital + netPnl`. */
  readonly finalEquity: string;
  /** `netPnl / startingCapital`, in percent. */
  readonly returnPct: string;
  /** Largest fall of equity from its running peak, quote units. */
  readonly maxDrawdown: string;
  /** Largest fall of equity as a percentage of the peak it fell from. */
  readonly maxDrawdownPct: string;
  /** Annualized Sharpe ratio of per-snapshot equity returns; null when undefined. */
  readonly sharpe: string | null;
  /** Annualized Sortino ratio; null when undefined (e.g. no losing snapshot). */
  readonly sortino: string | null;
  /** Closed round trips and how many of them won (net of fees), see `winRateOf`. */
  readonly roundTrips: { readonly closed: number; readonly wins: number };
  /**
   * Share (0..1) of closed round trips that won, net of fees (the one rule, `winRateOf` in
   * round-trips.ts); null when no round trip closed.
   */
  readonly winRate: string | null;
  readonly exposure: {
    /** Share (0..1) of samples with a non-zero position (any market, for the total). */
    readonly timeInMarket: string | null;
    /** Mean over samples of `Σ |position| × mark`, rounded down. */
    readonly avgGrossNotional: string;
  };
  readonly orders: OrderCounts;
}

/** Metrics of one market; its equity is the starting capital plus this market's PnL alone. */
export interface MarketMetrics extends PnlMetrics {
  readonly marketId: number;
  readonly symbol: string;
  /** Position at the last sample (signed, base units). */
  readonly finalPosition: string;
  /** Average entry price at the last sample ("0" when flat). */
  readonly avgEntryPrice: string;
  /** Mark that valued the last sample ("0" when the market never had one). */
  readonly lastMarkPrice: string;
}

/** One strategy instance's figures: its own PnL, per market, and its refusals. */
export interface StrategyMetrics extends PnlMetrics {
  readonly strategy: string;
  readonly module: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly markets: readonly MarketMetrics[];
  readonly refusals: BacktestMetrics['refusals'];
}

/** Everything `computeMetrics` measures about a backtest. Plain data, stable key order. */
export interface BacktestMetrics {
  readonly startingCapital: string;
  /** The fill model the run used (its starting capital may differ from the one measured on). */
  readonly fillModel: FillModel;
  readonly snapshots: number;
  readonly samples: number;
  readonly snapshotIntervalMs: number;
  /** `365×24×3600×1000 / snapshotIntervalMs` (6 digits); null without a positive interval. */
  readonly periodsPerYear: string | null;
  readonly total: PnlMetrics;
  /** Markets that appear in samples or orders, by id ascending. */
  readonly markets: readonly MarketMetrics[];
  /**
   * Each strategy instance on its own (its positions, orders and refusals), in config order.
   * Instances trading one market net out in the account, so these need not add up to `total`.
   */
  readonly strategies: readonly StrategyMetrics[];
  readonly refusals: {
    readonly total: number;
    /** Count per reason, keys in alphabetical order. */
    readonly byReason: Readonly<Record<string, number>>;
  };
}

/**
 * Computes PnL, drawdown, Sharpe/Sortino, win rate, exposure, orders by outcome and refusals by
 * reason of a backtest trace, per market and in total. Pure and deterministic: the same trace
 * and options give deep-equal results with the same key order.
 *
 * Equity at a sample is `startingCapital + Σ (realized − fees + unrealized)`; a market's own
 * equity uses only its own PnL, so its drawdown and ratios read as "this market alone on the
 * starting capital". Money sums (realized, unrealized, fees, net, turnover) of the markets equal
 * the total exactly.
 *
 * @param trace - what the replay produced.
 * @param options - `startingCapital` (default: the fill model's).
 * @throws QuantaError `QUANTA_BACKTEST_INVALID_OPTION` when `startingCapital` is not a positive
 *   plain decimal.
 * @example
 * const metrics = computeMetrics(trace, { startingCapital: '25000' });
 * console.log(metrics.total.netPnl, metrics.total.maxDrawdownPct);
 */
export function computeMetrics(
  trace: BacktestTrace,
  options: MetricsOptions = {},
): BacktestMetrics {
  const startingCapital = options.startingCapital ?? trace.fillModel.startingCapital;
  const startX18 = parseStartingCapital(startingCapital);
  const perYear = periodsPerYear(trace.snapshotIntervalMs);
  const measured = measuredAt(trace, startX18);
  const account = measureTrace(trace, startX18, perYear, measured?.account);
  const strategies: StrategyMetrics[] = instancesOf(trace).map((instance) => {
    const own = measureTrace(
      instanceTrace(trace, instance.name),
      startX18,
      perYear,
      measured === undefined ? undefined : instanceScope(measured, instance.name, trace),
    );
    return {
      strategy: instance.name,
      module: instance.module,
      params: instance.params,
      ...own.total,
      markets: own.markets,
      refusals: own.refusals,
    };
  });
  return {
    startingCapital: formatX18(startX18),
    fillModel: trace.fillModel,
    snapshots: trace.snapshots,
    samples: trace.sampleCount ?? trace.samples.length,
    snapshotIntervalMs: trace.snapshotIntervalMs,
    periodsPerYear: perYear === null ? null : formatRatio(perYear),
    total: account.total,
    markets: account.markets,
    strategies,
    refusals: account.refusals,
  };
}

/**
 * The run's accumulators when they were measured at this starting capital. A trace that kept
 * only some of its samples cannot be measured at another one.
 *
 * @throws QuantaError `QUANTA_BACKTEST_INVALID_OPTION` in that case.
 */
function measuredAt(trace: BacktestTrace, startX18: bigint): MeasuredRun | undefined {
  const measured = trace.measured;
  if (measured === undefined) return undefined;
  if (measured.startX18 === startX18) return measured;
  if ((trace.sampleCount ?? trace.samples.length) === trace.samples.length) return undefined;
  throw new QuantaError(
    ErrorCodes.BACKTEST_INVALID_OPTION,
    `backtest startingCapital: this run was measured at ${formatX18(measured.startX18)}; run the backtest again with backtest.startingCapital ${formatX18(startX18)}`,
  );
}

/** An instance's accumulators; one that appears only in orders was flat at every sample. */
function instanceScope(
  measured: MeasuredRun,
  name: string,
  trace: BacktestTrace,
): ScopeAccumulator {
  const known = measured.strategies.get(name);
  if (known !== undefined) return known;
  const flat = new ScopeAccumulator(measured.startX18);
  for (let i = 0; i < (trace.sampleCount ?? trace.samples.length); i++) flat.push([]);
  return flat;
}

/** The configured instances, plus any that only appear in orders (hand-built traces). */
function instancesOf(trace: BacktestTrace): StrategyInstance[] {
  const list = [...trace.instances];
  const known = new Set(list.map((i) => i.name));
  for (const name of [...trace.strategies, ...trace.orders.map((o) => o.strategy)]) {
    if (known.has(name)) continue;
    known.add(name);
    list.push({ name, module: '', markets: [], params: {} });
  }
  return list;
}

/**
 * One instance's own run: its positions at every sample (what its `ctx.position` saw), its
 * orders and its refusals, as if it had traded alone.
 */
export function instanceTrace(trace: BacktestTrace, name: string): BacktestTrace {
  return {
    ...trace,
    strategies: [name],
    samples: trace.samples.map((sample) => ({
      seq: sample.seq,
      t: sample.t,
      markets: sample.byStrategy.find((s) => s.strategy === name)?.markets ?? [],
      byStrategy: [],
      tops: sample.tops,
    })),
    orders: trace.orders.filter((o) => o.strategy === name),
    refusals: trace.refusalsByStrategy[name] ?? {},
    instances: trace.instances.filter((i) => i.name === name),
    refusalsByStrategy: {},
    intents: trace.intents.filter((i) => i.strategy === name),
    fills: trace.fills.filter((f) => f.strategy === name),
    plots: trace.plots.filter((p) => p.strategy === name),
  };
}

function measureTrace(
  trace: BacktestTrace,
  startX18: bigint,
  perYear: ReturnType<typeof periodsPerYear>,
  measured?: ScopeAccumulator,
): Pick<BacktestMetrics, 'total' | 'markets' | 'refusals'> {
  const scope = measured ?? accumulateScope(trace.samples, startX18);
  const marketIds = new Set<number>(scope.markets.keys());
  for (const order of trace.orders) marketIds.add(order.marketId);
  const sortedIds = [...marketIds].sort((a, b) => a - b);
  const trips = roundTrips(trace.fills);

  const markets: MarketMetrics[] = sortedIds.map((id) => {
    const market = scope.markets.get(id);
    // A market with orders but no sample (every order refused by the venue): flat throughout.
    const acc = market?.acc ?? new PnlAccumulator(startX18, scope.samples);
    return {
      marketId: id,
      symbol: symbolOf(trace, id),
      ...pnlMetrics(
        acc,
        winRateOf(trips.filter((t) => t.marketId === id)),
        trace.orders.filter((o) => o.marketId === id),
        perYear,
      ),
      finalPosition: formatX18(market?.lastSample.positionX18 ?? 0n),
      avgEntryPrice: formatX18(market?.lastSample.avgEntryPriceX18 ?? 0n),
      lastMarkPrice: formatX18(market?.mark ?? 0n),
    };
  });

  const reasons = Object.keys(trace.refusals).sort() as (keyof BacktestTrace['refusals'])[];
  const byReason: Record<string, number> = {};
  let refusalTotal = 0;
  for (const reason of reasons) {
    const count = trace.refusals[reason] ?? 0;
    byReason[reason] = count;
    refusalTotal += count;
  }
  return {
    total: pnlMetrics(scope.total, winRateOf(trips), trace.orders, perYear),
    markets,
    refusals: { total: refusalTotal, byReason },
  };
}

/** Runs the accumulators over the samples of a trace (one that kept them all). */
function accumulateScope(samples: readonly Sample[], startX18: bigint): ScopeAccumulator {
  const scope = new ScopeAccumulator(startX18);
  for (const sample of samples) scope.push(sample.markets);
  return scope;
}

function parseStartingCapital(value: string): bigint {
  let x18: bigint;
  try {
    x18 = parseDecimalToX18(value, 'startingCapital');
  } catch (error) {
    throw new QuantaError(
      ErrorCodes.BACKTEST_INVALID_OPTION,
      `backtest startingCapital: expected a plain positive decimal like "100000", got ${JSON.stringify(value)}`,
      { cause: error },
    );
  }
  if (x18 <= 0n) {
    throw new QuantaError(
      ErrorCodes.BACKTEST_INVALID_OPTION,
      `backtest startingCapital: must be above 0 (got ${JSON.stringify(value)})`,
    );
  }
  return x18;
}

function symbolOf(trace: BacktestTrace, marketId: number): string {
  return (
    trace.symbols.get(marketId) ??
    trace.orders.find((o) => o.marketId === marketId)?.symbol ??
    `market ${marketId}`
  );
}

function pnlMetrics(
  acc: PnlAccumulator,
  won: WinRate,
  orders: readonly OrderRecord[],
  perYear: ReturnType<typeof periodsPerYear>,
): PnlMetrics {
  const startX18 = acc.startX18;
  const netX18 = acc.netPnlX18;
  const ratios = acc.ratios(perYear);
  const samples = acc.samples;
  return {
    realizedPnl: formatX18(acc.realizedPnlX18),
    unrealizedPnl: formatX18(acc.unrealizedPnlX18),
    fees: formatX18(acc.feesX18),
    netPnl: formatX18(netX18),
    turnover: formatX18(acc.turnoverX18),
    finalEquity: formatX18(startX18 + netX18),
    returnPct: formatRatio(bigintRatio(netX18 * 100n, startX18)),
    maxDrawdown: formatX18(acc.maxDrawdownX18),
    maxDrawdownPct: formatRatio(bigintRatio(acc.drawdownNumerator * 100n, acc.drawdownDenominator)),
    sharpe: ratios.sharpe,
    sortino: ratios.sortino,
    roundTrips: { closed: won.closed, wins: won.wins },
    winRate: won.winRate,
    exposure: {
      timeInMarket:
        samples === 0
          ? null
          : formatRatio(bigintRatio(BigInt(acc.inMarketSamples), BigInt(samples))),
      avgGrossNotional: formatX18(samples === 0 ? 0n : acc.grossSumX18 / BigInt(samples)),
    },
    orders: countOrders(orders),
  };
}

function countOrders(orders: readonly OrderRecord[]): OrderCounts {
  const counts = new Map<OrderState, number>();
  for (const order of orders) counts.set(order.state, (counts.get(order.state) ?? 0) + 1);
  const byState: Partial<Record<OrderState, number>> = {};
  for (const state of [...counts.keys()].sort()) byState[state] = counts.get(state) as number;
  return { total: orders.length, byState };
}
