/**
 * Format version 2: each quote side `0` (unchanged) or a delta against the market's previous
 * quote in the file, prices as tick offsets, kept on the market's track (`quote-codec-v2.ts`);
 * snapshot lines as the writer writes them are read without `JSON.parse`. Versions 3 to 5 build
 * on it.
 */
import { QuoteCodecV2 } from './quote-codec-v2.ts';
import type { CodecContext, CodecFactory, RecordingCodec } from './recording-codec.ts';
import type { RecordingVersion } from './recording-format.ts';

/** A delta-track codec of `version` (2 to 5) with that version's keyframes and check fields. */
export function deltaCodec(
  { file, listing, invalid }: CodecContext,
  version: Exclude<RecordingVersion, 1>,
  features: { readonly keyframes: boolean; readonly sealed: boolean },
): RecordingCodec {
  const tracks = new QuoteCodecV2(file, version, features.sealed, listing, invalid);
  return { version, ...features, rows: tracks, tracks };
}

/** The codec of a version 2 file. */
export const codecV2: CodecFactory = (context) =>
  deltaCodec(context, 2, { keyframes: false, sealed: false });
