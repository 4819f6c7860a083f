/** Drawdown of an equity series. Money in x18. */
export interface Drawdown {
  /** `peak − equity` at each point, where peak is the highest equity so far (≥ 0). */
  readonly drawdownX18: readonly bigint[];
  /** The largest drawdown in quote units. */
  readonly maxX18: bigint;
  /**
   * The largest drawdown relative to the peak it fell from, as the exact fraction
   * `numerator / denominator` (0/1 when equity never fell). Kept exact so the caller rounds once.
   */
  readonly maxFraction: { readonly numerator: bigint; readonly denominator: bigint };
}

/**
 * Drawdown of `equityX18`, where the running peak starts at `startX18` (the equity before the
 * first point). The percentage maximum is taken over all points, so it may come from a different
 * point than the absolute maximum (a small early dip can be a larger share of a smaller peak).
 * Pure; exact (bigint cross-multiplication, no division).
 *
 * @param equityX18 - equity at each point.
 * @param startX18 - equity before the first point; must be positive for the fraction to mean
 *   anything (the running peak never goes below it).
 */
export function computeDrawdown(equityX18: readonly bigint[], startX18: bigint): Drawdown {
  const drawdownX18: bigint[] = [];
  let peak = startX18;
  let maxX18 = 0n;
  let numerator = 0n;
  let denominator = 1n;
  for (const equity of equityX18) {
    if (equity > peak) peak = equity;
    const drawdown = peak - equity;
    drawdownX18.push(drawdown);
    if (drawdown > maxX18) maxX18 = drawdown;
    // drawdown / peak > numerator / denominator. The peak never falls, so peak ≥ denominator
    // and only a drawdown above the numerator can beat it: cheap test first, exact one after.
    if (drawdown > numerator && peak > 0n && drawdown * denominator > numerator * peak) {
      numerator = drawdown;
      denominator = peak;
    }
  }
  return { drawdownX18, maxX18, maxFraction: { numerator, denominator } };
}
