import { createReadStream } from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { constants as zlibConstants, createGunzip } from 'node:zlib';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { isGzipPath } from './recording-files.ts';

// Large reads: a snapshot line is a few KB, so each chunk carries many lines.
const CHUNK_BYTES = 256 * 1024;

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string'
    ? error.code
    : undefined;
}

function readFailure(path: string, error: unknown, gzip: boolean): QuantaError {
  if (error instanceof QuantaError) return error;
  const code = errorCode(error);
  const reason = error instanceof Error ? error.message : String(error);
  if (code === 'ENOENT') {
    return new QuantaError(ErrorCodes.RECORDING_NOT_FOUND, `recording ${path}: no such file`, {
      cause: error,
    });
  }
  if (code === 'ABORT_ERR') {
    return new QuantaError(ErrorCodes.ABORTED, `recording ${path}: reading aborted`, {
      cause: error,
    });
  }
  if (gzip && code?.startsWith('Z_') === true) {
    return new QuantaError(
      ErrorCodes.RECORDING_INVALID,
      `recording ${path}: not a readable gzip file (${reason})`,
      { cause: error },
    );
  }
  return new QuantaError(
    ErrorCodes.RECORDING_INVALID,
    `recording ${path}: cannot read (${reason})`,
    {
      cause: error,
    },
  );
}

/**
 * Streams the lines of a file, gunzipping it when its name ends in `.gz`, in batches (one per
 * chunk read) so the per-line cost stays a string slice. Memory stays at one chunk plus one line.
 *
 * A truncated gzip file (the writer crashed) yields what could be decompressed instead of
 * failing; the last line is then usually torn, which the decoder deals with. The final line is
 * yielded even without its `\n`.
 *
 * @throws QuantaError `QUANTA_RECORDING_NOT_FOUND` for a missing file, `QUANTA_ABORTED` when
 *   `signal` aborts, `QUANTA_RECORDING_INVALID` for a corrupt gzip stream or a read failure.
 */
export async function* readLineBatches(
  path: string,
  signal?: AbortSignal,
): AsyncGenerator<string[], void, undefined> {
  const gzip = isGzipPath(path);
  const file = createReadStream(path, {
    highWaterMark: CHUNK_BYTES,
    ...(signal === undefined ? {} : { signal }),
  });
  let stream: Readable = file;
  if (gzip) {
    // SYNC_FLUSH at the end: a truncated stream ends quietly instead of "unexpected end of file".
    const gunzip = createGunzip({
      finishFlush: zlibConstants.Z_SYNC_FLUSH,
      chunkSize: CHUNK_BYTES,
    });
    // Errors surface through the iteration of `gunzip`, which pipeline destroys with them.
    stream = pipeline(file, gunzip, () => undefined);
  }
  stream.setEncoding('utf8');
  let carry = '';
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let newline = chunk.indexOf('\n');
      if (newline === -1) {
        carry += chunk;
        continue;
      }
      const lines: string[] = [carry + chunk.slice(0, newline)];
      let start = newline + 1;
      while ((newline = chunk.indexOf('\n', start)) !== -1) {
        lines.push(chunk.slice(start, newline));
        start = newline + 1;
      }
      carry = chunk.slice(start);
      yield lines;
    }
  } catch (error) {
    throw readFailure(path, error, gzip);
  } finally {
    stream.destroy();
    file.destroy();
  }
  if (carry !== '') yield [carry];
}
