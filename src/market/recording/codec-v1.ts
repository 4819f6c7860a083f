/**
 * Format version 1: every line JSON, each quote side one `price quantity …` string
 * (`quote-codec-v1.ts`), no keyframes, no check fields.
 */
import { decodeQuoteV1 } from './quote-codec-v1.ts';
import type { CodecFactory } from './recording-codec.ts';

/** The codec of a version 1 file. */
export const codecV1: CodecFactory = ({ invalid }) => ({
  version: 1,
  sealed: false,
  keyframes: false,
  rows: {
    timeBase: () => 0,
    countSnapshot: () => undefined,
    atKeyframe: () => undefined,
    decodeRow: (raw, place) => decodeQuoteV1(raw, place, invalid),
  },
  tracks: undefined,
});
