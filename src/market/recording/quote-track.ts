import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { QuoteLevel } from '../../domain/index.ts';
import { SideLevels, tickX18 } from './side-levels.ts';
import {
  applySideDelta,
  passShiftedSide,
  replacesQuantities,
  SHIFTED,
  SideFormatError,
} from './side-delta.ts';
import { priceText } from './price-ticks.ts';
import { GAP_OUT, levelZeroQuantity, NO_TOP, topAfter } from './track-tops.ts';

import type { LevelSource } from './recorded-quote.ts';

type Side = 'bids' | 'asks';

/** A side's delta string, `0` (unchanged), or the side once the delta was applied. */
type Entry = string | 0 | SideLevels;

/**
 * Beyond this many quotes without a keyframe (version 2 files have none), the decoder applies a
 * track's deltas and starts the next track from the result, so memory stays bounded.
 */
export const TRACK_LIMIT = 512;

/**
 * The quotes of one market in a stretch of a version 2+ file, with their sides kept as the delta
 * strings the line held until one is read. A side is the previous one plus its delta, so reading
 * quote k applies the deltas since the last side applied before it; a market nobody reads costs a
 * string kept per quote, and its deltas are dropped unread when a keyframe line (version 3)
 * starts the next track. Every 16th side on the way to a side read replaces its string, and the
 * side read last is kept beside them, so a delta is applied at most 16 times however the quotes
 * are read (in order, backwards, or again in a second replay), once when they are read in order.
 */
export class QuoteTrack {
  // Sized up front from the stretch between the file's last two keyframes (when known): grown
  // push by push they were copied over and over, a few KB per snapshot to collect.
  readonly #bids: Entry[];
  readonly #asks: Entry[];
  #count = 0;
  // Per quote, once a best price was asked for: the top tick of each side (NO_TOP: no level,
  // NaN: not asked yet). Made at the first ask, as long as the track's arrays: grown push by
  // push, their copies were a fifth of what reading the best bid and ask of every quote made.
  #bidTops: Float64Array | undefined;
  #askTops: Float64Array | undefined;
  // Per side, the side read last and its place: the next quote read in order is one delta from
  // it. Kept here, not in the entries: a strategy reading every book read every side, and the
  // entries kept them all alive until the next keyframe, past the young generation.
  #bidRead: SideLevels | undefined;
  #bidReadAt = -1;
  #askRead: SideLevels | undefined;
  #askReadAt = -1;
  // Per quote: its line, seq and index in the snapshot, for messages.
  readonly #where: number[];
  /** The bids of the quotes on this track. */
  readonly bids: LevelSource;
  /** The asks of the quotes on this track. */
  readonly asks: LevelSource;

  /**
   * @param file - the file, named in messages.
   * @param expo - the market's `priceExpo` for every quote of the track (a change starts a new
   *   track).
   * @param bidsBefore - the bids of the market's quote before the track (undefined at the start
   *   of a file or at a keyframe); `asksBefore` the same for its asks.
   * @param capacity - how many quotes the track will likely hold (its arrays are made that long).
   */
  constructor(
    readonly file: string,
    readonly expo: number | undefined,
    private readonly bidsBefore: SideLevels | undefined,
    private readonly asksBefore: SideLevels | undefined,
    capacity = 0,
  ) {
    this.#bids = new Array<Entry>(capacity);
    this.#asks = new Array<Entry>(capacity);
    this.#where = new Array<number>(3 * capacity);
    this.bids = new TrackSide(this, 'bids');
    this.asks = new TrackSide(this, 'asks');
  }

  /** How many quotes the track holds. */
  get length(): number {
    return this.#count;
  }

  /**
   * Appends a quote's sides as the line held them; returns its place on the track.
   *
   * @throws QuantaError `QUANTA_RECORDING_INVALID` for a side marked unchanged at the start of a
   *   file or keyframe (nothing to be unchanged from), found at once.
   */
  push(bids: string | 0, asks: string | 0, line: number, seq: number, index: number): number {
    const at = this.#count++;
    this.#where[3 * at] = line;
    this.#where[3 * at + 1] = seq;
    this.#where[3 * at + 2] = index;
    this.#bids[at] = bids;
    this.#asks[at] = asks;
    if (at === 0) {
      if (bids === 0 && this.bidsBefore === undefined) this.side('bids', 0);
      if (asks === 0 && this.asksBefore === undefined) this.side('asks', 0);
    }
    return at;
  }

  /**
   * The side of quote `at`, applying the deltas it depends on (once).
   *
   * @throws QuantaError `QUANTA_RECORDING_INVALID` naming file, line and side of the first
   *   malformed delta on the way.
   */
  side(side: Side, at: number): SideLevels {
    const entries = side === 'bids' ? this.#bids : this.#asks;
    const known = this.#known(side, at);
    if (known !== undefined) return known;
    const readAt = side === 'bids' ? this.#bidReadAt : this.#askReadAt;
    let from = at - 1;
    while (from >= 0 && from !== readAt && !(entries[from] instanceof SideLevels)) from--;
    let current = from < 0 ? (side === 'bids' ? this.bidsBefore : this.asksBefore) : undefined;
    if (from >= 0) current = this.#known(side, from);
    // Ticks `current`'s levels still have to move: the shifts of the shifted sides passed over
    // (checked, not built) because the next one brings quantities of its own. A book that moves
    // as a whole writes such runs of sides, and the simulation reads a market's book only when an
    // order meets it, so most of a run is never read.
    let pending = 0;
    for (let i = from + 1; i <= at; i++) {
      const entry = entries[i] as string | 0;
      // Kept: every 16th side on the way (a later read of one between applies at most 15 deltas
      // again, with the same result). Keeping every side on the way kept a traded market's sides
      // alive until the next keyframe, past the young generation: most of them are only a step
      // to the side read.
      const keep = (i & 15) === 0;
      try {
        if (entry === 0) {
          if (current === undefined)
            throw this.#invalid(i, side, ': marked unchanged, but the market had no quote before');
        } else if (
          i !== at &&
          !keep &&
          entry.charCodeAt(0) === SHIFTED &&
          replacesQuantities(entries[i + 1])
        ) {
          pending += passShiftedSide(entry, current, this.expo, pending);
          continue;
        } else {
          current = applySideDelta(entry, current, this.expo, pending);
          pending = 0;
        }
      } catch (error) {
        if (error instanceof SideFormatError) throw this.#invalid(i, side, error.detail);
        throw error;
      }
      if (keep) entries[i] = current;
    }
    if (side === 'bids') {
      this.#bidRead = current;
      this.#bidReadAt = at;
    } else {
      this.#askRead = current;
      this.#askReadAt = at;
    }
    return current as SideLevels;
  }

  /** Quote `at`'s side when it was made already: kept on the track, or the one read last. */
  #known(side: Side, at: number): SideLevels | undefined {
    const found = (side === 'bids' ? this.#bids : this.#asks)[at];
    if (found instanceof SideLevels) return found;
    if (side === 'bids') return this.#bidReadAt === at ? this.#bidRead : undefined;
    return this.#askReadAt === at ? this.#askRead : undefined;
  }

  /**
   * The best price of quote `at`'s side as x18. Walking from the last side known, it reads only
   * each delta's first price (the top is the previous top plus that offset), so a chart's tops
   * or a final mark cost a few characters per quote, not the whole book; a literal top (`@`) or
   * a missing one falls back to applying the deltas. The rest of each delta is checked when its
   * levels are read.
   */
  bestX18(side: Side, at: number): bigint | undefined {
    const next = this.#nextTop(side, at);
    if (!Number.isNaN(next)) return tickX18(next, this.expo as number);
    const found = this.#known(side, at);
    if (found !== undefined) return found.bestX18();
    const top = this.#topTick(side, at);
    if (top === undefined || this.expo === undefined) return this.side(side, at).bestX18();
    return tickX18(top, this.expo);
  }

  /**
   * `bestX18`'s price as a tick and its grid, into `out[0]` and `out[1]`, without making the
   * bigint; false where `bestX18` takes another path (no level, a literal top, no grid).
   */
  bestTick(side: Side, at: number, out: Float64Array): boolean {
    const next = this.#nextTop(side, at);
    if (!Number.isNaN(next)) {
      out[0] = next;
      out[1] = this.expo as number;
      return true;
    }
    const found = this.#known(side, at);
    if (found !== undefined) {
      if (found.count === 0 || found.expo === undefined) return false;
      const tick = found.tick(0);
      if (Number.isNaN(tick)) return false;
      out[0] = tick;
      out[1] = found.expo;
      return true;
    }
    const top = this.#topTick(side, at);
    if (top === undefined || this.expo === undefined) return false;
    out[0] = top;
    out[1] = this.expo;
    return true;
  }

  /**
   * The first level of quote `at`'s side, its price from the top tick (`bestX18`'s walk) and its
   * quantity from the last delta that wrote one at level 0, so the best bid and ask of a market
   * cost two short strings, not the side's levels. Anything unusual (a literal, a malformed
   * start) takes the full path, which reports it.
   */
  best(side: Side, at: number): QuoteLevel | undefined {
    const inOrder = this.#bestInOrder(side, at);
    if (inOrder !== undefined) return inOrder;
    let top: number | undefined = this.#nextTop(side, at);
    if (Number.isNaN(top)) {
      const found = this.#known(side, at);
      if (found !== undefined) return found.level(0);
      top = this.#topTick(side, at);
    }
    const quantity = top === undefined ? undefined : this.#topQuantity(side, at);
    if (top === undefined || quantity === undefined || this.expo === undefined)
      return this.side(side, at).level(0);
    return { price: priceText(top, this.expo), quantity };
  }

  /**
   * `best` of a quote read right after the one before it (a strategy reading the top of its
   * books snapshot by snapshot) whose side is a delta writing its own top quantity: its top tick
   * and its quantity from one pass over the delta's start, where `#nextTop` and `#topQuantity`
   * each read it (the quantity after a search for the space the offset's reading had found).
   * Undefined, with nothing written, wherever `best` must take its other paths.
   */
  #bestInOrder(side: Side, at: number): QuoteLevel | undefined {
    const bids = side === 'bids';
    const tops = bids ? this.#bidTops : this.#askTops;
    const expo = this.expo;
    if (tops === undefined || at === 0 || at >= tops.length || expo === undefined) return undefined;
    const before = tops[at - 1] as number;
    const entry = (bids ? this.#bids : this.#asks)[at];
    if (typeof entry !== 'string' || Number.isNaN(before)) return undefined;
    const next = topAfter(before, entry, GAP_OUT);
    if (next === undefined || next === NO_TOP) return undefined;
    const quantity = levelZeroQuantity(entry, GAP_OUT[0] as number);
    if (quantity === undefined || quantity === null) return undefined;
    tops[at] = next;
    return { price: priceText(next, expo), quantity };
  }

  /**
   * The top tick of quote `at`'s side from the first offsets of the deltas since the last side
   * known; undefined when the full path must decide (no level, a literal top, a changed grid).
   */
  #topTick(side: Side, at: number): number | undefined {
    const entries = side === 'bids' ? this.#bids : this.#asks;
    const tops = this.#tops(side, at);
    let from = at;
    while (from >= 0 && Number.isNaN(tops[from]) && !(entries[from] instanceof SideLevels)) from--;
    // The top tick so far, NO_TOP when the side has no level (the next top is then absolute).
    let top: number;
    if (from >= 0 && !Number.isNaN(tops[from])) {
      top = tops[from] as number;
    } else {
      const known = from >= 0 ? (entries[from] as SideLevels) : this.#before(side);
      if (known === undefined) {
        // Nothing before the track: its first side must be absolute (the full path reports a 0).
        if (entries[0] === 0) return undefined;
        top = NO_TOP;
      } else if (known.count === 0) {
        top = NO_TOP;
      } else {
        top = known.tick(0);
        // A literal top, or a grid changed with the track: leave it to the full path.
        if (Number.isNaN(top) || known.expo !== this.expo) return undefined;
      }
    }
    for (let i = from + 1; i <= at; i++) {
      const next = topAfter(top, entries[i] as string | 0);
      if (next === undefined) return undefined;
      top = tops[i] = next;
    }
    return top === NO_TOP ? undefined : top;
  }

  /**
   * Quote `at`'s top tick: the one found for it already (a strategy's best level, then a chart's
   * sample of the same quote), else from the one before it when known (quotes read in order),
   * without `#topTick`'s search back; else NaN (no level too).
   */
  #nextTop(side: Side, at: number): number {
    const tops = side === 'bids' ? this.#bidTops : this.#askTops;
    if (tops === undefined || at >= tops.length || this.expo === undefined) return Number.NaN;
    const entry = (side === 'bids' ? this.#bids : this.#asks)[at];
    if (entry instanceof SideLevels) return Number.NaN;
    const found = tops[at] as number;
    if (!Number.isNaN(found)) return found === NO_TOP ? Number.NaN : found;
    if (at === 0) return Number.NaN;
    const before = tops[at - 1] as number;
    if (Number.isNaN(before)) return Number.NaN;
    const next = topAfter(before, entry as string | 0);
    if (next === undefined) return Number.NaN;
    tops[at] = next;
    return next === NO_TOP ? Number.NaN : next;
  }

  /** The top ticks of a side's quotes (see `#bidTops`), long enough to hold quote `at`'s. */
  #tops(side: Side, at: number): Float64Array {
    const tops = side === 'bids' ? this.#bidTops : this.#askTops;
    if (tops !== undefined && tops.length > at) return tops;
    const grown = new Float64Array(Math.max(this.#bids.length, 2 * at + 16)).fill(Number.NaN);
    if (tops !== undefined) grown.set(tops);
    if (side === 'bids') this.#bidTops = grown;
    else this.#askTops = grown;
    return grown;
  }

  /**
   * The quantity of level 0 of quote `at`'s side: read from the last side back that wrote one
   * (a version 2 pair's quantity, a block's first), skipping sides that keep it (`0`, `=`);
   * undefined when the walk meets anything else (the full path then decides).
   */
  #topQuantity(side: Side, at: number): string | undefined {
    const entries = side === 'bids' ? this.#bids : this.#asks;
    for (let i = at; ; i--) {
      const entry = i >= 0 ? entries[i] : this.#before(side);
      if (entry === undefined || entry === '') return undefined;
      if (entry instanceof SideLevels) return entry.count > 0 ? entry.quantity(0) : undefined;
      if (entry === 0) continue;
      const gap = entry.indexOf(' ');
      if (gap === -1) return undefined;
      const quantity = levelZeroQuantity(entry, gap);
      if (quantity !== null) return quantity;
    }
  }

  #before(side: Side): SideLevels | undefined {
    return side === 'bids' ? this.bidsBefore : this.asksBefore;
  }

  #invalid(at: number, side: Side, detail: string): QuantaError {
    const line = this.#where[3 * at] as number;
    const seq = this.#where[3 * at + 1] as number;
    const index = this.#where[3 * at + 2] as number;
    return new QuantaError(
      ErrorCodes.RECORDING_INVALID,
      `${this.file}:${line}: snapshot ${seq}: quotes[${index}].${side}${detail}`,
    );
  }
}

/** One side of a track, as the recorded quotes on it read it. */
class TrackSide implements LevelSource {
  constructor(
    private readonly track: QuoteTrack,
    private readonly side: Side,
  ) {}

  levels(at: number): QuoteLevel[] {
    return this.track.side(this.side, at).levels();
  }

  bestX18(at: number): bigint | undefined {
    return this.track.bestX18(this.side, at);
  }

  levelsX18(at: number): readonly bigint[] | undefined {
    return this.track.side(this.side, at).levelsX18();
  }

  topX18(at: number, highest: boolean): bigint | undefined | null {
    return this.track.side(this.side, at).topX18(highest);
  }

  best(at: number): QuoteLevel | undefined {
    return this.track.best(this.side, at);
  }

  bestTick(at: number, out: Float64Array): boolean {
    return this.track.bestTick(this.side, at, out);
  }

  numbers(at: number, into: Float64Array): number {
    return this.track.side(this.side, at).numbers(into);
  }
}
