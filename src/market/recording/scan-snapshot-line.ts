/**
 * A scanner for the snapshot lines of format version 2 and later, as the writer's
 * `JSON.stringify` makes them: `["s"|"k",seq,takenAt,stale,[[id,ts,side,side],…]]` with no
 * whitespace, integers or plain decimals, and each side `0` or a string without escapes. It
 * reads the values where they stand instead of building the line's JSON tree: each side becomes
 * a slice of the line (no copy), and nothing else is allocated. Anything else (another shape, an
 * escape, an exponent, a torn line) is left to `JSON.parse`, which then decides and words the
 * error, so the scanner only ever has to say "not mine". One thing JSON forbids is not looked for:
 * a raw control character inside a side (the writer's `JSON.stringify` never leaves one; in a
 * corrupt file it ends up in a level's text, which the simulation's decimal parse refuses).
 */

/**
 * What the scanner found. Its arrays are reused from one line to the next (not emptied: V8
 * would give up their storage), so only the first `count` entries are this line's.
 */
export interface ScannedLine {
  keyframe: boolean;
  seq: number;
  takenAt: number;
  stale: 0 | 1;
  /** False for a snapshot line without quotes (`["s",seq,takenAt,stale]`). */
  hasQuotes: boolean;
  /** How many quotes the line has. */
  count: number;
  readonly marketIds: number[];
  readonly timestamps: number[];
  readonly bids: (string | 0)[];
  readonly asks: (string | 0)[];
}

const QUOTE = 34;
const COMMA = 44;
const OPEN = 91;
const CLOSE = 93;
const MINUS = 45;
const POINT = 46;
const ZERO = 48;
const NINE = 57;

/**
 * Scans snapshot and keyframe lines (see the top of this file) into one reused
 * {@link ScannedLine}.
 */
export class SnapshotLineScanner {
  /** What the last successful {@link scan} found. */
  readonly out: ScannedLine = {
    keyframe: false,
    seq: 0,
    takenAt: 0,
    stale: 0,
    hasQuotes: false,
    count: 0,
    marketIds: [],
    timestamps: [],
    bids: [],
    asks: [],
  };
  // The line being scanned, the position in it, and the last number and side read (returned
  // through fields, not objects, so a token allocates nothing).
  #line = '';
  #at = 0;
  #value = 0;
  #side: string | 0 = 0;
  // Whether the line has a backslash anywhere: looked for once per line, not once per side (the
  // writer's lines have none).
  #escapes = false;

  /**
   * Scans a snapshot or keyframe line into `out`.
   *
   * @returns false when the line is not in the writer's plain form (then `out` is partly
   *   overwritten and must not be used): the caller decodes it with `JSON.parse` instead.
   */
  scan(text: string): boolean {
    this.#line = text;
    this.#escapes = text.includes('\\');
    try {
      return this.#scan(this.out);
    } finally {
      this.#line = '';
      this.#side = 0;
    }
  }

  #scan(out: ScannedLine): boolean {
    const line = this.#line;
    const tag = line.startsWith('["s",') ? 's' : line.startsWith('["k",') ? 'k' : undefined;
    if (tag === undefined) return false;
    out.keyframe = tag === 'k';
    this.#at = 5;
    if (!this.#number() || !Number.isSafeInteger(this.#value) || !this.#expect(COMMA)) return false;
    out.seq = this.#value;
    if (!this.#number() || !this.#expect(COMMA)) return false;
    out.takenAt = this.#value;
    const stale = line.charCodeAt(this.#at) - ZERO;
    if (stale !== 0 && stale !== 1) return false;
    out.stale = stale;
    this.#at += 1;
    let count = 0;
    out.count = 0;
    if (line.charCodeAt(this.#at) === CLOSE) {
      out.hasQuotes = false;
      return this.#at + 1 === line.length;
    }
    out.hasQuotes = true;
    if (!this.#expect(COMMA) || !this.#expect(OPEN)) return false;
    if (line.charCodeAt(this.#at) !== CLOSE) {
      for (;;) {
        if (!this.#expect(OPEN)) return false;
        if (!this.#number() || !Number.isSafeInteger(this.#value) || !this.#expect(COMMA))
          return false;
        out.marketIds[count] = this.#value;
        if (!this.#number() || !this.#expect(COMMA)) return false;
        out.timestamps[count] = this.#value;
        if (!this.#sideValue() || !this.#expect(COMMA)) return false;
        out.bids[count] = this.#side;
        if (!this.#sideValue() || !this.#expect(CLOSE)) return false;
        out.asks[count] = this.#side;
        count += 1;
        if (line.charCodeAt(this.#at) !== COMMA) break;
        this.#at += 1;
      }
    }
    out.count = count;
    return this.#expect(CLOSE) && this.#expect(CLOSE) && this.#at === line.length;
  }

  /**
   * A JSON number with at most 15 integer digits (exact as doubles), no exponent, an optional
   * fraction (read by `Number`); sets `#value`.
   */
  #number(): boolean {
    const line = this.#line;
    let at = this.#at;
    const start = at;
    let code = line.charCodeAt(at);
    if (code === MINUS) code = line.charCodeAt(++at);
    const digitsFrom = at;
    let n = 0;
    while (code >= ZERO && code <= NINE) {
      n = n * 10 + (code - ZERO);
      code = line.charCodeAt(++at);
    }
    const digits = at - digitsFrom;
    // No digits, a leading zero, or more digits than a double holds exactly.
    if (digits === 0 || digits > 15 || (digits > 1 && line.charCodeAt(digitsFrom) === ZERO))
      return false;
    if (code === POINT) {
      code = line.charCodeAt(++at);
      const fractionFrom = at;
      while (code >= ZERO && code <= NINE) code = line.charCodeAt(++at);
      if (at === fractionFrom) return false;
      this.#value = Number(line.slice(start, at));
    } else {
      this.#value = line.charCodeAt(start) === MINUS ? -n : n;
    }
    this.#at = at;
    return true;
  }

  /** A side: `0`, or a string without escapes (a slice of the line); sets `#side`. */
  #sideValue(): boolean {
    const line = this.#line;
    const at = this.#at;
    const code = line.charCodeAt(at);
    if (code === ZERO) {
      this.#at = at + 1;
      this.#side = 0;
      return true;
    }
    if (code !== QUOTE) return false;
    const end = line.indexOf('"', at + 1);
    if (end === -1) return false;
    const text = line.slice(at + 1, end);
    // An escape needs JSON's decoding (and the `"` found may be an escaped one).
    if (this.#escapes && text.includes('\\')) return false;
    this.#side = text;
    this.#at = end + 1;
    return true;
  }

  #expect(code: number): boolean {
    if (this.#line.charCodeAt(this.#at) !== code) return false;
    this.#at += 1;
    return true;
  }
}
