import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { Market, Quote } from '../../domain/index.ts';
import { createSnapshot, type Snapshot } from '../snapshot.ts';
import { SnapshotLineScanner } from './scan-snapshot-line.ts';
import { QuotePlaces, RecordedQuotes } from './recorded-quotes.ts';
import { hasSeal, openSealedLine, SEAL_LENGTH, sealProblem } from './line-seal.ts';
import { decodeHeader, describe, isSafeInteger } from './decode-values.ts';
import { RecordingListing } from './recording-listing.ts';
import type { QuoteCodecV2 } from './quote-codec-v2.ts';
import { LineTag, type RecordingHeader, SEALED_VERSION } from './recording-format.ts';
import type { RecordingCodec } from './recording-codec.ts';
import { codecOf } from './codec-of.ts';

export { RecordedQuote } from './recorded-quote.ts';

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
 * What differs between format versions (quote rows, keyframes, check fields) is the header's
 * version's codec (`recording-codec.ts`, one module per version, `codec-of.ts`).
 *
 * Pure (no I/O): the reader feeds it lines; tests and benchmarks can too.
 */
export class RecordingDecoder {
  /** The header, once line 1 was decoded. */
  header: RecordingHeader | undefined;
  readonly #file: string;
  readonly #warn: (warning: RecordingWarning) => void;
  readonly #listing: RecordingListing;
  #line = 0;
  // The header's version's codec, once line 1 was decoded.
  #codec: RecordingCodec | undefined;
  // The codec's tracks (version 2 and later): snapshot lines are scanned onto them.
  #tracks: QuoteCodecV2 | undefined;
  readonly #scanner = new SnapshotLineScanner();
  // The places of the last scanned line's quotes, shared while the lines list the same markets.
  #places: QuotePlaces | undefined;
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
    this.#listing = new RecordingListing(reuse, this.#invalid);
  }

  /** How the file's format version is read, once its header was decoded. */
  get codec(): RecordingCodec | undefined {
    return this.#codec;
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
    return this.#listing.markets;
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
    const codec = this.#codec;
    if (codec === undefined) throw this.#invalid(line, 'a line after a torn header');
    if (codec.sealed) {
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
    if (this.#tracks !== undefined && this.#scanner.scan(text)) {
      const scanned = this.#fromScan(line, this.#tracks, codec);
      if (scanned !== undefined) return scanned;
    }
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch {
      // A sealed line that matches its check field was written whole.
      if (isLast && !codec.sealed) return this.#torn(line);
      throw this.#invalid(
        line,
        'not a complete JSON line (torn or corrupt in the middle of the file)',
      );
    }
    if (!Array.isArray(row))
      throw this.#invalid(line, `expected a JSON array, got ${describe(row)}`);
    switch (row[0]) {
      case LineTag.snapshot:
        return this.#decodeSnapshot(row, line, codec);
      case LineTag.keyframe:
        if (!codec.keyframes) break;
        // Every side of a keyframe is absolute: what the tracks hold is needed no more.
        codec.rows.atKeyframe();
        this.#keyframes += 1;
        return this.#decodeSnapshot(row, line, codec);
      case LineTag.market:
        this.#listing.decodeMarket(row, line);
        return undefined;
      case LineTag.removal:
        this.#listing.decodeRemoval(row, line);
        return undefined;
      case LineTag.order:
        this.#listing.decodeOrder(row, line);
        return undefined;
      case LineTag.end:
        if (!codec.sealed) break;
        this.#decodeEnd(row, line);
        return undefined;
    }
    throw this.#invalid(
      line,
      `unknown line kind ${describe(row[0])} (expected "s", ${codec.keyframes ? '"k", ' : ''}"m", "r"${codec.sealed ? ', "o" or "e"' : ' or "o"'})`,
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
    const header = decodeHeader(row, this.#invalid);
    const codec = codecOf(header, {
      file: this.#file,
      listing: this.#listing,
      invalid: this.#invalid,
    });
    if (codec.sealed) {
      if (openSealedLine(text, 1) === undefined)
        throw this.#invalid(1, `header: ${sealProblem(text, 1)}`);
    } else if (sealed) {
      throw this.#invalid(
        1,
        `header: version ${header.version} with a check field, which only version ${SEALED_VERSION} and later have (the version was changed)`,
      );
    }
    this.header = header;
    this.#codec = codec;
    this.#tracks = codec.tracks;
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

  readonly #invalid = (
    line: number,
    rule: string,
    details?: readonly string[],
    cause?: unknown,
  ): QuantaError =>
    new QuantaError(ErrorCodes.RECORDING_INVALID, `${this.#file}:${line}: ${rule}`, {
      ...(details === undefined ? {} : { details }),
      ...(cause === undefined ? {} : { cause }),
    });

  #decodeSnapshot(row: unknown[], line: number, codec: RecordingCodec): Snapshot {
    const rows = codec.rows;
    rows.countSnapshot();
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
    if (row.length === 4)
      return createSnapshot({ seq, takenAt, markets: this.#listing.share(), stale: stale === 1 });
    const rawQuotes = row[4];
    if (row.length !== 5 || !Array.isArray(rawQuotes)) {
      throw this.#invalid(line, `snapshot ${seq}: expected ["s", seq, takenAt, stale, quotes?]`);
    }
    const quotes = new Array<Quote>(rawQuotes.length);
    for (let i = 0; i < rawQuotes.length; i++) {
      const place = { line, seq, index: i };
      quotes[i] = rows.decodeRow(rawQuotes[i], place, rows.timeBase(takenAt));
    }
    return withQuotes(seq, takenAt, this.#listing.share(), stale === 1, quotes);
  }

  /** The snapshot of the line the scanner just read, or undefined to decode it from JSON. */
  #fromScan(line: number, v2: QuoteCodecV2, codec: RecordingCodec): Snapshot | undefined {
    const { keyframe, seq, takenAt, stale, hasQuotes, count, marketIds, timestamps, bids, asks } =
      this.#scanner.out;
    // Refused (by the JSON path) where the version has no keyframes.
    if (keyframe && !codec.keyframes) return undefined;
    if (keyframe) {
      v2.atKeyframe();
      this.#keyframes += 1;
    }
    v2.countSnapshot();
    this.#snapshots += 1;
    const markets = this.#listing.share();
    if (!hasQuotes) return createSnapshot({ seq, takenAt, markets, stale: stale === 1 });
    const quotes = new Array<Quote>(count);
    const timeBase = v2.timeBase(takenAt);
    for (let i = 0; i < quotes.length; i++) {
      quotes[i] = v2.quote(
        marketIds[i] as number,
        timeBase + (timestamps[i] as number),
        bids[i] as string | 0,
        asks[i] as string | 0,
        line,
        seq,
        i,
      );
    }
    if (this.#places?.same(marketIds, count) !== true)
      this.#places = QuotePlaces.of(marketIds, count);
    if (this.#places === undefined) return withQuotes(seq, takenAt, markets, stale === 1, quotes);
    return Object.freeze({
      seq,
      takenAt,
      markets,
      stale: stale === 1,
      quotes: new RecordedQuotes(this.#places, quotes),
    });
  }
}
