import { computeEquityCurve } from './equity-curve.ts';
import { ReturnsAccumulator } from './online-metrics.ts';
import { RatioDecimal, bigintRatio, formatRatio, type RatioValue } from './ratio-decimal.ts';
import type { BacktestTrace } from './trace.ts';

const HISTOGRAM_BINS = 20;

/** Per-snapshot returns of equity in basis points: bins of equal width, zero returns apart. */
export interface ReturnsHistogram {
  readonly edgesBps: readonly string[];
  readonly counts: readonly number[];
  readonly zero: number;
}

/** The histogram of the per-snapshot returns `measured` kept. */
export function returnsHistogram(measured: ReturnsAccumulator): ReturnsHistogram {
  const returns: RatioValue[] = [];
  const zero = measured.zero;
  for (const [previous, value] of measured.changes)
    if (previous > 0n) returns.push(bigintRatio((value - previous) * 10_000n, previous));
  if (returns.length === 0) return { edgesBps: [], counts: [], zero };
  let low = returns[0] as RatioValue;
  let high = low;
  for (const r of returns) {
    if (r.lessThan(low)) low = r;
    if (r.greaterThan(high)) high = r;
  }
  const bins = high.equals(low) ? 1 : HISTOGRAM_BINS;
  const width = bins === 1 ? new RatioDecimal(1) : high.minus(low).div(bins);
  const counts = new Array<number>(bins).fill(0);
  for (const r of returns) {
    const index = bins === 1 ? 0 : Math.min(bins - 1, r.minus(low).div(width).floor().toNumber());
    counts[index] = (counts[index] ?? 0) + 1;
  }
  const edgesBps = Array.from({ length: bins + 1 }, (_, i) =>
    formatRatio(bins === 1 ? low.plus(i === 0 ? -0.5 : 0.5) : low.plus(width.times(i)), 4),
  );
  return { edgesBps, counts, zero };
}

/**
 * The run's returns: as measured while it ran (every snapshot), or from every sample of the
 * trace (hand-built traces, or another starting capital on a trace that kept every sample).
 */
export function returnsOf(trace: BacktestTrace, startX18: bigint): ReturnsAccumulator {
  if (trace.measured?.startX18 === startX18) return trace.measured.returns;
  const returns = new ReturnsAccumulator(startX18);
  const curve = computeEquityCurve(trace);
  curve.totalNetPnlX18.forEach((net, i) => returns.push(startX18 + net, curve.t[i] as number));
  return returns;
}
