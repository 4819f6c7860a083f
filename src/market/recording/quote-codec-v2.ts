/**
 * Quotes of format version 2 and later: each side `0` (unchanged) or a delta string against the
 * market's previous quote in the file (`side-delta.ts`), kept on the market's `QuoteTrack` and
 * applied only when read. Version 3 adds keyframes, 4 shifted sides and quote times relative to
 * the snapshot's, 5 the check field (which makes the sides' own form check unneeded).
 */
import type { Quote } from '../../domain/index.ts';
import type { RecordingListing } from './recording-listing.ts';
import type { InvalidLine } from './decode-values.ts';
import { QuoteTrack, TRACK_LIMIT } from './quote-track.ts';
import { RecordedQuote } from './recorded-quote.ts';
import { SHIFTED } from './side-delta.ts';
import { legacySideProblem } from './side-syntax.ts';
import { quoteHead, sideName, type QuotePlace } from './quote-codec-v1.ts';
import type { RecordingVersion } from './recording-format.ts';

/** The quote tracks of one file of format version 2 or later. */
export class QuoteCodecV2 {
  // Each market's current track of quotes in this file.
  readonly #tracks = new Map<number, QuoteTrack>();
  // Snapshot lines since the last keyframe, and between the last two: a new track's capacity.
  #sinceKeyframe = 0;
  #keyframeSpan = 0;

  /**
   * @param version - the file's format version (2 to 5).
   * @param sealed - whether its lines carry a check field (version 5).
   */
  constructor(
    private readonly file: string,
    private readonly version: RecordingVersion,
    private readonly sealed: boolean,
    private readonly listing: RecordingListing,
    private readonly invalid: InvalidLine,
  ) {}

  /** What a quote's time is written against: 0, or version 4's snapshot time. */
  timeBase(takenAt: number): number {
    return this.version >= 4 ? takenAt : 0;
  }

  /** A snapshot line was read (after `atKeyframe` for a keyframe). */
  countSnapshot(): void {
    this.#sinceKeyframe += 1;
  }

  /** A keyframe line: every side in it is absolute, so what the tracks hold is needed no more. */
  atKeyframe(): void {
    this.#tracks.clear();
    this.#keyframeSpan = Math.min(this.#sinceKeyframe, TRACK_LIMIT);
    this.#sinceKeyframe = 0;
  }

  /** A quote row of a JSON-parsed snapshot line, checked. */
  decodeRow(raw: unknown, place: QuotePlace, timeBase: number): Quote {
    const { marketId, timestamp, bids, asks } = quoteHead(raw, place, this.invalid);
    const notSide = (side: string) =>
      this.invalid(
        place.line,
        `${sideName(place, side)}: expected 0 or a "price quantity …" string`,
      );
    if (bids !== 0 && typeof bids !== 'string') throw notSide('bids');
    if (asks !== 0 && typeof asks !== 'string') throw notSide('asks');
    return this.quote(
      marketId,
      timeBase + timestamp,
      bids,
      asks,
      place.line,
      place.seq,
      place.index,
    );
  }

  /** The quote of a market with its sides as the line holds them, put on the market's track. */
  quote(
    marketId: number,
    timestamp: number,
    bids: string | 0,
    asks: string | 0,
    line: number,
    seq: number,
    index: number,
  ): Quote {
    // Checked (and a place built) only where a side can be wrong: before version 4 a shifted
    // side, before version 5 any side.
    if (this.version < 4 || !this.sealed) this.#checkSides(bids, asks, { line, seq, index });
    const expo = this.listing.markets.get(marketId)?.priceExpo;
    let track = this.#tracks.get(marketId);
    if (track === undefined || track.expo !== expo || track.length >= TRACK_LIMIT) {
      // A new track starts from the sides of the market's last quote (whose deltas are applied
      // now): the first quote in the file, a changed tick grid, or a long stretch without a
      // keyframe.
      const last = track === undefined ? -1 : track.length - 1;
      track = new QuoteTrack(
        this.file,
        expo,
        track?.side('bids', last),
        track?.side('asks', last),
        this.#keyframeSpan,
      );
      this.#tracks.set(marketId, track);
    }
    // The sides are applied only when read (see QuoteTrack).
    const at = track.push(bids, asks, line, seq, index);
    return new RecordedQuote(marketId, timestamp, track.bids, track.asks, at);
  }

  #checkSides(bids: string | 0, asks: string | 0, place: QuotePlace): void {
    // A shifted side (`*`) is version 4's.
    if (this.version < 4) {
      if (typeof bids === 'string' && bids.charCodeAt(0) === SHIFTED)
        throw this.#shiftedTooEarly(place, 'bids');
      if (typeof asks === 'string' && asks.charCodeAt(0) === SHIFTED)
        throw this.#shiftedTooEarly(place, 'asks');
    }
    // A side of an unverifiable file (formats 1 to 4) is checked for form when its line is
    // read, so a negative quantity or a malformed block is refused naming file:line, not met by
    // an order.
    if (!this.sealed) {
      if (typeof bids === 'string') this.#checkLegacySide(bids, place, 'bids');
      if (typeof asks === 'string') this.#checkLegacySide(asks, place, 'asks');
    }
  }

  #checkLegacySide(raw: string, place: QuotePlace, side: string): void {
    const problem = legacySideProblem(raw, this.version);
    if (problem !== undefined) throw this.invalid(place.line, `${sideName(place, side)}${problem}`);
  }

  #shiftedTooEarly(place: QuotePlace, side: string) {
    return this.invalid(
      place.line,
      `${sideName(place, side)}: a shifted side ("*…") is format 4's, and this file is version ${this.version}`,
    );
  }
}
