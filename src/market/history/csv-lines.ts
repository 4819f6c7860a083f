/**
 * Reads a CSV file line by line, never whole: `node:readline` over the file, through a gunzip
 * stream when its name ends in `.gz`. A damaged or cut-short gzip file is an error naming the
 * file and the last line read, not a quietly shorter history.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';

/** One line of a CSV file: its text (without the line break) and its 1-based number. */
export interface CsvLine {
  readonly text: string;
  readonly line: number;
}

/** How far a read has got: the file's own bytes consumed (compressed bytes for gzip). */
export interface ReadPosition {
  bytes: number;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String(error.code)
    : undefined;
}

function readFailure(path: string, error: unknown, line: number): QuantaError {
  if (error instanceof QuantaError) return error;
  const code = errorCode(error);
  const reason = error instanceof Error ? error.message : String(error);
  if (code === 'ENOENT')
    return new QuantaError(ErrorCodes.HISTORY_INVALID, `${path}: no such file`, { cause: error });
  if (code?.startsWith('Z_') === true || code === 'ERR_PADDING_1')
    return new QuantaError(
      ErrorCodes.HISTORY_INVALID,
      reason.includes('unexpected end')
        ? `${path}:${line + 1}: the gzip stream ends early (the file is truncated) after line ${line}; nothing of this file was kept`
        : `${path}:${line + 1}: not a readable gzip file from here on (${reason})`,
      { cause: error },
    );
  return new QuantaError(ErrorCodes.HISTORY_INVALID, `${path}: cannot read (${reason})`, {
    cause: error,
  });
}

/**
 * The lines of a CSV file (`.gz`: decompressed on the way), with a `\r` before the break
 * removed. An empty last line is not yielded.
 *
 * @throws QuantaError `QUANTA_HISTORY_INVALID` (during iteration) for a missing file or a
 *   damaged or truncated gzip stream, naming file and line.
 */
export async function* readCsvLines(
  path: string,
  position: ReadPosition = { bytes: 0 },
): AsyncGenerator<CsvLine, void, undefined> {
  const file = createReadStream(path, { highWaterMark: 256 * 1024 });
  let failure: unknown;
  file.on('data', (chunk) => {
    position.bytes += chunk.length;
  });
  let input: Readable = file;
  if (path.endsWith('.gz')) {
    const gunzip = createGunzip();
    file.on('error', (error) => gunzip.destroy(error));
    input = file.pipe(gunzip);
  }
  // readline ends quietly on a stream error: keep it and throw it after the last line.
  input.on('error', (error) => {
    failure ??= error;
  });
  file.on('error', (error) => {
    failure ??= error;
  });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const raw of lines) {
      line += 1;
      if (failure !== undefined) break;
      yield { text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, line };
    }
  } catch (error) {
    failure ??= error;
  } finally {
    lines.close();
    file.destroy();
  }
  if (failure !== undefined) throw readFailure(path, failure, line);
}
