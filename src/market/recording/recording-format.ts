/**
 * Constants and the header type of the recording format. The format itself is described at the
 * top of `recording-writer.ts`; this file holds what the writer and the reader must agree on.
 */

/** The `format` value of every recording header. */
export const RECORDING_FORMAT = 'quanta-recording';

/** The format version this code writes. */
export const RECORDING_VERSION = 4;

/** The format versions this code reads (and can write). */
export const RECORDING_VERSIONS = [1, 2, 3, 4] as const;

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
