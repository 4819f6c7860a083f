import { X18_SCALE, formatX18 } from '../money/index.ts';
import type { OrderRecord } from '../execution/order-record.ts';

/** A PnL gap split by cause; `total` is their sum. Quote units, decimal strings. */
export interface GapParts {
  /** Price difference on the size both filled. */
  readonly slippage: string;
  /** Backtest fees − live fees. */
  readonly fees: string;
  /** Size the backtest filled and live did not, valued from its backtest price to the final mark (negated). */
  readonly missed: string;
  /** Size live filled and the backtest did not, valued from its live price to the final mark. */
  readonly extra: string;
  readonly total: string;
}

/** The same split as exact sums at x36 (x18 amount × x18 price), turned into x18 strings only at the end. */
export interface GapSums {
  slippage: bigint;
  fees: bigint;
  missed: bigint;
  extra: bigint;
}

/** A gap of nothing, to add pairs' gaps into. */
export const noGap = (): GapSums => ({ slippage: 0n, fees: 0n, missed: 0n, extra: 0n });

/** Adds `parts` into `into`. */
export function addGap(into: GapSums, parts: GapSums): void {
  into.slippage += parts.slippage;
  into.fees += parts.fees;
  into.missed += parts.missed;
  into.extra += parts.extra;
}

/** The sum of every cause, x36. */
export function gapTotalX36(parts: GapSums): bigint {
  return parts.slippage + parts.fees + parts.missed + parts.extra;
}

/** x36 → x18 decimal string, rounded half away from zero (display of an exact sum). */
export function formatX36(value: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const rounded = (magnitude + X18_SCALE / 2n) / X18_SCALE;
  return formatX18(negative ? -rounded : rounded);
}

/** The gap as decimal strings, with its total. */
export function formatGap(parts: GapSums): GapParts {
  return {
    slippage: formatX36(parts.slippage),
    fees: formatX36(parts.fees),
    missed: formatX36(parts.missed),
    extra: formatX36(parts.extra),
    total: formatX36(gapTotalX36(parts)),
  };
}

/**
 * The gap one pair adds, split by cause, exact at x36: on the size both filled the price
 * difference is slippage; size only live filled is extra (valued live price → mark), size only
 * the backtest filled is missed (negated); fees apart. The parts add up exactly to
 * `value(live) − fees(live) − value(backtest) + fees(backtest)`.
 */
export function pairGap(
  live: OrderRecord | undefined,
  twin: OrderRecord | undefined,
  mark: bigint,
): GapSums {
  const parts = noGap();
  const sign = (live ?? twin)?.side === 'SELL' ? -1n : 1n;
  const liveQ = live?.avgFillPriceX18 == null ? 0n : live.filledX18;
  const twinQ = twin?.avgFillPriceX18 == null ? 0n : twin.filledX18;
  const liveP = live?.avgFillPriceX18 ?? 0n;
  const twinP = twin?.avgFillPriceX18 ?? 0n;
  const common = liveQ < twinQ ? liveQ : twinQ;
  parts.slippage = sign * common * (twinP - liveP);
  parts.extra = sign * (liveQ - common) * (mark - liveP);
  parts.missed = -sign * (twinQ - common) * (mark - twinP);
  parts.fees = ((twin?.feesX18 ?? 0n) - (live?.feesX18 ?? 0n)) * X18_SCALE;
  return parts;
}
