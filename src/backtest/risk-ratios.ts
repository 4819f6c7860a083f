import { RatioDecimal, bigintRatio, formatRatio, type RatioValue } from './ratio-decimal.ts';

const MS_PER_YEAR = 365 * 24 * 3600 * 1000;
// A variance this small is rounding noise of the 40-digit division (constant returns), not
// risk: dividing by its root would print an absurd ratio instead of "undefined".
const NO_VARIANCE = new RatioDecimal('1e-30');

/** Sharpe and Sortino ratios of an equity series, as fixed-digit decimal strings. */
export interface RiskRatios {
  /** Annualized Sharpe ratio; null when undefined (fewer than 2 returns, no variance). */
  readonly sharpe: string | null;
  /** Annualized Sortino ratio; null when undefined (no return, no losing period). */
  readonly sortino: string | null;
}

/**
 * Periods per year for a snapshot spacing: `365×24×3600×1000 / intervalMs`; null when the
 * interval is not a positive finite number (a trace with one snapshot has no spacing).
 */
export function periodsPerYear(snapshotIntervalMs: number): RatioValue | null {
  if (!Number.isFinite(snapshotIntervalMs) || snapshotIntervalMs <= 0) return null;
  return new RatioDecimal(MS_PER_YEAR).div(snapshotIntervalMs);
}

/**
 * Sharpe and Sortino ratios (risk-free rate 0) of the per-period simple returns
 * `E[i] / E[i−1] − 1` of `equityX18`, where `E[−1] = startX18`, annualized by
 * `sqrt(periodsPerYear)`. Sharpe divides the mean return by the sample standard deviation
 * (n − 1), treating a variance ≤ 1e-30 as none; Sortino by the downside deviation `sqrt(Σ min(r, 0)² / n)`. Pure and deterministic
 * (decimal.js at 40 digits, rounded once at the end).
 *
 * @param equityX18 - equity at each sample.
 * @param startX18 - equity before the first sample.
 * @param perYear - from `periodsPerYear`; null gives null ratios.
 * @returns null ratios when undefined, including when equity is ever ≤ 0 (returns have no
 *   meaning past ruin).
 */
export function computeRiskRatios(
  equityX18: readonly bigint[],
  startX18: bigint,
  perYear: RatioValue | null,
): RiskRatios {
  const none: RiskRatios = { sharpe: null, sortino: null };
  if (perYear === null || equityX18.length === 0) return none;
  const returns: RatioValue[] = [];
  let previous = startX18;
  for (const equity of equityX18) {
    if (previous <= 0n) return none;
    returns.push(bigintRatio(equity - previous, previous));
    previous = equity;
  }
  const n = returns.length;
  const zero = new RatioDecimal(0);
  const mean = returns.reduce((sum, r) => sum.plus(r), zero).div(n);
  const annualize = perYear.sqrt();

  let sharpe: string | null = null;
  if (n >= 2) {
    const variance = returns.reduce((sum, r) => sum.plus(r.minus(mean).pow(2)), zero).div(n - 1);
    if (variance.gt(NO_VARIANCE)) sharpe = formatRatio(mean.div(variance.sqrt()).times(annualize));
  }

  const downsideSquares = returns.reduce((sum, r) => (r.isNeg() ? sum.plus(r.pow(2)) : sum), zero);
  const downside = downsideSquares.div(n).sqrt();
  const sortino = downside.isZero() ? null : formatRatio(mean.div(downside).times(annualize));
  return { sharpe, sortino };
}
