/**
 * The form of a quote side in a recording without check fields (formats 1 to 4), checked when its
 * line is read. Sides are applied only when a quote is read (`quote-track.ts`), so without this a
 * negative quantity or a malformed quantity block in an unverifiable file surfaced only when an
 * order met the book, as orders ending UNKNOWN (issue 25). Format 5 lines carry a checksum the
 * reader checks first, so their sides need no second look.
 */
import { quantityBlockProblem } from './quantity-block.ts';

const MINUS = 45;
const ZERO = 48;
const NINE = 57;
const AT = 64;
const STAR = 42;
const EQUALS = 61;

/** True for `-?digits` between `from` and `to`. */
function isInteger(raw: string, from: number, to: number): boolean {
  const start = raw.charCodeAt(from) === MINUS ? from + 1 : from;
  if (start >= to) return false;
  for (let at = start; at < to; at++) {
    const code = raw.charCodeAt(at);
    if (code < ZERO || code > NINE) return false;
  }
  return true;
}

function quantityProblem(raw: string, from: number, to: number, level: number): string {
  return `[${level}]: quantity ${JSON.stringify(raw.slice(from, to))} is negative`;
}

/**
 * What is wrong with the form of a side of format `version` (1 to 4), or undefined: pairs of a
 * price (2 to 4: a tick offset, or `@` and the venue's text) and a quantity that is not negative,
 * or (format 4) a shifted side `*<ticks> <block>` whose block is `=` or well formed. The texts
 * themselves are the venue's (the writer refuses only a space in them, and a leading minus in a
 * quantity), parsed
 * where they are used; whether the levels exist (an offset from a level there was) is left to
 * the reading of the side.
 */
export function legacySideProblem(raw: string, version: number): string | undefined {
  if (raw === '') return undefined;
  if (version >= 4 && raw.charCodeAt(0) === STAR) {
    const gap = raw.indexOf(' ');
    if (gap === -1 || !isInteger(raw, 1, gap))
      return `: expected "*" and an integer tick shift, got ${JSON.stringify(raw.slice(0, 20))}`;
    if (raw.length === gap + 2 && raw.charCodeAt(gap + 1) === EQUALS) return undefined;
    const width = raw.charCodeAt(gap + 2) - ZERO;
    const digits = raw.length - gap - 3;
    if (!(width >= 1 && width <= 8) || digits % width !== 0)
      return `: quantity block ${JSON.stringify(raw.slice(gap + 1, gap + 3))}: expected a scale (0-f), a width (1-8) and whole quantities of that width`;
    const problem = quantityBlockProblem(raw, gap + 1, digits / width);
    return problem === undefined ? undefined : `: ${problem}`;
  }
  let at = 0;
  for (let level = 0; ; level++) {
    const gap = raw.indexOf(' ', at);
    if (gap === -1) return `: expected price and quantity pairs, got an odd number of values`;
    // A literal price (format 1, or `@` in 2 to 4) is the venue's text, checked where it is used.
    if (version >= 2 && raw.charCodeAt(at) !== AT && !isInteger(raw, at, gap))
      return `[${level}]: price ${JSON.stringify(raw.slice(at, gap))} is not a tick offset`;
    let end = raw.indexOf(' ', gap + 1);
    if (end === -1) end = raw.length;
    if (raw.charCodeAt(gap + 1) === MINUS) return quantityProblem(raw, gap + 1, end, level);
    if (end === raw.length) return undefined;
    at = end + 1;
  }
}
