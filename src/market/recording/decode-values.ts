/**
 * What the recording decoders share: how a value is named in a message, the integer check, the
 * error they build, and the header (line 1) every version starts with.
 */
import type { QuantaError } from '../../errors/index.ts';
import {
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordingHeader,
  isRecordingVersion,
} from './recording-format.ts';

/** Builds the `QUANTA_RECORDING_INVALID` error naming `file:line` (the decoder's file). */
export type InvalidLine = (
  line: number,
  rule: string,
  details?: readonly string[],
  cause?: unknown,
) => QuantaError;

/** A value as a message names it: `null`, `an array`, a quoted (cut) string, a number. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}

export function isSafeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/**
 * The header object of line 1, checked field by field.
 *
 * @throws QuantaError `QUANTA_RECORDING_INVALID` (`invalid(1, …)`) naming what is wrong.
 */
export function decodeHeader(row: unknown, invalid: InvalidLine): RecordingHeader {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    throw invalid(1, `not a quanta recording: line 1 is ${describe(row)}, not a header object`);
  }
  const header = row as Record<string, unknown>;
  if (header.format !== RECORDING_FORMAT) {
    throw invalid(
      1,
      `not a quanta recording: header format is ${describe(header.format)}, expected "${RECORDING_FORMAT}"`,
    );
  }
  if (!isRecordingVersion(header.version)) {
    throw invalid(
      1,
      `recording format version ${describe(header.version)} is not supported (this quanta reads versions 1 to ${RECORDING_VERSION})`,
      ['Read it with the quanta version that wrote it, or record again.'],
    );
  }
  const { createdAt, source, part } = header;
  if (typeof createdAt !== 'string') {
    throw invalid(
      1,
      `header createdAt: expected an ISO timestamp string, got ${describe(createdAt)}`,
    );
  }
  if (source !== null && typeof source !== 'string') {
    throw invalid(1, `header source: expected a string or null, got ${describe(source)}`);
  }
  if (!isSafeInteger(part) || part < 0) {
    throw invalid(1, `header part: expected a non-negative integer, got ${describe(part)}`);
  }
  return { format: RECORDING_FORMAT, version: header.version, createdAt, source, part };
}
