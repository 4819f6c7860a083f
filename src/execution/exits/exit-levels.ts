import { parseDecimalToX18 } from '../../money/index.ts';

const HUNDRED_X18 = 100n * 10n ** 18n;

/** An exit level as given: a price, or a percentage (`"1.5%"`) of a base price. */
export interface ExitLevel {
  readonly x18: bigint;
  readonly percent: boolean;
}

/** Parses `"2950"` or `"1.5%"` (checked by the intent schema before). */
export function parseExitLevel(text: string, what: string): ExitLevel {
  const percent = text.endsWith('%');
  return { x18: parseDecimalToX18(percent ? text.slice(0, -1) : text, what), percent };
}

/**
 * The distance a level stands for from `baseX18`: a percentage of the base (rounded down), or
 * the value itself (a trailing stop's absolute distance).
 */
export function levelDistanceX18(level: ExitLevel, baseX18: bigint): bigint {
  return level.percent ? (baseX18 * level.x18) / HUNDRED_X18 : level.x18;
}

/**
 * The price of a stop-loss or take-profit level for a position entered at `entryX18`: an
 * absolute level as it is; a percentage below the entry (`below`: a long's stop, a short's take
 * profit) or above it.
 */
export function levelPriceX18(level: ExitLevel, entryX18: bigint, below: boolean): bigint {
  if (!level.percent) return level.x18;
  const distance = levelDistanceX18(level, entryX18);
  return below ? entryX18 - distance : entryX18 + distance;
}
