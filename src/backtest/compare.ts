import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { OrderJournal } from '../execution/journal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import { PositionBook, unrealizedPnlX18 } from '../execution/positions.ts';
import { X18_SCALE, formatX18 } from '../money/index.ts';
import {
  type GapParts,
  type GapSums,
  addGap,
  formatGap,
  formatX36,
  gapTotalX36,
  noGap,
  pairGap,
} from './compare-gap.ts';
import { describeFillModel } from './fill-model.ts';
import { orderIntentKey } from './order-intent-key.ts';
import { type RatioValue, bigintRatio, formatRatio } from './ratio-decimal.ts';
import type { BacktestTrace } from './trace.ts';

/** Format marker and version of `compare.json`. */
export const COMPARE_FORMAT = 'quanta-compare-report';
export const COMPARE_VERSION = 1;

/** One side's view of an order. Money and prices as decimal strings. */
export interface CompareSide {
  readonly orderId: number;
  readonly state: string;
  readonly filled: string;
  readonly avgFillPrice: string | null;
  readonly fees: string;
  /** From the journal row to the venue's last answer (journal times), ms. */
  readonly latencyMs: number;
}

/** One live order and its backtest twin (either may be missing). */
export interface ComparePair {
  /** Seq of the recorded snapshot that produced the order. */
  readonly seq: number;
  readonly strategy: string;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly type: string;
  readonly amount: string;
  readonly price: string | null;
  readonly tag: string | null;
  readonly live: CompareSide | null;
  readonly backtest: CompareSide | null;
  /** `(live − backtest) / backtest` fill price in bps, positive when live got the worse price. */
  readonly slippageBps: string | null;
  /** Live filled − backtest filled. */
  readonly sizeDiff: string;
  /** What this order adds to the PnL gap (live − backtest), by cause. Quote units. */
  readonly gap: GapParts;
}

/** What `quanta compare` measures. Plain JSON data, stable key order. */
export interface CompareReport {
  readonly format: typeof COMPARE_FORMAT;
  readonly version: typeof COMPARE_VERSION;
  readonly run: {
    readonly data: string;
    readonly journal: string;
    readonly from: string;
    readonly to: string;
    readonly snapshots: number;
    readonly fillModel: string;
    /** Live orders outside the recording's span (another run's): left out. */
    readonly liveOrdersOutside: number;
  };
  readonly totals: {
    readonly liveOrders: number;
    readonly backtestOrders: number;
    readonly paired: number;
    readonly liveOnly: number;
    readonly backtestOnly: number;
    /** Each run's net PnL (realized − fees + unrealized at the final marks), as its portfolio counts it. */
    readonly livePnl: string;
    readonly backtestPnl: string;
    /** `livePnl − backtestPnl`. */
    readonly pnlGap: string;
    readonly gap: GapParts;
    /** `pnlGap − gap.total`: rounding of the portfolios' floored averages, under a cent. */
    readonly rounding: string;
    /** Mean |slippage| in bps over paired orders that both filled; null without any. */
    readonly meanAbsSlippageBps: string | null;
  };
  /** Final marks the gap is valued at, by symbol. */
  readonly marks: Readonly<Record<string, string>>;
  /**
   * Fraction digits of each compared market's tick, by symbol (from the recording's listings):
   * compare.html shows fill prices to the tick. Missing for a market the trace has no precision of.
   */
  readonly priceDecimals: Readonly<Record<string, number>>;
  readonly orders: readonly ComparePair[];
}

function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

function side(record: OrderRecord): CompareSide {
  return {
    orderId: record.id,
    state: record.state,
    filled: formatX18(record.filledX18),
    avgFillPrice: record.avgFillPriceX18 === null ? null : formatX18(record.avgFillPriceX18),
    fees: formatX18(record.feesX18 ?? 0n),
    latencyMs: record.updatedAt - record.createdAt,
  };
}

/**
 * Net PnL of a set of journal rows as the portfolio counts it: every fill booked at the order's
 * average price and recorded fee (average-cost positions), unrealized at the final marks.
 */
export function journalPnlX18(
  orders: readonly OrderRecord[],
  marks: ReadonlyMap<number, bigint>,
): bigint {
  const book = new PositionBook();
  for (const order of [...orders].sort((a, b) => a.updatedAt - b.updatedAt || a.id - b.id)) {
    if (order.filledX18 === 0n || order.avgFillPriceX18 === null) continue;
    book.apply({
      marketId: order.marketId,
      side: order.side,
      amountX18: order.filledX18,
      priceX18: order.avgFillPriceX18,
      feeX18: order.feesX18 ?? 0n,
    });
  }
  let total = book.realizedNetX18();
  for (const [marketId, position] of book.entries()) {
    const mark = marks.get(marketId);
    if (position.amountX18 !== 0n && mark !== undefined) total += unrealizedPnlX18(position, mark);
  }
  return total;
}

/**
 * Every order of a run's journal, opened read-only: the bot may still be running on it, and a
 * writable open would settle its in-flight rows as if it had crashed (give back the attempt its
 * order may already have used).
 */
export function readJournalOrders(path: string): OrderRecord[] {
  const journal = OrderJournal.openReadOnly(path);
  try {
    return journal.all();
  } finally {
    journal.close();
  }
}

/** Index of the last snapshot taken at or before `t` (−1 before the first). */
function snapshotIndexAt(times: readonly number[], t: number): number {
  let low = 0;
  let high = times.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((times[mid] as number) <= t) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

function pairKey(seq: number, o: OrderRecord): string {
  return `${seq}|${orderIntentKey(o)}`;
}

/**
 * Time and seq of every snapshot of the backtest: its timeline, or its samples when it kept
 * them all.
 *
 * @throws QuantaError `QUANTA_BACKTEST_INVALID_OPTION` for a trace that kept neither.
 */
function timelineOf(trace: BacktestTrace): { t: readonly number[]; seq: readonly number[] } {
  if (trace.timeline !== undefined) return trace.timeline;
  if ((trace.sampleCount ?? trace.samples.length) !== trace.samples.length) {
    throw new QuantaError(
      ErrorCodes.BACKTEST_INVALID_OPTION,
      'compare: the backtest kept only some of its samples; run it with keepTimeline: true',
    );
  }
  return { t: trace.samples.map((s) => s.t), seq: trace.samples.map((s) => s.seq) };
}

/** The seq of the snapshot an order belongs to: the last one taken at or before its journal row. */
function snapshotSeqFinder(trace: BacktestTrace): (order: OrderRecord) => number {
  const { t: times, seq: seqs } = timelineOf(trace);
  return (o) => seqs[snapshotIndexAt(times, o.createdAt)] ?? 0;
}

/** The backtest's orders by pair key, each list in journal order. */
function twinsByKey(
  orders: readonly OrderRecord[],
  seqOf: (order: OrderRecord) => number,
): Map<string, OrderRecord[]> {
  const twins = new Map<string, OrderRecord[]>();
  for (const order of orders) {
    const key = pairKey(seqOf(order), order);
    const list = twins.get(key);
    if (list === undefined) twins.set(key, [order]);
    else list.push(order);
  }
  return twins;
}

/**
 * Live fill price against the backtest's in bps, positive when live got the worse price;
 * undefined unless both filled (at a positive backtest price).
 */
function slippageBpsOf(
  live: OrderRecord | undefined,
  twin: OrderRecord | undefined,
): RatioValue | undefined {
  if (live?.avgFillPriceX18 == null || twin?.avgFillPriceX18 == null) return undefined;
  if (twin.avgFillPriceX18 <= 0n) return undefined;
  const sign = live.side === 'BUY' ? 1n : -1n;
  return bigintRatio(
    sign * (live.avgFillPriceX18 - twin.avgFillPriceX18) * 10_000n,
    twin.avgFillPriceX18,
  );
}

/** One row of the report: the order's intent (from live, else the backtest) and both sides. */
function comparePair(
  live: OrderRecord | undefined,
  twin: OrderRecord | undefined,
  seq: number,
  gap: GapSums,
  slippage: RatioValue | undefined,
): ComparePair {
  const base = (live ?? twin) as OrderRecord;
  return {
    seq,
    strategy: base.strategy,
    symbol: base.symbol,
    side: base.side,
    type: base.type,
    amount: formatX18(base.amountX18),
    price: base.type === 'MARKET' && base.priceX18 === 0n ? null : formatX18(base.priceX18),
    tag: base.tag,
    live: live === undefined ? null : side(live),
    backtest: twin === undefined ? null : side(twin),
    slippageBps: slippage === undefined ? null : formatRatio(slippage, 4),
    sizeDiff: formatX18((live?.filledX18 ?? 0n) - (twin?.filledX18 ?? 0n)),
    gap: formatGap(gap),
  };
}

/** Every pair of the two runs, and what they add up to. */
interface Pairing {
  /** Live orders first (journal order), the backtest-only ones after, by their seq. */
  readonly pairs: ComparePair[];
  readonly gap: GapSums;
  /** |slippage| in bps of each pair that both filled. */
  readonly slips: RatioValue[];
  readonly paired: number;
  readonly backtestOnly: number;
}

/** Pairs each live order with its backtest twin (see {@link compareRuns}) and sums the gaps. */
function pairOrders(inSpan: readonly OrderRecord[], trace: BacktestTrace): Pairing {
  const seqOf = snapshotSeqFinder(trace);
  const twins = twinsByKey(trace.orders, seqOf);
  const rows: { pair: ComparePair; order: number }[] = [];
  const gap = noGap();
  const slips: RatioValue[] = [];
  const add = (live: OrderRecord | undefined, twin: OrderRecord | undefined): void => {
    const base = (live ?? twin) as OrderRecord;
    const mark = trace.finalMarks.get(base.marketId) ?? base.avgFillPriceX18 ?? 0n;
    const parts = pairGap(live, twin, mark);
    addGap(gap, parts);
    const slippage = slippageBpsOf(live, twin);
    if (slippage !== undefined) slips.push(slippage.abs());
    const pair = comparePair(live, twin, seqOf(base), parts, slippage);
    rows.push({ order: live?.id ?? Number.MAX_SAFE_INTEGER, pair });
  };
  let paired = 0;
  for (const live of [...inSpan].sort((a, b) => a.id - b.id)) {
    const twin = twins.get(pairKey(seqOf(live), live))?.shift();
    if (twin !== undefined) paired += 1;
    add(live, twin);
  }
  const backtestOnly = [...twins.values()].flat().sort((a, b) => a.id - b.id);
  for (const twin of backtestOnly) add(undefined, twin);
  rows.sort((a, b) => a.order - b.order || a.pair.seq - b.pair.seq);
  const pairs = rows.map((r) => r.pair);
  return { pairs, gap, slips, paired, backtestOnly: backtestOnly.length };
}

/** Fraction digits of each of `symbols`' tick, by symbol, in market id order. */
function priceDecimalsOf(trace: BacktestTrace, symbols: readonly string[]): Record<string, number> {
  const wanted = new Set(symbols);
  const out: Record<string, number> = {};
  for (const [id, symbol] of [...trace.symbols].sort((a, b) => a[0] - b[0])) {
    const precision = trace.precision?.get(id);
    if (wanted.has(symbol) && precision !== undefined) out[symbol] = precision.priceExpo;
  }
  return out;
}

/** The final marks by symbol, in market id order. */
function marksBySymbol(trace: BacktestTrace): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, mark] of [...trace.finalMarks].sort((a, b) => a[0] - b[0]))
    out[trace.symbols.get(id) ?? `market ${id}`] = formatX18(mark);
  return out;
}

/** Mean of the |slippage|s in bps, four places; null without any. */
function meanAbsSlippageBps(slips: readonly RatioValue[]): string | null {
  if (slips.length === 0) return null;
  return formatRatio(slips.reduce((a, b) => a.plus(b)).div(slips.length), 4);
}

/** The report's totals: order counts, each run's PnL and the gap split by cause. */
function compareTotals(
  inSpan: readonly OrderRecord[],
  trace: BacktestTrace,
  pairing: Pairing,
  backtestPnlX18: bigint,
): CompareReport['totals'] {
  const livePnl = journalPnlX18(inSpan, new Map(trace.finalMarks));
  const pnlGap = livePnl - backtestPnlX18;
  return {
    liveOrders: inSpan.length,
    backtestOrders: trace.orders.length,
    paired: pairing.paired,
    liveOnly: inSpan.length - pairing.paired,
    backtestOnly: pairing.backtestOnly,
    livePnl: formatX18(livePnl),
    backtestPnl: formatX18(backtestPnlX18),
    pnlGap: formatX18(pnlGap),
    gap: formatGap(pairing.gap),
    rounding: formatX36(pnlGap * X18_SCALE - gapTotalX36(pairing.gap)),
    meanAbsSlippageBps: meanAbsSlippageBps(pairing.slips),
  };
}

/**
 * Pairs every live order of a run with its backtest twin: the order the backtest of the run's
 * recording produced at the same snapshot, for the same strategy instance, with the same intent
 * (market, side, type, amount, price, reduce-only, tag); equal twins pair in journal order. A live
 * order belongs to the last recorded snapshot taken at or before its journal row. Both runs are
 * valued at the recording's final marks, and the PnL gap is split into slippage, fees, missed and
 * extra fills, exactly; `rounding` is what the portfolios' floored averages leave (under a cent).
 *
 * @param liveOrders - the live run's journal rows.
 * @param trace - the backtest of the live run's recording (same config).
 * @param backtestPnl - the backtest's net PnL (`computeMetrics(trace).total.netPnl`), x18.
 * @param options.latency - what the backtest assumed about latency when not its fill model's.
 */
export function compareRuns(
  liveOrders: readonly OrderRecord[],
  trace: BacktestTrace,
  backtestPnlX18: bigint,
  journalPath: string,
  options: {
    /** What the backtest assumed about latency, when not its fill model's (`LiveLatencies`). */
    readonly latency?: string;
  } = {},
): CompareReport {
  const spanEnd = trace.endedAt + Math.max(trace.snapshotIntervalMs, 1);
  const inSpan = liveOrders.filter((o) => o.createdAt >= trace.startedAt && o.createdAt < spanEnd);
  const pairing = pairOrders(inSpan, trace);
  return {
    format: COMPARE_FORMAT,
    version: COMPARE_VERSION,
    run: {
      data: trace.data,
      journal: journalPath,
      from: isoTime(trace.startedAt),
      to: isoTime(trace.endedAt),
      snapshots: trace.snapshots,
      fillModel: describeFillModel(trace.fillModel, options.latency),
      liveOrdersOutside: liveOrders.length - inSpan.length,
    },
    totals: compareTotals(inSpan, trace, pairing, backtestPnlX18),
    marks: marksBySymbol(trace),
    priceDecimals: priceDecimalsOf(
      trace,
      pairing.pairs.map((p) => p.symbol),
    ),
    orders: pairing.pairs,
  };
}
