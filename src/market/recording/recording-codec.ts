/**
 * The reading of one recording format version (`docs/recording-format.md`) after its header:
 * one module per version (`codec-v1.ts` to `codec-v5.ts`), chosen from the file's header by
 * `codecOf` (`codec-of.ts`). The decoder (`recording-decoder.ts`) reads the lines every version
 * shares (the listing lines, the snapshot line's head, torn lines) and asks the codec what its
 * version has.
 */
import type { Quote } from '../../domain/index.ts';
import type { InvalidLine } from './decode-values.ts';
import type { QuotePlace } from './quote-codec-v1.ts';
import type { QuoteCodecV2 } from './quote-codec-v2.ts';
import type { RecordingListing } from './recording-listing.ts';
import type { RecordingVersion } from './recording-format.ts';

/** The quote rows of JSON-parsed snapshot lines, as one version writes them. */
export interface QuoteRows {
  /** What a quote's time is written against for a snapshot taken at `takenAt`. */
  timeBase(takenAt: number): number;
  /** A snapshot line was read (after `atKeyframe` for a keyframe). */
  countSnapshot(): void;
  /** A keyframe line was read: every side in it is absolute. */
  atKeyframe(): void;
  /** One quote row, checked. */
  decodeRow(raw: unknown, place: QuotePlace, timeBase: number): Quote;
}

/** How the lines of one format version are read. */
export interface RecordingCodec {
  readonly version: RecordingVersion;
  /**
   * Every line after the header ends in a check field (`line-seal.ts`), and a closed file in an
   * end line (`"e"`).
   */
  readonly sealed: boolean;
  /** Snapshot lines may be keyframes (`"k"`: every side absolute). */
  readonly keyframes: boolean;
  readonly rows: QuoteRows;
  /**
   * The quote tracks that snapshot lines read where they stand (`scan-snapshot-line.ts`, no
   * `JSON.parse`) put their quotes on; undefined when every line is JSON-parsed.
   */
  readonly tracks: QuoteCodecV2 | undefined;
}

/** What a codec reads with: the file (named in messages), its listing, and the error to throw. */
export interface CodecContext {
  readonly file: string;
  readonly listing: RecordingListing;
  readonly invalid: InvalidLine;
}

/** Builds the codec of one file of a version. */
export type CodecFactory = (context: CodecContext) => RecordingCodec;
