/**
 * Format version 5 (the one written): version 4 with a check field on every line
 * (`line-seal.ts`) and an end line in every closed file, so a changed, moved or missing line is
 * detected; the sides' own form then needs no second look.
 */
import { deltaCodec } from './codec-v2.ts';
import type { CodecFactory } from './recording-codec.ts';

/** The codec of a version 5 file. */
export const codecV5: CodecFactory = (context) =>
  deltaCodec(context, 5, { keyframes: true, sealed: true });
