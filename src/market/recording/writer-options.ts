/**
 * What a recording writer is opened with, checked and with its defaults filled in, and where its
 * first file goes.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../clock/clock.ts';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { defaultRecordingName, isGzipPath } from './recording-files.ts';
import {
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordingHeader,
  isRecordingVersion,
  RECORDING_VERSIONS,
  type RecordingVersion,
} from './recording-format.ts';

/** Default size at which a recording file is rotated: 64 MiB of lines. */
export const DEFAULT_ROTATE_BYTES = 64 * 1024 * 1024;

/** Options of `RecordingWriter.open`. Give exactly one of `dir` and `path`. */
export interface RecordingWriterOptions {
  /** A directory (created if missing); the file is named `recording-<UTC time>.jsonl[.gz]`. */
  readonly dir?: string;
  /** The first file's path; must end in `.jsonl` or `.jsonl.gz` (gzip follows the name). */
  readonly path?: string;
  /** Rotate once a file holds this many bytes of lines (uncompressed size for gzip). */
  readonly rotateBytes?: number;
  /** With `dir`: compress (`.jsonl.gz`). With `path`, must agree with the name if given. */
  readonly gzip?: boolean;
  /** What is recorded (a venue URL, `paper`…), kept in the header. Never put a secret here. */
  readonly source?: string;
  /**
   * Clock for the header's `createdAt`, the default file name and `flushEveryMs` (ms since the
   * epoch).
   */
  readonly now?: () => number;
  /**
   * The format version written: 5 (default), or 4, 3, 2 or 1 for readers that know only those
   * (their lines carry no check field: a reader cannot tell a changed or missing line).
   */
  readonly version?: RecordingVersion;
  /** Version 3 and later: a keyframe line every this many snapshots of a file (default 256). */
  readonly keyframeEverySnapshots?: number;
  /**
   * gzip: push the compressed bytes to the file after this many snapshots (default 64)…
   * A crash loses at most the snapshots since the last flush; each flush costs a few bytes.
   */
  readonly flushEverySnapshots?: number;
  /** …or once this many ms passed since the last flush, at the next write (default 5000). */
  readonly flushEveryMs?: number;
}

/** The options checked, with every default filled in. */
export interface WriterSettings {
  /** The first file's path (its directory exists). */
  readonly path: string;
  readonly rotateBytes: number;
  /** Every file's header but its part number. */
  readonly header: Omit<RecordingHeader, 'part'>;
  readonly flush: { readonly snapshots: number; readonly ms: number; readonly now: () => number };
  readonly keyframes: number;
}

const DEFAULT_FLUSH_SNAPSHOTS = 64;
const DEFAULT_FLUSH_MS = 5000;
const DEFAULT_KEYFRAME_SNAPSHOTS = 256;

function usage(rule: string): QuantaError {
  return new QuantaError(ErrorCodes.USAGE, `recording writer: ${rule}`);
}

/**
 * Checks the options and fills in their defaults; with `dir`, creates the directory.
 *
 * @throws QuantaError `QUANTA_USAGE` for contradictory or invalid options;
 *   `QUANTA_RECORDING_WRITE` when the directory cannot be created.
 */
export function writerSettings(options: RecordingWriterOptions): WriterSettings {
  const rotateBytes = options.rotateBytes ?? DEFAULT_ROTATE_BYTES;
  if (!Number.isSafeInteger(rotateBytes) || rotateBytes <= 0) {
    throw usage(`rotateBytes: expected a positive integer, got ${String(rotateBytes)}`);
  }
  const version = options.version ?? RECORDING_VERSION;
  if (!isRecordingVersion(version))
    throw usage(
      `version: expected ${RECORDING_VERSIONS.slice(0, -1).join(', ')} or ${String(RECORDING_VERSIONS.at(-1))}, got ${String(version)}`,
    );
  const keyframes = options.keyframeEverySnapshots ?? DEFAULT_KEYFRAME_SNAPSHOTS;
  if (!Number.isSafeInteger(keyframes) || keyframes <= 0)
    throw usage(`keyframeEverySnapshots: expected a positive integer, got ${String(keyframes)}`);
  const snapshots = options.flushEverySnapshots ?? DEFAULT_FLUSH_SNAPSHOTS;
  const ms = options.flushEveryMs ?? DEFAULT_FLUSH_MS;
  if (!Number.isSafeInteger(snapshots) || snapshots <= 0)
    throw usage(`flushEverySnapshots: expected a positive integer, got ${String(snapshots)}`);
  if (!Number.isFinite(ms) || ms < 0)
    throw usage(`flushEveryMs: expected a number of ms ≥ 0, got ${String(ms)}`);
  const now = options.now ?? systemClock.now;
  const nowMs = now();
  const path = firstPath(options, nowMs);
  const header = {
    format: RECORDING_FORMAT,
    version,
    createdAt: new Date(nowMs).toISOString(),
    source: options.source ?? null,
  } as const;
  return { path, rotateBytes, header, flush: { snapshots, ms, now }, keyframes };
}

function firstPath(options: RecordingWriterOptions, nowMs: number): string {
  const { dir, path, gzip } = options;
  if ((dir === undefined) === (path === undefined)) {
    throw usage('give exactly one of `dir` and `path`');
  }
  if (path !== undefined) {
    if (!/\.jsonl(\.gz)?$/.test(path)) {
      throw usage(`path ${JSON.stringify(path)} must end in .jsonl or .jsonl.gz`);
    }
    if (gzip !== undefined && gzip !== isGzipPath(path)) {
      throw usage(
        `gzip: ${String(gzip)} contradicts path ${JSON.stringify(path)} (gzip follows the .gz ending)`,
      );
    }
    return path;
  }
  const directory = dir as string;
  try {
    mkdirSync(directory, { recursive: true });
  } catch (error) {
    throw new QuantaError(
      ErrorCodes.RECORDING_WRITE,
      `recording directory ${directory}: cannot create it`,
      {
        cause: error,
      },
    );
  }
  return join(directory, defaultRecordingName(nowMs, gzip ?? false));
}
