import { midPriceX18 } from '../domain/index.ts';
import { formatX18 } from '../money/index.ts';
import type { BarChart } from '../strategy/bars/bar-chart.ts';
import { candleMs, midCandles, type Candles } from './candles.ts';
import { downsampleIndices } from './downsample.ts';
import { tripExitOfOrder, type TripExit } from './exit-reasons.ts';
import type { BacktestTrace, FillEvent, Sample } from './trace.ts';

/**
 * A strategy's own bars drawn as candles (`BarChartRecorder`), with its indicators: what the
 * candle chart shows for a market traded by a strategy that declares bars.
 */
export type StrategyCandles = Omit<BarChart, 'marketId' | 'symbol'>;

/** One fill marked on the candles. */
export interface ChartFill {
  readonly t: number;
  readonly side: 'BUY' | 'SELL';
  readonly price: string;
  /**
   * The protective exit whose order it filled, or `liquidation` for a liquidation's closure;
   * null for any other order.
   */
  readonly exit: TripExit | null;
  /** `entry` when it opened or added to its strategy's position there, `exit` when it reduced it. */
  readonly role: 'entry' | 'exit';
  /** The order's tag (`cross-up`), null without one: a strategy's own reason. */
  readonly tag: string | null;
}

/** A market's price chart: mid with its bid/ask band, fills as markers, strategy plots. */
export interface PriceChart {
  readonly marketId: number;
  readonly symbol: string;
  readonly t: readonly number[];
  readonly bid: readonly (string | null)[];
  readonly ask: readonly (string | null)[];
  readonly mid: readonly (string | null)[];
  /** Fill price at points where a buy (entry of a long, exit of a short) filled; else null. */
  readonly buys: readonly (string | null)[];
  readonly sells: readonly (string | null)[];
  /** `ctx.plot` series of the instances whose first market this is. */
  readonly plots: readonly {
    readonly strategy: string;
    readonly name: string;
    readonly values: readonly (string | null)[];
  }[];
  /** OHLC of the mid from every sample the run kept, in bars of a length fit for the span. */
  readonly candles: Candles;
  /**
   * The bars of the first strategy instance (config order) that declares bars and has this
   * market, with its indicators; absent when none does (the candles of the mid are drawn then).
   */
  readonly bars?: StrategyCandles;
  /** Every fill in this market, marked on the candles. */
  readonly fills: readonly ChartFill[];
}

/** Entry or exit of each fill: whether it added to or reduced its strategy's position there. */
function fillRoles(fills: readonly FillEvent[]): ('entry' | 'exit')[] {
  const positions = new Map<string, bigint>();
  return fills.map((fill) => {
    const key = `${fill.strategy}\u0000${fill.marketId}`;
    const before = positions.get(key) ?? 0n;
    const signed = fill.side === 'BUY' ? fill.amountX18 : -fill.amountX18;
    positions.set(key, before + signed);
    return before === 0n || before > 0n === signed > 0n ? 'entry' : 'exit';
  });
}

/** The fills of each market as the candle chart marks them. */
function chartFills(trace: BacktestTrace): Map<number, ChartFill[]> {
  const tags = new Map(trace.orders.map((order) => [order.id, order.tag]));
  const roles = fillRoles(trace.fills);
  const byMarket = new Map<number, ChartFill[]>();
  trace.fills.forEach((fill, i) => {
    const exit = tripExitOfOrder(fill.orderId, tags);
    let list = byMarket.get(fill.marketId);
    if (list === undefined) byMarket.set(fill.marketId, (list = []));
    list.push({
      t: fill.t,
      side: fill.side,
      price: formatX18(fill.priceX18),
      exit: exit === 'strategy' ? null : exit,
      role: roles[i] ?? 'entry',
      tag: tags.get(fill.orderId) ?? null,
    });
  });
  return byMarket;
}

/** `ctx.plot` points by series (`strategy\0name`), then sample index, for one market. */
function plotsOf(
  trace: BacktestTrace,
  marketId: number,
  indexOfTime: ReadonlyMap<number, number>,
): Map<string, Map<number, string>> {
  const symbolIds = new Map([...trace.symbols].map(([id, symbol]) => [symbol, id]));
  // An instance's plots go on the chart of its first configured market.
  const plotMarket = new Map<string, number>();
  for (const instance of trace.instances) {
    const id = symbolIds.get(instance.markets[0] ?? '');
    if (id !== undefined) plotMarket.set(instance.name, id);
  }
  const plotted = new Map<string, Map<number, string>>();
  for (const point of trace.plots) {
    // `SYMBOL:name` goes on that market's chart; any other name on the instance's first.
    const colon = point.name.indexOf(':');
    const named = colon > 0 ? symbolIds.get(point.name.slice(0, colon)) : undefined;
    if ((named ?? plotMarket.get(point.strategy)) !== marketId) continue;
    const index = indexOfTime.get(point.t);
    if (index === undefined) continue;
    const key = `${point.strategy}\u0000${point.name}`;
    let series = plotted.get(key);
    if (series === undefined) plotted.set(key, (series = new Map<number, string>()));
    series.set(index, point.value);
  }
  return plotted;
}

function text(v: bigint | null | undefined): string | null {
  return v === null || v === undefined ? null : formatX18(v);
}

/** The bid/ask/mid chart of one market, downsampled, with fills and plots. */
function quoteChart(
  trace: BacktestTrace,
  marketId: number,
  indexOfTime: ReadonlyMap<number, number>,
): Omit<PriceChart, 'symbol' | 'candles' | 'bars' | 'fills'> & { midX18: (bigint | undefined)[] } {
  const top = (s: Sample) => s.tops.find((t) => t.marketId === marketId);
  const bidX18 = trace.samples.map((s) => top(s)?.bidX18 ?? null);
  const askX18 = trace.samples.map((s) => top(s)?.askX18 ?? null);
  // A one-sided sample has no mid (the one mid rule): the band shows its one side alone.
  const midX18 = bidX18.map((bid, i) => midPriceX18(bid, askX18[i]));
  const buys = new Map<number, bigint>();
  const sells = new Map<number, bigint>();
  for (const fill of trace.fills) {
    if (fill.marketId !== marketId) continue;
    const index = indexOfTime.get(fill.t);
    if (index !== undefined) (fill.side === 'BUY' ? buys : sells).set(index, fill.priceX18);
  }
  const plotted = plotsOf(trace, marketId, indexOfTime);
  // Downsampled like the equity chart (each stretch's highs and lows of the mid), keeping
  // every point with a fill or a plotted value.
  const filled = midX18.map((m) => m ?? 0n);
  const keep = new Set(
    downsampleIndices(
      filled,
      filled.map(() => 0n),
    ),
  );
  for (const index of [...buys.keys(), ...sells.keys()]) keep.add(index);
  for (const series of plotted.values()) for (const index of series.keys()) keep.add(index);
  const picked = [...keep].sort((a, b) => a - b);
  return {
    marketId,
    midX18,
    t: picked.map((i) => trace.samples[i]?.t ?? 0),
    bid: picked.map((i) => text(bidX18[i])),
    ask: picked.map((i) => text(askX18[i])),
    mid: picked.map((i) => text(midX18[i])),
    buys: picked.map((i) => text(buys.get(i))),
    sells: picked.map((i) => text(sells.get(i))),
    plots: [...plotted].map(([key, series]) => {
      const [strategy = '', name = ''] = key.split('\u0000');
      return { strategy, name, values: picked.map((i) => series.get(i) ?? null) };
    }),
  };
}

/**
 * One price chart per market with quotes in the kept samples: the mid's band and plots, the
 * candles (the strategy's own bars where one declares them, else the mid's) and every fill.
 */
export function priceCharts(trace: BacktestTrace, spanMs: number): PriceChart[] {
  const marketIds = new Set<number>();
  for (const sample of trace.samples) for (const top of sample.tops) marketIds.add(top.marketId);
  const indexOfTime = new Map<number, number>();
  trace.samples.forEach((s, i) => {
    if (!indexOfTime.has(s.t)) indexOfTime.set(s.t, i);
  });
  const fills = chartFills(trace);
  return [...marketIds]
    .sort((a, b) => a - b)
    .map((marketId) => {
      const { midX18, ...quotes } = quoteChart(trace, marketId, indexOfTime);
      const own = trace.barCharts?.find((chart) => chart.marketId === marketId);
      let bars: StrategyCandles | undefined;
      if (own !== undefined) {
        const { marketId: _id, symbol: _symbol, ...rest } = own;
        bars = rest;
      }
      const { t, bid, ask, mid, buys, sells, plots } = quotes;
      return {
        marketId,
        symbol: trace.symbols.get(marketId) ?? `market ${marketId}`,
        t,
        bid,
        ask,
        mid,
        buys,
        sells,
        plots,
        candles: midCandles(
          trace.samples.map((sample, i) => ({ t: sample.t, midX18: midX18[i] })),
          candleMs(spanMs, trace.snapshotIntervalMs),
        ),
        ...(bars === undefined ? {} : { bars }),
        fills: fills.get(marketId) ?? [],
      };
    });
}
