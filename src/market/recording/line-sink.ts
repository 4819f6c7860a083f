import { once } from 'node:events';
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { constants as zlibConstants, createGzip, type Gzip } from 'node:zlib';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';

/** Where the writer's lines go: one file, plain or gzip. */
export interface LineSink {
  /** Appends one whole line (with its `\n`). Throws the first failure of this sink. */
  writeLine(line: string): void;
  /** Marks the end of a snapshot's lines: gzip pushes them out of the compressor. */
  endOfSnapshot(): void;
  /** Resolves once the sink has no more than a small buffer of pending input. */
  drained(): Promise<void>;
  /** Flushes, fsyncs and closes the file. */
  close(): Promise<void>;
}

function writeFailure(path: string, what: string, error: unknown): QuantaError {
  const reason = error instanceof Error ? error.message : String(error);
  return new QuantaError(
    ErrorCodes.RECORDING_WRITE,
    `recording ${path}: cannot ${what} (${reason})`,
    {
      cause: error,
    },
  );
}

function openNew(path: string): number {
  try {
    // `wx`: a writer never overwrites a recording that is already there.
    return openSync(path, 'wx');
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'EEXIST') {
      throw new QuantaError(
        ErrorCodes.RECORDING_WRITE,
        `recording ${path}: already exists (a recording is never overwritten)`,
        { cause: error },
      );
    }
    throw writeFailure(path, 'create the file', error);
  }
}

/** Writes all of `data` (writeSync may write less than asked). */
function writeAll(fd: number, data: Uint8Array): void {
  let offset = 0;
  while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
}

/** Plain file: one synchronous `write` per line, so a crash can only tear the line in flight. */
export class PlainLineSink implements LineSink {
  readonly #path: string;
  readonly #fd: number;
  #closed = false;

  constructor(path: string) {
    this.#path = path;
    this.#fd = openNew(path);
  }

  writeLine(line: string): void {
    try {
      writeAll(this.#fd, Buffer.from(line, 'utf8'));
    } catch (error) {
      throw writeFailure(this.#path, 'write', error);
    }
  }

  endOfSnapshot(): void {}

  drained(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    try {
      fsyncSync(this.#fd);
    } catch (error) {
      return Promise.reject(writeFailure(this.#path, 'fsync', error));
    } finally {
      closeSync(this.#fd);
    }
    return Promise.resolve();
  }
}

/**
 * Gzip file: lines go through one compressor (so the dictionary spans lines), and each snapshot
 * ends with a Z_SYNC_FLUSH so its bytes reach the file; after a crash the reader decompresses
 * everything up to the last flush. Compressed chunks are written synchronously as they come.
 */
export class GzipLineSink implements LineSink {
  readonly #path: string;
  readonly #fd: number;
  readonly #gzip: Gzip;
  #failure: QuantaError | undefined;
  #closing: Promise<void> | undefined;

  constructor(path: string) {
    this.#path = path;
    this.#fd = openNew(path);
    this.#gzip = createGzip();
    this.#gzip.on('data', (chunk: Buffer) => {
      if (this.#failure !== undefined) return;
      try {
        writeAll(this.#fd, chunk);
      } catch (error) {
        this.#failure = writeFailure(this.#path, 'write', error);
      }
    });
    this.#gzip.on('error', (error) => {
      this.#failure ??= writeFailure(this.#path, 'compress', error);
    });
  }

  writeLine(line: string): void {
    if (this.#failure !== undefined) throw this.#failure;
    this.#gzip.write(line);
  }

  endOfSnapshot(): void {
    this.#gzip.flush(zlibConstants.Z_SYNC_FLUSH);
  }

  async drained(): Promise<void> {
    if (this.#gzip.writableNeedDrain) await once(this.#gzip, 'drain');
    if (this.#failure !== undefined) throw this.#failure;
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    try {
      this.#gzip.end();
      await finished(this.#gzip);
    } catch (error) {
      this.#failure ??= writeFailure(this.#path, 'compress', error);
    }
    try {
      if (this.#failure === undefined) fsyncSync(this.#fd);
    } catch (error) {
      this.#failure = writeFailure(this.#path, 'fsync', error);
    } finally {
      closeSync(this.#fd);
    }
    if (this.#failure !== undefined) throw this.#failure;
  }
}
