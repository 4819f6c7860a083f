import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { parseMarketRow, type MarketRow } from '../../venue/schemas/index.ts';
import { QUOTE_LEVELS_X18, type Market, type Quote, type QuoteLevel } from '../../domain/index.ts';
import { sameMarket } from '../same-market.ts';
import { createSnapshot, type Snapshot } from '../snapshot.ts';
import { BEST_PRICE_X18 } from '../best-price.ts';
import { QuoteTrack, TRACK_LIMIT, type LevelSource } from './quote-track.ts';
import { SnapshotLineScanner } from './scan-snapshot-line.ts';
import { SHIFTED } from './side-levels.ts';
import { QuotePlaces, RecordedQuotes } from './recorded-quotes.ts';
import { parseDecimalToX18 } from '../../money/index.ts';
import { hasSeal, openSealedLine, SEAL_LENGTH, sealProblem } from './line-seal.ts';
import { legacySideProblem } from './side-syntax.ts';
import {
  LineTag,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordingHeader,
  isRecordingVersion,
  type RecordingVersion,
  SEALED_VERSION,
} from './recording-format.ts';

/**
 * A recorded quote: its levels are built when `bids` or `asks` is first read (a backtest reads
 * those of the markets it trades or charts; building a few thousand objects per snapshot for the
 * others was most of the reading). A class rather than an object literal with getters, which V8
 * builds twenty times slower. The levels are read through getters on the prototype, so copy a
 * quote with `{ marketId, timestamp, bids, asks }` rather than a spread; `JSON.stringify` gives
 * all four fields. Not frozen (a snapshot's quotes Map never was either): its levels sit behind
 * private fields and getters, `marketId` and `timestamp` are readonly to TypeScript, and freezing
 * twenty quotes per snapshot was about a tenth of reading a recording.
 */
export class RecordedQuote implements Quote {
  readonly marketId: number;
  readonly timestamp: number;
  readonly #bids: LevelSource;
  readonly #asks: LevelSource;
  readonly #at: number;

  constructor(
    marketId: number,
    timestamp: number,
    bids: LevelSource,
    asks: LevelSource,
    at: number,
  ) {
    this.marketId = marketId;
    this.timestamp = timestamp;
    this.#bids = bids;
    this.#asks = asks;
    this.#at = at;
  }

  get bids(): QuoteLevel[] {
    return this.#bids.levels(this.#at);
  }

  get asks(): QuoteLevel[] {
    return this.#asks.levels(this.#at);
  }

  /** The best price of a side as x18, without building the side's levels. */
  [BEST_PRICE_X18](side: 'bids' | 'asks'): bigint | undefined {
    return (side === 'bids' ? this.#bids : this.#asks).bestX18(this.#at);
  }

  /** A side's levels as x18 straight from the recording's ticks (see `quoteLevelsX18`). */
  [QUOTE_LEVELS_X18](side: 'bids' | 'asks'): readonly bigint[] | undefined {
    return (side === 'bids' ? this.#bids : this.#asks).levelsX18?.(this.#at);
  }

  toJSON(): Quote {
    return { marketId: this.marketId, timestamp: this.timestamp, bids: this.bids, asks: this.asks };
  }
}

/** A version 1 side: `"price qty price qty …"` cut into levels when first read. */
class TextLevels implements LevelSource {
  #levels: QuoteLevel[] | undefined;
  constructor(
    readonly text: string,
    readonly cut: (text: string) => QuoteLevel[],
  ) {}

  levels(): QuoteLevel[] {
    return (this.#levels ??= this.cut(this.text));
  }

  bestX18(): bigint | undefined {
    const top = this.levels()[0];
    return top === undefined ? undefined : parseDecimalToX18(top.price, 'quote price');
  }
}

/**
 * Something the reader skipped or repaired but did not fail on: a torn last line, an empty file,
 * a gzip file without its trailer, snapshots dropped by `repair`.
 */
export interface RecordingWarning {
  readonly file: string;
  /** 1-based line number; 0 when the warning is about a whole file. */
  readonly line: number;
  /** `rec.jsonl:120: torn last line skipped (…)`. */
  readonly message: string;
}

const MARKET_LINE_LENGTH = 18;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}

function isSafeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/**
 * A snapshot as `createSnapshot` builds it (same fields, same order), its quotes (recorded ones)
 * put in the Map as they are rather than frozen one by one.
 */
function withQuotes(
  seq: number,
  takenAt: number,
  markets: ReadonlyMap<number, Market>,
  stale: boolean,
  quotes: readonly Quote[],
): Snapshot {
  const byMarket = new Map<number, Quote>();
  for (const quote of quotes) byMarket.set(quote.marketId, quote);
  return Object.freeze({ seq, takenAt, markets, stale, quotes: byMarket });
}

/**
 * Turns the lines of ONE recording file into snapshots. It keeps the current listing as a Map of
 * frozen `Market` objects that consecutive snapshots share (the same Map, until a market, removal
 * or order line changes it), so a snapshot line costs one `JSON.parse` plus its quotes; unchanged
 * markets are never rebuilt or even re-indexed.
 *
 * Pure (no I/O): the reader feeds it lines; tests and benchmarks can too.
 */
export class RecordingDecoder {
  /** The header, once line 1 was decoded. */
  header: RecordingHeader | undefined;
  readonly #file: string;
  readonly #reuse: ReadonlyMap<number, Market>;
  readonly #warn: (warning: RecordingWarning) => void;
  #markets = new Map<number, Market>();
  // True once #markets was handed to a snapshot: it is then copied before the next change, so
  // snapshots between two market changes share one Map and none ever sees it change.
  #shared = false;
  #line = 0;
  #version: RecordingVersion = RECORDING_VERSION;
  // Version 2 and later: each market's current track of quotes in this file.
  readonly #tracks = new Map<number, QuoteTrack>();
  // Snapshot lines since the last keyframe, and between the last two: a new track's capacity.
  #sinceKeyframe = 0;
  #keyframeSpan = 0;
  readonly #scanner = new SnapshotLineScanner();
  // The places of the last scanned line's quotes, shared while the lines list the same markets.
  #places: QuotePlaces | undefined;
  // Version 5: every line after the header carries a check field (`line-seal.ts`).
  #sealed = false;
  // Snapshot and keyframe lines decoded, for the end line's counts.
  #snapshots = 0;
  #keyframes = 0;
  #end: { readonly continues: boolean } | undefined;

  /**
   * @param file - the file name, used in messages.
   * @param warn - receives the torn-last-line warning.
   * @param reuse - markets of the previous file of the same recording: a rotated file repeats
   *   its market rows, and equal ones keep their object so identity holds across files.
   */
  constructor(
    file: string,
    warn: (warning: RecordingWarning) => void,
    reuse: ReadonlyMap<number, Market> = new Map(),
  ) {
    this.#file = file;
    this.#warn = warn;
    this.#reuse = reuse;
  }

  /** The 1-based number of the last line decoded (0 before the first). */
  get line(): number {
    return this.#line;
  }

  /**
   * Version 5: the file's end line once decoded (`continues`: the recording goes on in the next
   * rotation part); undefined before it, and for older versions, which have none.
   */
  get end(): { readonly continues: boolean } | undefined {
    return this.#end;
  }

  /** Snapshot lines decoded so far (keyframes included). */
  get snapshots(): number {
    return this.#snapshots;
  }

  /** The listing as of the last decoded line (insertion order is the listing's order). */
  get markets(): ReadonlyMap<number, Market> {
    return this.#markets;
  }

  /**
   * Decodes the next line of the file.
   *
   * @param text - the line without its `\n`.
   * @param isLast - true for the file's last line: if it is not complete JSON (version 5: does
   *   not match its check field) it was torn by a crash mid-write, and it is skipped with a
   *   warning instead of failing.
   * @param unterminated - version 5: whether that last line lacks its `\n` (a torn line always
   *   does; a last line with its `\n` that does not match its check field is corrupt, not torn).
   * @returns the snapshot for a snapshot line, undefined for other lines.
   * @throws QuantaError `QUANTA_RECORDING_INVALID` naming `file:line` and what is wrong.
   */
  decodeLine(text: string, isLast: boolean, unterminated: boolean = isLast): Snapshot | undefined {
    const line = ++this.#line;
    if (this.#end !== undefined)
      throw this.#invalid(
        line,
        'a line after the end line (lines were appended, moved or joined from another file)',
      );
    if (line === 1) return this.#decodeHeaderLine(text, isLast);
    if (this.#sealed) {
      const body = openSealedLine(text, line);
      if (body === undefined) {
        if (isLast && unterminated) return this.#torn(line);
        throw this.#invalid(line, sealProblem(text, line), [
          'The file was damaged after it was written: restore it from a copy, or record again.',
        ]);
      }
      text = body;
    }
    // Version 2+: a snapshot line as the writer writes it is read where it stands; any other
    // line (or anything odd) goes through JSON.parse, which words the errors.
    if (this.#version >= 2 && this.#scanner.scan(text)) {
      const scanned = this.#fromScan(line);
      if (scanned !== undefined) return scanned;
    }
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch {
      // A sealed line that matches its check field was written whole.
      if (isLast && !this.#sealed) return this.#torn(line);
      throw this.#invalid(
        line,
        'not a complete JSON line (torn or corrupt in the middle of the file)',
      );
    }
    if (!Array.isArray(row))
      throw this.#invalid(line, `expected a JSON array, got ${describe(row)}`);
    switch (row[0]) {
      case LineTag.snapshot:
        return this.#decodeSnapshot(row, line);
      case LineTag.keyframe:
        if (this.#version < 3) break;
        // Every side of a keyframe is absolute: what the tracks hold is needed no more.
        this.#atKeyframe();
        this.#keyframes += 1;
        return this.#decodeSnapshot(row, line);
      case LineTag.market:
        this.#decodeMarket(row, line);
        return undefined;
      case LineTag.removal:
        this.#decodeRemoval(row, line);
        return undefined;
      case LineTag.order:
        this.#decodeOrder(row, line);
        return undefined;
      case LineTag.end:
        if (!this.#sealed) break;
        this.#decodeEnd(row, line);
        return undefined;
    }
    throw this.#invalid(
      line,
      `unknown line kind ${describe(row[0])} (expected "s", ${this.#version < 3 ? '' : '"k", '}"m", "r"${this.#sealed ? ', "o" or "e"' : ' or "o"'})`,
    );
  }

  #torn(line: number): undefined {
    this.#warn({
      file: this.#file,
      line,
      message: `${this.#file}:${line}: torn last line skipped (the recorder stopped mid-write)`,
    });
    return undefined;
  }

  /** Line 1: the header, and from version 5 on its check field. */
  #decodeHeaderLine(text: string, isLast: boolean): undefined {
    const sealed = hasSeal(text);
    let row: unknown;
    try {
      row = JSON.parse(sealed ? text.slice(0, text.length - SEAL_LENGTH) : text);
    } catch {
      if (isLast) return this.#torn(1);
      throw this.#invalid(
        1,
        'not a complete JSON line (torn or corrupt in the middle of the file)',
      );
    }
    const header = this.#decodeHeader(row);
    if (header.version >= SEALED_VERSION) {
      if (openSealedLine(text, 1) === undefined)
        throw this.#invalid(1, `header: ${sealProblem(text, 1)}`);
      this.#sealed = true;
    } else if (sealed) {
      throw this.#invalid(
        1,
        `header: version ${header.version} with a check field, which only version ${SEALED_VERSION} and later have (the version was changed)`,
      );
    }
    this.header = header;
    return undefined;
  }

  /** Version 5's end line: the counts must be those of the lines read. */
  #decodeEnd(row: unknown[], line: number): void {
    const [, snapshots, keyframes, next] = row;
    if (row.length !== 4 || !isSafeInteger(snapshots) || !isSafeInteger(keyframes))
      throw this.#invalid(line, 'end line: expected ["e", snapshots, keyframes, next]');
    if (next !== 0 && next !== 1)
      throw this.#invalid(line, `end line: next: expected 0 or 1, got ${describe(next)}`);
    if (snapshots !== this.#snapshots || keyframes !== this.#keyframes)
      throw this.#invalid(
        line,
        `end line: the file was written with ${snapshots} snapshot lines (${keyframes} keyframes), and ${this.#snapshots} (${this.#keyframes}) were read`,
      );
    this.#end = { continues: next === 1 };
  }

  #invalid(line: number, rule: string, details?: readonly string[], cause?: unknown): QuantaError {
    return new QuantaError(ErrorCodes.RECORDING_INVALID, `${this.#file}:${line}: ${rule}`, {
      ...(details === undefined ? {} : { details }),
      ...(cause === undefined ? {} : { cause }),
    });
  }

  #decodeHeader(row: unknown): RecordingHeader {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw this.#invalid(
        1,
        `not a quanta recording: line 1 is ${describe(row)}, not a header object`,
      );
    }
    const header = row as Record<string, unknown>;
    if (header.format !== RECORDING_FORMAT) {
      throw this.#invalid(
        1,
        `not a quanta recording: header format is ${describe(header.format)}, expected "${RECORDING_FORMAT}"`,
      );
    }
    if (!isRecordingVersion(header.version)) {
      throw this.#invalid(
        1,
        `recording format version ${describe(header.version)} is not supported (this quanta reads versions 1 to ${RECORDING_VERSION})`,
        ['Read it with the quanta version that wrote it, or record again.'],
      );
    }
    const { createdAt, source, part } = header;
    if (typeof createdAt !== 'string') {
      throw this.#invalid(
        1,
        `header createdAt: expected an ISO timestamp string, got ${describe(createdAt)}`,
      );
    }
    if (source !== null && typeof source !== 'string') {
      throw this.#invalid(1, `header source: expected a string or null, got ${describe(source)}`);
    }
    if (!isSafeInteger(part) || part < 0) {
      throw this.#invalid(1, `header part: expected a non-negative integer, got ${describe(part)}`);
    }
    this.#version = header.version;
    return { format: RECORDING_FORMAT, version: header.version, createdAt, source, part };
  }

  #decodeMarket(row: unknown[], line: number): void {
    if (row.length !== MARKET_LINE_LENGTH) {
      throw this.#invalid(
        line,
        `market line: expected ${MARKET_LINE_LENGTH} elements, got ${row.length}`,
      );
    }
    // Rare line (a market changed): the wire schema checks every field, bigints included.
    const wire: Record<keyof MarketRow, unknown> = {
      id: row[1],
      Symbol: row[2],
      Type: row[3],
      BaseAsset: row[4],
      QuoteAsset: row[5],
      AmtToQtmConversionExpo: row[6],
      PriceToQtmConversionExpo: row[7],
      MinAmountx18: row[8],
      MaxPositionValuex18: row[9],
      MakerFeeFractionx18: row[10],
      TakerFeeFractionx18: row[11],
      InitialMarginFractionx18: row[12],
      MaintenanceMarginFractionx18: row[13],
      IsActive: row[14],
      created_at: row[15],
      updated_at: row[16],
      deleted_at: row[17],
    };
    let market: Market;
    try {
      market = parseMarketRow(wire);
    } catch (error) {
      if (!(error instanceof QuantaError)) throw error;
      throw this.#invalid(line, error.shortMessage, error.details, error);
    }
    const previous = this.#markets.get(market.id) ?? this.#reuse.get(market.id);
    const markets = this.#writableMarkets();
    if (previous !== undefined && sameMarket(previous, market)) {
      markets.set(market.id, previous);
    } else {
      markets.set(market.id, Object.freeze(market));
    }
  }

  #decodeRemoval(row: unknown[], line: number): void {
    const id = row[1];
    if (row.length !== 2 || !isSafeInteger(id)) {
      throw this.#invalid(line, 'removal line: expected ["r", marketId]');
    }
    if (!this.#markets.has(id)) {
      throw this.#invalid(line, `removal line: market ${id} is not in the listing`);
    }
    this.#writableMarkets().delete(id);
  }

  #writableMarkets(): Map<number, Market> {
    if (this.#shared) {
      this.#markets = new Map(this.#markets);
      this.#shared = false;
    }
    return this.#markets;
  }

  #decodeOrder(row: unknown[], line: number): void {
    const ids = row[1];
    if (row.length !== 2 || !Array.isArray(ids)) {
      throw this.#invalid(line, 'order line: expected ["o", [marketId, …]]');
    }
    const reordered = new Map<number, Market>();
    for (const id of ids) {
      const market = isSafeInteger(id) ? this.#markets.get(id) : undefined;
      if (market === undefined) {
        throw this.#invalid(line, `order line: market ${describe(id)} is not in the listing`);
      }
      reordered.set(id as number, market);
    }
    if (reordered.size !== this.#markets.size) {
      throw this.#invalid(
        line,
        `order line: lists ${reordered.size} distinct markets, the listing has ${this.#markets.size}`,
      );
    }
    this.#markets = reordered;
    this.#shared = false;
  }

  #decodeSnapshot(row: unknown[], line: number): Snapshot {
    this.#sinceKeyframe += 1;
    this.#snapshots += 1;
    const seq = row[1];
    const takenAt = row[2];
    const stale = row[3];
    if (!isSafeInteger(seq))
      throw this.#invalid(line, `snapshot seq: expected an integer, got ${describe(seq)}`);
    if (typeof takenAt !== 'number' || !Number.isFinite(takenAt)) {
      throw this.#invalid(
        line,
        `snapshot ${seq}: takenAt: expected a number of ms, got ${describe(takenAt)}`,
      );
    }
    if (stale !== 0 && stale !== 1) {
      throw this.#invalid(line, `snapshot ${seq}: stale: expected 0 or 1, got ${describe(stale)}`);
    }
    if (row.length === 4) {
      this.#shared = true;
      return createSnapshot({ seq, takenAt, markets: this.#markets, stale: stale === 1 });
    }
    const rawQuotes = row[4];
    if (row.length !== 5 || !Array.isArray(rawQuotes)) {
      throw this.#invalid(line, `snapshot ${seq}: expected ["s", seq, takenAt, stale, quotes?]`);
    }
    const quotes = new Array<Quote>(rawQuotes.length);
    for (let i = 0; i < rawQuotes.length; i++) {
      quotes[i] =
        this.#version === 1
          ? this.#decodeQuote(rawQuotes[i], seq, i, line)
          : this.#decodeQuoteV2(rawQuotes[i], seq, i, line, this.#timeBase(takenAt));
    }
    this.#shared = true;
    return withQuotes(seq, takenAt, this.#markets, stale === 1, quotes);
  }

  #decodeQuote(raw: unknown, seq: number, index: number, line: number): Quote {
    if (!Array.isArray(raw) || raw.length !== 4) {
      throw this.#invalid(
        line,
        `snapshot ${seq}: quotes[${index}]: expected [marketId, timestamp, bids, asks]`,
      );
    }
    const marketId: unknown = raw[0];
    const timestamp: unknown = raw[1];
    if (!isSafeInteger(marketId) || typeof timestamp !== 'number' || !Number.isFinite(timestamp)) {
      throw this.#invalid(
        line,
        `snapshot ${seq}: quotes[${index}]: expected an integer market id and a number timestamp`,
      );
    }
    const rawBids: unknown = raw[2];
    const rawAsks: unknown = raw[3];
    if (typeof rawBids !== 'string') throw this.#notLevels(seq, index, 'bids', line);
    if (typeof rawAsks !== 'string') throw this.#notLevels(seq, index, 'asks', line);
    this.#checkLegacySide(rawBids, seq, index, 'bids', line);
    this.#checkLegacySide(rawAsks, seq, index, 'asks', line);
    // Levels are cut from their string when first read: a backtest reads the levels of the few
    // markets it trades or charts, and a strategy those it looks at; the rest cost nothing. A
    // malformed side is reported (naming file, line and side) by the read that meets it.
    const cut = (side: string) => (text: string) =>
      this.#decodeLevels(text, seq, index, side, line);
    return new RecordedQuote(
      marketId,
      timestamp,
      new TextLevels(rawBids, cut('bids')),
      new TextLevels(rawAsks, cut('asks')),
      0,
    );
  }

  /** What a quote's time is written against: 0, or version 4's snapshot time. */
  #timeBase(takenAt: number): number {
    return this.#version >= 4 ? takenAt : 0;
  }

  #decodeQuoteV2(raw: unknown, seq: number, index: number, line: number, timeBase: number): Quote {
    if (!Array.isArray(raw) || raw.length !== 4) {
      throw this.#invalid(
        line,
        `snapshot ${seq}: quotes[${index}]: expected [marketId, timestamp, bids, asks]`,
      );
    }
    const marketId: unknown = raw[0];
    const timestamp: unknown = raw[1];
    if (!isSafeInteger(marketId) || typeof timestamp !== 'number' || !Number.isFinite(timestamp)) {
      throw this.#invalid(
        line,
        `snapshot ${seq}: quotes[${index}]: expected an integer market id and a number timestamp`,
      );
    }
    const bids: unknown = raw[2];
    const asks: unknown = raw[3];
    if (bids !== 0 && typeof bids !== 'string') throw this.#notSideV2(seq, index, 'bids', line);
    if (asks !== 0 && typeof asks !== 'string') throw this.#notSideV2(seq, index, 'asks', line);
    return this.#quoteV2(marketId, timeBase + timestamp, bids, asks, seq, index, line);
  }

  #atKeyframe(): void {
    this.#tracks.clear();
    this.#keyframeSpan = Math.min(this.#sinceKeyframe, TRACK_LIMIT);
    this.#sinceKeyframe = 0;
  }

  /** The snapshot of the line the scanner just read, or undefined to decode it from JSON. */
  #fromScan(line: number): Snapshot | undefined {
    const { keyframe, seq, takenAt, stale, hasQuotes, count, marketIds, timestamps, bids, asks } =
      this.#scanner.out;
    // Refused (by the JSON path) before version 3.
    if (keyframe && this.#version < 3) return undefined;
    if (keyframe) {
      this.#atKeyframe();
      this.#keyframes += 1;
    }
    this.#sinceKeyframe += 1;
    this.#snapshots += 1;
    this.#shared = true;
    if (!hasQuotes)
      return createSnapshot({ seq, takenAt, markets: this.#markets, stale: stale === 1 });
    const quotes = new Array<Quote>(count);
    const timeBase = this.#timeBase(takenAt);
    for (let i = 0; i < quotes.length; i++) {
      quotes[i] = this.#quoteV2(
        marketIds[i] as number,
        timeBase + (timestamps[i] as number),
        bids[i] as string | 0,
        asks[i] as string | 0,
        seq,
        i,
        line,
      );
    }
    if (this.#places?.same(marketIds, count) !== true)
      this.#places = QuotePlaces.of(marketIds, count);
    if (this.#places === undefined)
      return withQuotes(seq, takenAt, this.#markets, stale === 1, quotes);
    return Object.freeze({
      seq,
      takenAt,
      markets: this.#markets,
      stale: stale === 1,
      quotes: new RecordedQuotes(this.#places, quotes),
    });
  }

  #quoteV2(
    marketId: number,
    timestamp: number,
    bids: string | 0,
    asks: string | 0,
    seq: number,
    index: number,
    line: number,
  ): Quote {
    // A shifted side (`*`) is version 4's.
    if (this.#version < 4) {
      if (typeof bids === 'string' && bids.charCodeAt(0) === SHIFTED)
        throw this.#shiftedTooEarly(seq, index, 'bids', line);
      if (typeof asks === 'string' && asks.charCodeAt(0) === SHIFTED)
        throw this.#shiftedTooEarly(seq, index, 'asks', line);
    }
    if (!this.#sealed) {
      if (typeof bids === 'string') this.#checkLegacySide(bids, seq, index, 'bids', line);
      if (typeof asks === 'string') this.#checkLegacySide(asks, seq, index, 'asks', line);
    }
    const expo = this.#markets.get(marketId)?.priceExpo;
    let track = this.#tracks.get(marketId);
    if (track === undefined || track.expo !== expo || track.length >= TRACK_LIMIT) {
      // A new track starts from the sides of the market's last quote (whose deltas are applied
      // now): the first quote in the file, a changed tick grid, or a long stretch without a
      // keyframe.
      const last = track === undefined ? -1 : track.length - 1;
      track = new QuoteTrack(
        this.#file,
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

  /**
   * A side of an unverifiable file (formats 1 to 4) checked for form when its line is read, so a
   * negative quantity or a malformed block is refused naming file:line, not met by an order.
   */
  #checkLegacySide(raw: string, seq: number, index: number, side: string, line: number): void {
    const problem = legacySideProblem(raw, this.#version);
    if (problem !== undefined)
      throw this.#invalid(line, `snapshot ${seq}: quotes[${index}].${side}${problem}`);
  }

  #shiftedTooEarly(seq: number, index: number, side: string, line: number): QuantaError {
    return this.#invalid(
      line,
      `snapshot ${seq}: quotes[${index}].${side}: a shifted side ("*…") is format 4's, and this file is version ${this.#version}`,
    );
  }

  #notSideV2(seq: number, index: number, side: string, line: number): QuantaError {
    return this.#invalid(
      line,
      `snapshot ${seq}: quotes[${index}].${side}: expected 0 or a "price quantity …" string`,
    );
  }

  #notLevels(seq: number, index: number, side: string, line: number): QuantaError {
    return this.#invalid(
      line,
      `snapshot ${seq}: quotes[${index}].${side}: expected a "price quantity …" string`,
    );
  }

  #decodeLevels(raw: string, seq: number, index: number, side: string, line: number): QuoteLevel[] {
    if (raw === '') return [];
    // One string per side, cut here with indexOf/slice (twice as fast as split, which builds
    // an array first): far cheaper than JSON.parse making each value a string of its own.
    // Decimal contents are not re-checked: the writer took them from parsed wire data, and
    // whoever turns them into amounts (the simulation) parses them with src/money.
    const levels: QuoteLevel[] = [];
    let start = 0;
    for (;;) {
      const gap = raw.indexOf(' ', start);
      if (gap === -1) {
        throw this.#invalid(
          line,
          `snapshot ${seq}: quotes[${index}].${side}: expected price and quantity pairs, got an odd number of values`,
        );
      }
      const next = raw.indexOf(' ', gap + 1);
      const end = next === -1 ? raw.length : next;
      levels.push({ price: raw.slice(start, gap), quantity: raw.slice(gap + 1, end) });
      if (next === -1) break;
      start = next + 1;
    }
    return levels;
  }
}
