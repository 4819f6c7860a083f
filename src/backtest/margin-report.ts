/**
 * The report's margin figures (issue 29, docs/margin.md "In the report"): margin use and leverage
 * at every sample of the equity curve, the highest and the time-weighted mean leverage the run
 * used, and the liquidations. All from the one account model (`marginAccount` in domain/account)
 * on the same samples and marks as the equity curve, so the equity they divide by is the
 * report's equity to the last unit.
 */
import {
  floorDiv,
  marginAccount,
  type MarginPosition,
  type MarginAccountView,
} from '../domain/account/index.ts';
import { X18_SCALE, formatX18 } from '../money/index.ts';
import type { EquityCurve } from './equity-curve.ts';
import type { BacktestTrace, LiquidationEvent } from './trace.ts';

/** One liquidation as the report lists it. Money and prices as decimal strings. */
export interface ReportLiquidation {
  /** When the rule tripped (the snapshot whose marks tripped it), ISO 8601 UTC. */
  readonly time: string;
  readonly marketId: number;
  readonly symbol: string;
  /** The side of the closing fills (SELL closes a long). */
  readonly side: 'BUY' | 'SELL';
  /** Base amount closed. */
  readonly amount: string;
  /** Average price of the closing fills (the book walked as a MARKET order would). */
  readonly price: string;
  /** The mark that tripped the rule. */
  readonly mark: string;
  /** The liquidation fee charged. */
  readonly fee: string;
  /** The account's equity at the marks that tripped the rule (the simulation's). */
  readonly equityBefore: string;
  /**
   * The equity after every closure of that moment: `equityBefore` plus what each closure got
   * against its mark (`± amount × (price − mark)`, at its average price) less its fee.
   */
  readonly equityAfter: string;
  /** The maintenance margin the equity fell below. */
  readonly maintenanceMargin: string;
}

/** `report.json`'s `margin`: present when the run traded a PERPETUAL market. */
export interface ReportMargin {
  /**
   * Highest leverage (`Σ |position| × mark / equity`) over the samples (0 when never in a
   * position); null when every sample with a position had no positive equity.
   */
  readonly maxLeverage: string | null;
  /**
   * Leverage averaged over time: each sample's held until the next, over the samples with a
   * positive equity; null as above.
   */
  readonly meanLeverage: string | null;
  /** Highest margin use (initial margin used / equity) over the samples; null as above. */
  readonly maxMarginUse: string | null;
  /** Samples where equity was zero or below while a position was open (leverage undefined). */
  readonly samplesWithoutEquity: number;
  /** Every liquidation, oldest first. */
  readonly liquidations: readonly ReportLiquidation[];
}

/** Margin use and leverage at every sample of the curve (null where equity ≤ 0 with a position). */
export interface MarginSeries {
  readonly marginUseX18: readonly (bigint | null)[];
  readonly leverageX18: readonly (bigint | null)[];
}

/** True when the run traded a market the listing calls PERPETUAL (margin applies). */
export function usesMargin(trace: BacktestTrace, curve: EquityCurve): boolean {
  return curve.marketIds.some((id) => trace.margins?.get(id)?.type === 'PERPETUAL');
}

/** The account model's view of the account at sample `i` of the curve. */
function viewAt(
  trace: BacktestTrace,
  curve: EquityCurve,
  startX18: bigint,
  i: number,
): MarginAccountView {
  let balanceX18 = startX18;
  const positions: MarginPosition[] = [];
  for (const id of curve.marketIds) {
    const market = curve.markets.get(id);
    if (market === undefined) continue;
    balanceX18 += (market.realizedPnlX18[i] ?? 0n) - (market.feesX18[i] ?? 0n);
    const amountX18 = market.positionX18[i] ?? 0n;
    const rules = trace.margins?.get(id);
    if (amountX18 === 0n || rules === undefined) continue;
    positions.push({
      marketId: id,
      type: rules.type,
      amountX18,
      entryPriceX18: market.avgEntryPriceX18[i] ?? 0n,
      markX18: market.markPriceX18[i] ?? 0n,
      initialFractionX18: rules.initialMarginX18,
      maintenanceFractionX18: rules.maintenanceMarginX18,
    });
  }
  return marginAccount({ balanceX18, positions });
}

/** Initial margin used / equity, x18 rounded down; 0 flat, null when equity ≤ 0 with margin. */
function marginUseOf(view: MarginAccountView): bigint | null {
  if (view.initialMarginX18 === 0n) return 0n;
  return view.equityX18 <= 0n ? null : floorDiv(view.initialMarginX18 * X18_SCALE, view.equityX18);
}

/** Margin use and leverage at every sample of `curve` (the equity curve of the same trace). */
export function marginSeries(
  trace: BacktestTrace,
  curve: EquityCurve,
  startX18: bigint,
): MarginSeries {
  const marginUseX18: (bigint | null)[] = [];
  const leverageX18: (bigint | null)[] = [];
  curve.t.forEach((_, i) => {
    const view = viewAt(trace, curve, startX18, i);
    marginUseX18.push(marginUseOf(view));
    leverageX18.push(view.leverageX18 ?? null);
  });
  return { marginUseX18, leverageX18 };
}

const maxOf = (values: readonly (bigint | null)[]): bigint | null =>
  values.reduce<bigint | null>((m, v) => (v !== null && (m === null || v > m) ? v : m), null);

/** Each sample's leverage held until the next sample, averaged over that time (x18, down). */
function timeWeightedMean(t: readonly number[], values: readonly (bigint | null)[]): bigint | null {
  let weighted = 0n;
  let span = 0n;
  values.forEach((value, i) => {
    const next = t[i + 1];
    if (value === null || next === undefined) return;
    const dt = BigInt(next - (t[i] ?? next));
    weighted += value * dt;
    span += dt;
  });
  if (span > 0n) return weighted / span;
  // One sample (or all at one time): its value.
  return values.find((v) => v !== null) ?? null;
}

/** The liquidations, each with the equity after every closure of its moment. */
function liquidationRows(trace: BacktestTrace): ReportLiquidation[] {
  const list = trace.liquidations ?? [];
  const after = new Map<number, bigint>();
  for (const l of list) {
    const got = floorDiv(
      (l.side === 'SELL' ? l.amountX18 : -l.amountX18) * (l.priceX18 - l.markX18),
      X18_SCALE,
    );
    after.set(l.t, (after.get(l.t) ?? l.equityX18) + got - l.feeX18);
  }
  return list.map((l: LiquidationEvent) => ({
    time: new Date(l.t).toISOString(),
    marketId: l.marketId,
    symbol: trace.symbols.get(l.marketId) ?? `market ${l.marketId}`,
    side: l.side,
    amount: formatX18(l.amountX18),
    price: formatX18(l.priceX18),
    mark: formatX18(l.markX18),
    fee: formatX18(l.feeX18),
    equityBefore: formatX18(l.equityX18),
    equityAfter: formatX18(after.get(l.t) ?? l.equityX18),
    maintenanceMargin: formatX18(l.maintenanceMarginX18),
  }));
}

/** The report's `margin` from the series at every sample (before any downsampling). */
export function buildMargin(
  trace: BacktestTrace,
  curve: EquityCurve,
  series: MarginSeries,
): ReportMargin {
  const text = (v: bigint | null): string | null => (v === null ? null : formatX18(v));
  return {
    maxLeverage: text(maxOf(series.leverageX18)),
    meanLeverage: text(timeWeightedMean(curve.t, series.leverageX18)),
    maxMarginUse: text(maxOf(series.marginUseX18)),
    samplesWithoutEquity: series.leverageX18.filter((v) => v === null).length,
    liquidations: liquidationRows(trace),
  };
}
