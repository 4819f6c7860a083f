/**
 * Format version 4: version 3 with shifted sides (`*<ticks> <quantity block>`: every level moved
 * by the same ticks, `quantity-block.ts`) and quote times relative to the snapshot's
 * (`QuoteCodecV2.timeBase`).
 */
import { deltaCodec } from './codec-v2.ts';
import type { CodecFactory } from './recording-codec.ts';

/** The codec of a version 4 file. */
export const codecV4: CodecFactory = (context) =>
  deltaCodec(context, 4, { keyframes: true, sealed: false });
