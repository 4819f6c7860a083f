import { absX18, X18_SCALE as X18 } from '../money/index.ts';
import type { SimPosition } from '../sim/index.ts';
import type { ViolationLog } from './invariants.ts';
import { POSITION_CAP } from './sim-setup.ts';

/** Price moves between the check at send and the fill: the cap is checked with this slack. */
const CAP_SLACK_PERCENT = 5n;

/**
 * I3 for one market: the venue's position within the cap (`POSITION_CAP`), at its entry price.
 *
 * @param where - the market, for the message (`marketInMessage`).
 */
export function checkPositionCap(
  position: SimPosition,
  where: string,
  violations: ViolationLog,
): void {
  const amount = absX18(position.amountX18);
  const notional = (amount * position.avgEntryPriceX18) / X18;
  if (notional * 100n > POSITION_CAP * X18 * (100n + CAP_SLACK_PERCENT))
    violations.violate(
      'positionCap',
      `venue position ${position.amountX18} (x18)${where} at ${position.avgEntryPriceX18} is ${notional / X18} notional, cap ${POSITION_CAP}`,
    );
}
