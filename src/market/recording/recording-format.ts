/**
 * Constants and the header type of the recording format. The format itself is described in
 * `docs/recording-format.md`; this file holds what the writer and the reader must agree on.
 */

/** The `format` value of every recording header. */
export const RECORDING_FORMAT = 'quanta-recording';

/** The format version this code writes. */
export const RECORDING_VERSION = 5;

/** The format versions this code reads (and can write). */
export const RECORDING_VERSIONS = [1, 2, 3, 4, 5] as const;

/**
 * The first version whose lines carry a check field (`line-seal.ts`) and whose files end in an
 * end line: older files are read, but a changed or missing line in them cannot be detected.
 */
export const SEALED_VERSION = 5;

/** The format versions this code reads. */
export type RecordingVersion = (typeof RECORDING_VERSIONS)[number];

/** Whether `value` is a format version this code reads. */
export function isRecordingVersion(value: unknown): value is RecordingVersion {
  return (RECORDING_VERSIONS as readonly unknown[]).includes(value);
}

/** First element of each body line: what the line is. */
export const LineTag = {
  /** A market's parameters, written when it first appears or any field changes. */
  market: 'm',
  /** A market that left the listing. */
  removal: 'r',
  /** The order of the listing, written only when it differs from the one the reader rebuilds. */
  order: 'o',
  /** One snapshot: seq, time, stale flag and quotes. */
  snapshot: 's',
  /**
   * Version 3: a snapshot line whose quote sides are all absolute (encoded as if the market had
   * no quote before), so a reader may drop the deltas it has not applied yet.
   */
  keyframe: 'k',
  /**
   * Version 5: the last line of a file the writer closed, `["e", snapshots, keyframes, next]`:
   * how many snapshot lines (keyframes included) and keyframe lines the file holds, and `next` 1
   * when the recording continues in the next rotation part, 0 when the writer was closed.
   */
  end: 'e',
} as const;

/** The header, line 1 of every recording file. */
export interface RecordingHeader {
  readonly format: typeof RECORDING_FORMAT;
  readonly version: RecordingVersion;
  /** When the writer opened the recording (ISO 8601, UTC). */
  readonly createdAt: string;
  /** What was recorded (a venue URL, `paper`, …), or null when the writer was not told. */
  readonly source: string | null;
  /** Rotation index of this file: 0 for the first file, then 1, 2, … */
  readonly part: number;
}
