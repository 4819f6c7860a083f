import { RatioDecimal, bigintRatio, formatRatio, type RatioValue } from './ratio-decimal.ts';

const MS_PER_YEAR = 365 * 24 * 3600 * 1000;
// Returns are fixed-point bigints at this scale, summed exactly at bigint speed (decimal.js per
// return made a 100k-snapshot run take seconds); the truncation of each return is below 1e-30.
const RETURN_SCALE = 10n ** 30n;
// A variance at or below 1e-30 (in return units) is truncation noise of constant returns, not
// risk: dividing by its root would print an absurd ratio instead of "undefined".
const NO_VARIANCE_SCALED = 10n ** 30n; // 1e-30 × RETURN_SCALE²

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
 * (n − 1), treating a variance ≤ 1e-30 as none; Sortino by the downside deviation
 * `sqrt(Σ min(r, 0)² / n)`. Pure and deterministic: returns are exact fixed-point bigints
 * (10^-30 steps, truncated), the ratio itself decimal.js at 40 digits rounded once at the end.
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
  let sum = 0n;
  let sumSquares = 0n;
  let downsideSquares = 0n;
  let previous = startX18;
  for (const equity of equityX18) {
    if (previous <= 0n) return none;
    const r = ((equity - previous) * RETURN_SCALE) / previous;
    sum += r;
    sumSquares += r * r;
    if (r < 0n) downsideSquares += r * r;
    previous = equity;
  }
  const n = BigInt(equityX18.length);
  const annualize = perYear.sqrt();
  // The scale cancels in both ratios: mean / sd = (Σr / n) / sqrt((nΣr² − (Σr)²) / (n(n − 1))).
  const mean = bigintRatio(sum, n);

  let sharpe: string | null = null;
  if (n >= 2n) {
    const spread = n * sumSquares - sum * sum;
    const pairs = n * (n - 1n);
    if (spread > pairs * NO_VARIANCE_SCALED) {
      sharpe = formatRatio(mean.div(bigintRatio(spread, pairs).sqrt()).times(annualize));
    }
  }
  const sortino =
    downsideSquares === 0n
      ? null
      : formatRatio(mean.div(bigintRatio(downsideSquares, n).sqrt()).times(annualize));
  return { sharpe, sortino };
}
