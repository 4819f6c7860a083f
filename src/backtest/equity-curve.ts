import { unrealizedPnlX18 } from '../domain/account/index.ts';
import { notionalX18 } from '../money/index.ts';
import type { BacktestTrace, MarketSample } from './trace.ts';

/** One market's values at every sample of a trace (arrays aligned with `trace.samples`). All x18. */
export interface MarketCurve {
  readonly marketId: number;
  /** Signed position. */
  readonly positionX18: readonly bigint[];
  /** Average entry price of the open position (0 when flat). */
  readonly avgEntryPriceX18: readonly bigint[];
  /** Mark used for valuation: the last non-zero recorded mark (see `computeEquityCurve`). */
  readonly markPriceX18: readonly bigint[];
  /** Cumulative realized PnL before fees. */
  readonly realizedPnlX18: readonly bigint[];
  /** Cumulative fees. */
  readonly feesX18: readonly bigint[];
  /** Cumulative quote turnover. */
  readonly turnoverX18: readonly bigint[];
  /** `position × (mark − avgEntry)`, rounded down: the account model's `unrealizedPnlX18`. */
  readonly unrealizedPnlX18: readonly bigint[];
  /** `realized − fees + unrealized`. */
  readonly netPnlX18: readonly bigint[];
  /** `|position| × mark`, rounded down. */
  readonly grossNotionalX18: readonly bigint[];
}

/** Per-market and total values at every sample of a trace. */
export interface EquityCurve {
  /** Virtual time of each sample (ms). */
  readonly t: readonly number[];
  readonly seq: readonly number[];
  /** Every market that appears in a sample, ascending. */
  readonly marketIds: readonly number[];
  readonly markets: ReadonlyMap<number, MarketCurve>;
  /** Sum over markets of `netPnlX18` at each sample. */
  readonly totalNetPnlX18: readonly bigint[];
  /** Sum over markets of `grossNotionalX18` at each sample. */
  readonly totalGrossNotionalX18: readonly bigint[];
}

interface MutableCurve {
  positionX18: bigint[];
  avgEntryPriceX18: bigint[];
  markPriceX18: bigint[];
  realizedPnlX18: bigint[];
  feesX18: bigint[];
  turnoverX18: bigint[];
  unrealizedPnlX18: bigint[];
  netPnlX18: bigint[];
  grossNotionalX18: bigint[];
}

const FLAT: Omit<MarketSample, 'marketId'> = {
  positionX18: 0n,
  markPriceX18: 0n,
  avgEntryPriceX18: 0n,
  realizedPnlX18: 0n,
  feesX18: 0n,
  turnoverX18: 0n,
};

/**
 * Values every market of a trace at every sample. Pure.
 *
 * A sample's mark is 0 when the recording had no quote for the market then; valuing a position
 * at 0 would invent a loss, so the last non-zero mark is carried forward, and before any mark the
 * position is valued at its entry price (no unrealized PnL). A market missing from a sample keeps
 * its previous values, and is flat before it first appears.
 *
 * @param trace - the backtest trace.
 * @returns arrays aligned with `trace.samples`.
 */
export function computeEquityCurve(trace: BacktestTrace): EquityCurve {
  const ids = new Set<number>();
  for (const sample of trace.samples) for (const m of sample.markets) ids.add(m.marketId);
  const marketIds = [...ids].sort((a, b) => a - b);

  const curves = new Map<number, MutableCurve>();
  const last = new Map<number, Omit<MarketSample, 'marketId'>>();
  const lastMark = new Map<number, bigint>();
  for (const id of marketIds) {
    curves.set(id, {
      positionX18: [],
      avgEntryPriceX18: [],
      markPriceX18: [],
      realizedPnlX18: [],
      feesX18: [],
      turnoverX18: [],
      unrealizedPnlX18: [],
      netPnlX18: [],
      grossNotionalX18: [],
    });
  }

  const t: number[] = [];
  const seq: number[] = [];
  const totalNetPnlX18: bigint[] = [];
  const totalGrossNotionalX18: bigint[] = [];
  for (const sample of trace.samples) {
    t.push(sample.t);
    seq.push(sample.seq);
    for (const m of sample.markets) last.set(m.marketId, m);
    let totalNet = 0n;
    let totalGross = 0n;
    for (const id of marketIds) {
      const state = last.get(id) ?? FLAT;
      if (state.markPriceX18 > 0n) lastMark.set(id, state.markPriceX18);
      const mark = lastMark.get(id) ?? state.avgEntryPriceX18;
      const unrealized = unrealizedPnlX18(state.positionX18, state.avgEntryPriceX18, mark);
      const net = state.realizedPnlX18 - state.feesX18 + unrealized;
      const absPosition = state.positionX18 < 0n ? -state.positionX18 : state.positionX18;
      const gross = notionalX18(absPosition, mark);
      const curve = curves.get(id) as MutableCurve;
      curve.positionX18.push(state.positionX18);
      curve.avgEntryPriceX18.push(state.avgEntryPriceX18);
      curve.markPriceX18.push(mark);
      curve.realizedPnlX18.push(state.realizedPnlX18);
      curve.feesX18.push(state.feesX18);
      curve.turnoverX18.push(state.turnoverX18);
      curve.unrealizedPnlX18.push(unrealized);
      curve.netPnlX18.push(net);
      curve.grossNotionalX18.push(gross);
      totalNet += net;
      totalGross += gross;
    }
    totalNetPnlX18.push(totalNet);
    totalGrossNotionalX18.push(totalGross);
  }

  const markets = new Map<number, MarketCurve>();
  for (const id of marketIds)
    markets.set(id, { marketId: id, ...(curves.get(id) as MutableCurve) });
  return { t, seq, marketIds, markets, totalNetPnlX18, totalGrossNotionalX18 };
}
