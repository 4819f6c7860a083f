/** The codec of each format version this code reads, chosen from a file's header. */
import { codecV1 } from './codec-v1.ts';
import { codecV2 } from './codec-v2.ts';
import { codecV3 } from './codec-v3.ts';
import { codecV4 } from './codec-v4.ts';
import { codecV5 } from './codec-v5.ts';
import type { CodecContext, CodecFactory, RecordingCodec } from './recording-codec.ts';
import type { RecordingHeader, RecordingVersion } from './recording-format.ts';

/** One codec per version in `RECORDING_VERSIONS` (a version missing here fails to compile). */
const CODECS: Readonly<Record<RecordingVersion, CodecFactory>> = {
  1: codecV1,
  2: codecV2,
  3: codecV3,
  4: codecV4,
  5: codecV5,
};

/** The codec of the file whose header is `header` (its version already checked). */
export function codecOf(header: RecordingHeader, context: CodecContext): RecordingCodec {
  return CODECS[header.version](context);
}
