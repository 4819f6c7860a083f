/**
 * Format version 3: version 2 with keyframe lines (`"k"`), whose sides are all absolute, so a
 * reader may drop the deltas it has not applied yet.
 */
import { deltaCodec } from './codec-v2.ts';
import type { CodecFactory } from './recording-codec.ts';

/** The codec of a version 3 file. */
export const codecV3: CodecFactory = (context) =>
  deltaCodec(context, 3, { keyframes: true, sealed: false });
