/**
 * A side's top level read from a delta's start alone (`QuoteTrack`'s best prices and levels): the
 * top tick after the delta from the one before it, and the quantity the delta writes at level 0.
 */
import { firstOffset, SHIFTED, UNCHANGED } from './side-delta.ts';
import { formatTicks } from './price-ticks.ts';
import { firstQuantityUnits } from './quantity-block.ts';

/** A side without levels, in the top ticks (real ones are never negative). */
export const NO_TOP = -1;

/**
 * The top tick of a side after its delta `entry`, given the top before it (`NO_TOP`: no level):
 * the same top for an unchanged side, none for an empty one, else the top plus the delta's first
 * offset (from 0 with no level before). Undefined when the full path must decide (a literal or
 * malformed start, a shifted side with no levels to shift, a negative tick).
 */
export function topAfter(top: number, entry: string | 0, gapOut?: Int32Array): number | undefined {
  if (entry === 0) return top;
  if (entry === '') return NO_TOP;
  const offset = firstOffset(entry, gapOut);
  // (A shifted side moves the levels there were: none is malformed, for the full path.)
  if (offset === undefined || (top === NO_TOP && entry.charCodeAt(0) === SHIFTED)) return undefined;
  const next = (top === NO_TOP ? 0 : top) + offset;
  return next < 0 ? undefined : next;
}

/**
 * The quantity a delta `entry` writes at level 0, its first space at `gap`: a version 2 pair's
 * quantity or a block's first; null when the side keeps the quantity before it (`=`), undefined
 * when the full path must decide (a malformed block).
 */
export function levelZeroQuantity(entry: string, gap: number): string | undefined | null {
  if (entry.charCodeAt(0) === SHIFTED) {
    if (entry.length === gap + 2 && entry.charCodeAt(gap + 1) === UNCHANGED) return null;
    const units = firstQuantityUnits(entry, gap + 1, SCALE_OUT);
    return units < 0 ? undefined : formatTicks(units, SCALE_OUT[0] as number);
  }
  let end = entry.indexOf(' ', gap + 1);
  if (end === -1) end = entry.length;
  if (end === gap + 2 && entry.charCodeAt(gap + 1) === UNCHANGED) return null;
  return entry.slice(gap + 1, end);
}

// The scale `firstQuantityUnits` read (one number, reused).
const SCALE_OUT = new Float64Array(1);
/** Where `topAfter` (`firstOffset`) writes the index of a delta's first space (reused). */
export const GAP_OUT = new Int32Array(1);
