import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { OrderState } from '../domain/index.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import { formatX18, parseDecimalToX18 } from '../money/index.ts';
import { computeDrawdown } from './drawdown.ts';
import { computeEquityCurve, type MarketCurve } from './equity-curve.ts';
import type { FillModel } from './fill-model.ts';
import { bigintRatio, formatRatio } from './ratio-decimal.ts';
import { computeRiskRatios, periodsPerYear } from './risk-ratios.ts';
import type { BacktestTrace, StrategyInstance } from './trace.ts';

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
  /** Samples where cumulative realized PnL went up (wins) or down (losses). */
  readonly closingEvents: { readonly wins: number; readonly losses: number };
  /** `wins / (wins + losses)` as a fraction 0..1; null when nothing closed. */
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

type Series = Pick<
  MarketCurve,
  | 'realizedPnlX18'
  | 'feesX18'
  | 'turnoverX18'
  | 'unrealizedPnlX18'
  | 'netPnlX18'
  | 'grossNotionalX18'
> & {
  /** Whether the position (any market's, for the total) is non-zero at each sample. */
  readonly inMarket: readonly boolean[];
  readonly wins: number;
  readonly losses: number;
};

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
  const account = measureTrace(trace, startX18, perYear);
  const strategies: StrategyMetrics[] = instancesOf(trace).map((instance) => {
    const own = measureTrace(instanceTrace(trace, instance.name), startX18, perYear);
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
    samples: trace.samples.length,
    snapshotIntervalMs: trace.snapshotIntervalMs,
    periodsPerYear: perYear === null ? null : formatRatio(perYear),
    total: account.total,
    markets: account.markets,
    strategies,
    refusals: account.refusals,
  };
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
): Pick<BacktestMetrics, 'total' | 'markets' | 'refusals'> {
  const curve = computeEquityCurve(trace);
  const marketIds = new Set<number>(curve.marketIds);
  for (const order of trace.orders) marketIds.add(order.marketId);
  const sortedIds = [...marketIds].sort((a, b) => a - b);

  const sampleCount = trace.samples.length;
  const marketSeries = new Map<number, Series>();
  for (const id of sortedIds) {
    marketSeries.set(id, marketSeriesOf(curve.markets.get(id), sampleCount));
  }
  const totalSeries = sumSeries([...marketSeries.values()], sampleCount);

  const measure = (series: Series, orders: readonly OrderRecord[]): PnlMetrics =>
    pnlMetrics(series, orders, startX18, perYear);

  const markets: MarketMetrics[] = sortedIds.map((id) => {
    const c = curve.markets.get(id);
    const lastIndex = sampleCount - 1;
    return {
      marketId: id,
      symbol: symbolOf(trace, id),
      ...measure(
        marketSeries.get(id) as Series,
        trace.orders.filter((o) => o.marketId === id),
      ),
      finalPosition: formatX18(c?.positionX18[lastIndex] ?? 0n),
      avgEntryPrice: formatX18(c?.avgEntryPriceX18[lastIndex] ?? 0n),
      lastMarkPrice: formatX18(c?.markPriceX18[lastIndex] ?? 0n),
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
    total: measure(totalSeries, trace.orders),
    markets,
    refusals: { total: refusalTotal, byReason },
  };
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

function marketSeriesOf(curve: MarketCurve | undefined, sampleCount: number): Series {
  if (curve === undefined) {
    // A market with orders but no sample (every order refused by the venue): flat throughout.
    const zeros = new Array<bigint>(sampleCount).fill(0n);
    return {
      realizedPnlX18: zeros,
      feesX18: zeros,
      turnoverX18: zeros,
      unrealizedPnlX18: zeros,
      netPnlX18: zeros,
      grossNotionalX18: zeros,
      inMarket: new Array<boolean>(sampleCount).fill(false),
      wins: 0,
      losses: 0,
    };
  }
  let wins = 0;
  let losses = 0;
  let previous = 0n;
  for (const realized of curve.realizedPnlX18) {
    if (realized > previous) wins += 1;
    else if (realized < previous) losses += 1;
    previous = realized;
  }
  return {
    realizedPnlX18: curve.realizedPnlX18,
    feesX18: curve.feesX18,
    turnoverX18: curve.turnoverX18,
    unrealizedPnlX18: curve.unrealizedPnlX18,
    netPnlX18: curve.netPnlX18,
    grossNotionalX18: curve.grossNotionalX18,
    inMarket: curve.positionX18.map((p) => p !== 0n),
    wins,
    losses,
  };
}

function sumSeries(parts: readonly Series[], sampleCount: number): Series {
  const sum = (pick: (s: Series) => readonly bigint[]): bigint[] => {
    const out = new Array<bigint>(sampleCount).fill(0n);
    for (const part of parts) {
      const values = pick(part);
      for (let i = 0; i < sampleCount; i += 1) out[i] = (out[i] as bigint) + (values[i] ?? 0n);
    }
    return out;
  };
  const inMarket = new Array<boolean>(sampleCount).fill(false);
  for (const part of parts) {
    for (let i = 0; i < sampleCount; i += 1) if (part.inMarket[i] === true) inMarket[i] = true;
  }
  return {
    realizedPnlX18: sum((s) => s.realizedPnlX18),
    feesX18: sum((s) => s.feesX18),
    turnoverX18: sum((s) => s.turnoverX18),
    unrealizedPnlX18: sum((s) => s.unrealizedPnlX18),
    netPnlX18: sum((s) => s.netPnlX18),
    grossNotionalX18: sum((s) => s.grossNotionalX18),
    inMarket,
    wins: parts.reduce((n, s) => n + s.wins, 0),
    losses: parts.reduce((n, s) => n + s.losses, 0),
  };
}

function pnlMetrics(
  series: Series,
  orders: readonly OrderRecord[],
  startX18: bigint,
  perYear: ReturnType<typeof periodsPerYear>,
): PnlMetrics {
  const last = <T>(values: readonly T[], fallback: T): T => values[values.length - 1] ?? fallback;
  const netX18 = last(series.netPnlX18, 0n);
  const equityX18 = series.netPnlX18.map((net) => startX18 + net);
  const drawdown = computeDrawdown(equityX18, startX18);
  const ratios = computeRiskRatios(equityX18, startX18, perYear);
  const events = series.wins + series.losses;
  const samples = series.inMarket.length;
  const grossSum = series.grossNotionalX18.reduce((a, b) => a + b, 0n);
  return {
    realizedPnl: formatX18(last(series.realizedPnlX18, 0n)),
    unrealizedPnl: formatX18(last(series.unrealizedPnlX18, 0n)),
    fees: formatX18(last(series.feesX18, 0n)),
    netPnl: formatX18(netX18),
    turnover: formatX18(last(series.turnoverX18, 0n)),
    finalEquity: formatX18(startX18 + netX18),
    returnPct: formatRatio(bigintRatio(netX18 * 100n, startX18)),
    maxDrawdown: formatX18(drawdown.maxX18),
    maxDrawdownPct: formatRatio(
      bigintRatio(drawdown.maxFraction.numerator * 100n, drawdown.maxFraction.denominator),
    ),
    sharpe: ratios.sharpe,
    sortino: ratios.sortino,
    closingEvents: { wins: series.wins, losses: series.losses },
    winRate: events === 0 ? null : formatRatio(bigintRatio(BigInt(series.wins), BigInt(events))),
    exposure: {
      timeInMarket:
        samples === 0
          ? null
          : formatRatio(
              bigintRatio(BigInt(series.inMarket.filter(Boolean).length), BigInt(samples)),
            ),
      avgGrossNotional: formatX18(samples === 0 ? 0n : grossSum / BigInt(samples)),
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
