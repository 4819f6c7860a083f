import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { pipeline, type Readable } from 'node:stream';
import { constants as zlibConstants, createGunzip } from 'node:zlib';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { isGzipPath } from './recording-files.ts';

// A snapshot line is a few KB, so each chunk carries many lines; but a chunk's text must stay
// below V8's large-object size (128 KiB): a string that big is made about 30 times slower
// (measured: 64 KiB chunks decode at several GB/s, 256 KiB ones at 150 MB/s).
const CHUNK_BYTES = 64 * 1024;

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string'
    ? error.code
    : undefined;
}

/**
 * @param line - for gzip, the line being decompressed when the stream failed (1-based): the
 *   damage is in it or in the compressed bytes before it.
 */
function readFailure(path: string, error: unknown, gzip: boolean, line = 0): QuantaError {
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
      line > 0
        ? `${path}:${line}: not a readable gzip file from this line on (${reason}): its compressed bytes are damaged`
        : `recording ${path}: not a readable gzip file (${reason})`,
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

/** Options of {@link readLineBatches}. */
export interface ReadLinesOptions {
  readonly signal?: AbortSignal | undefined;
  /**
   * Called once, after the last batch, when a gzip file ends without its trailer: it was cut
   * short (the writer was killed before closing it), so its lines are what could be decompressed.
   */
  readonly onMissingTrailer?: (() => void) | undefined;
  /**
   * Set before each batch is yielded to how many bytes of the file were consumed to produce it
   * and the batches before: the file's own bytes, so compressed bytes for gzip (those zlib has
   * taken in), comparable with the file's size for a progress display.
   */
  readonly position?: { bytes: number } | undefined;
  /**
   * Called before the file's last line is yielded when it does not end in `\n` (a line torn by
   * a crash mid-write never does).
   */
  readonly onUnterminatedLine?: (() => void) | undefined;
}

/**
 * True when the gzip trailer's ISIZE (the last 4 bytes of what was read: the uncompressed size
 * modulo 2^32) matches the bytes decompressed. A stream cut short ends in deflate data instead
 * (the writer's per-snapshot flushes end in `00 00 ff ff`), which matches by chance with odds of
 * 2^-32. zlib has already checked the trailer's CRC when the stream did end properly.
 */
async function hasTrailer(path: string, compressedBytes: number, bytes: number): Promise<boolean> {
  // 10 bytes of gzip header, at least 2 of deflate data, 8 of trailer.
  if (compressedBytes < 20) return false;
  const file = await open(path, 'r');
  try {
    const isize = Buffer.alloc(4);
    const { bytesRead } = await file.read(isize, 0, 4, compressedBytes - 4);
    return bytesRead === 4 && isize.readUInt32LE(0) === bytes % 2 ** 32;
  } finally {
    await file.close();
  }
}

/**
 * Streams the lines of a file, gunzipping it when its name ends in `.gz`, in batches (one per
 * chunk read) so the per-line cost stays a string slice. Memory stays at one chunk plus one line.
 *
 * A truncated gzip file (the writer crashed) yields what could be decompressed instead of
 * failing, and `onMissingTrailer` is told; the last line is then often torn, which the decoder
 * deals with. The final line is yielded even without its `\n`.
 *
 * @throws QuantaError `QUANTA_RECORDING_NOT_FOUND` for a missing file, `QUANTA_ABORTED` when
 *   `signal` aborts, `QUANTA_RECORDING_INVALID` for a corrupt gzip stream or a read failure.
 */
export async function* readLineBatches(
  path: string,
  options: ReadLinesOptions = {},
): AsyncGenerator<string[], void, undefined> {
  const { signal, position } = options;
  const gzip = isGzipPath(path);
  if (!gzip) {
    yield* readPlainBatches(path, signal, position, options.onUnterminatedLine);
    return;
  }
  const file = createReadStream(path, {
    highWaterMark: CHUNK_BYTES,
    ...(signal === undefined ? {} : { signal }),
  });
  let stream: Readable = file;
  let gunzipped: { readonly bytesWritten: number } | undefined;
  if (gzip) {
    // SYNC_FLUSH at the end: a truncated stream ends quietly instead of "unexpected end of file"
    // (which would also lose the output of the last chunk); hasTrailer tells the two apart.
    const gunzip = createGunzip({
      finishFlush: zlibConstants.Z_SYNC_FLUSH,
      chunkSize: CHUNK_BYTES,
    });
    // Errors surface through the iteration of `gunzip`, which pipeline destroys with them.
    stream = pipeline(file, gunzip, () => undefined);
    gunzipped = gunzip;
  }
  // Decoded here rather than by setEncoding, to count the bytes for the gzip trailer check.
  const utf8 = new StringDecoder('utf8');
  let bytes = 0;
  const splitter = new LineSplitter();
  let complete = true;
  let linesRead = 0;
  try {
    for await (const data of stream as AsyncIterable<Buffer>) {
      bytes += data.length;
      if (position !== undefined) position.bytes = gunzipped?.bytesWritten ?? bytes;
      const lines = splitter.push(utf8.write(data));
      if (lines !== undefined) {
        linesRead += lines.length;
        yield lines;
      }
    }
    const tail = splitter.push(utf8.end());
    if (tail !== undefined) yield tail;
    if (gzip && options.onMissingTrailer !== undefined)
      complete = await hasTrailer(path, file.bytesRead, bytes);
  } catch (error) {
    throw readFailure(path, error, gzip, linesRead + 1);
  } finally {
    stream.destroy();
    file.destroy();
  }
  if (position !== undefined) position.bytes = gzip ? file.bytesRead : bytes;
  const last = splitter.rest();
  if (last !== '') {
    options.onUnterminatedLine?.();
    yield [last];
  }
  if (!complete) options.onMissingTrailer?.();
}

/**
 * A plain file read chunk by chunk with `readSync`: from the page cache a 64 KiB read takes
 * microseconds, less than a read stream's machinery per chunk (a thread-pool round trip, stream
 * buffering, an async iterator), which was about two thirds of the time to get a file's lines.
 * The event loop gets a turn between batches (`readLineBatches` is async, so its reader awaits
 * each), and `signal` is looked at before each read.
 */
function* readPlainBatches(
  path: string,
  signal: AbortSignal | undefined,
  position: { bytes: number } | undefined,
  onUnterminatedLine: (() => void) | undefined,
): Generator<string[], void, undefined> {
  const stopIfAborted = (): void => {
    if (signal?.aborted === true)
      throw new QuantaError(ErrorCodes.ABORTED, `recording ${path}: reading aborted`, {
        cause: signal.reason,
      });
  };
  stopIfAborted();
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw readFailure(path, error, false);
  }
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const utf8 = new StringDecoder('utf8');
  let bytes = 0;
  const splitter = new LineSplitter();
  try {
    for (;;) {
      stopIfAborted();
      let read: number;
      try {
        read = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      } catch (error) {
        throw readFailure(path, error, false);
      }
      if (read === 0) break;
      bytes += read;
      if (position !== undefined) position.bytes = bytes;
      // The decoder copies what it turns into text, so the buffer is free for the next read.
      const lines = splitter.push(
        utf8.write(read === CHUNK_BYTES ? buffer : buffer.subarray(0, read)),
      );
      if (lines !== undefined) yield lines;
    }
    const tail = splitter.push(utf8.end());
    if (tail !== undefined) yield tail;
  } finally {
    closeSync(fd);
  }
  if (position !== undefined) position.bytes = bytes;
  const last = splitter.rest();
  if (last !== '') {
    onUnterminatedLine?.();
    yield [last];
  }
}

/** Cuts decoded text into lines across chunks: the text after the last newline waits for more. */
class LineSplitter {
  #carry = '';

  /** The lines completed by `chunk`, or undefined when it holds no newline. */
  push(chunk: string): string[] | undefined {
    let newline = chunk.indexOf('\n');
    if (newline === -1) {
      this.#carry += chunk;
      return undefined;
    }
    const lines: string[] = [this.#carry + chunk.slice(0, newline)];
    let start = newline + 1;
    while ((newline = chunk.indexOf('\n', start)) !== -1) {
      lines.push(chunk.slice(start, newline));
      start = newline + 1;
    }
    this.#carry = chunk.slice(start);
    return lines;
  }

  /** The text after the last newline (a file's last line when it has no newline at its end). */
  rest(): string {
    return this.#carry;
  }
}
