import { stat } from 'node:fs/promises';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { Market } from '../../domain/index.ts';
import type { Snapshot } from '../snapshot.ts';
import { RecordingDecoder, type RecordingWarning } from './recording-decoder.ts';
import { checkOneFilePerPart, listRecordingFiles } from './recording-files.ts';
import { SEALED_VERSION, type RecordingHeader } from './recording-format.ts';
import { PartChain } from './part-chain.ts';
import { letGo } from './let-go.ts';
import { readLineBatches } from './read-lines.ts';
import { SnapshotOrder } from './snapshot-order.ts';

/** Options of {@link readRecording} and {@link openRecording}. */
export interface ReadRecordingOptions {
  /**
   * Receives what was skipped (a torn last line, an empty file). Without it, warnings go to
   * `process.emitWarning` so they are never silent.
   */
  readonly onWarning?: (warning: RecordingWarning) => void;
  /** Aborts the reading; the iteration then throws `QUANTA_ABORTED`. */
  readonly signal?: AbortSignal;
  /**
   * Drop snapshots whose `seq` does not increase or whose `takenAt` goes back (duplicated,
   * swapped or back-dated lines) instead of failing on the first; a read that dropped some ends
   * with one warning counting them. Files that overlap in time are an error even so.
   */
  readonly repair?: boolean;
}

/**
 * Snapshots decoded from one chunk of a file, with how far each one had read. Each batch's arrays
 * are made for the one iterating, who may clear a snapshot's entry once done with it (a backtest
 * does, so the levels a strategy read die young).
 */
export interface SnapshotBatch {
  readonly snapshots: readonly Snapshot[];
  /** `bytesRead` (see {@link RecordingSnapshots}) as of each snapshot. */
  readonly bytesRead: readonly number[];
}

/** The snapshots of an opened recording, one read of its files per iteration. */
export interface RecordingSnapshots extends AsyncIterable<Snapshot> {
  /** Snapshots dropped by `repair` in the latest iteration so far (0 without `repair`). */
  readonly dropped: number;
  /**
   * Bytes of the recording's files consumed so far by the latest iteration (compressed bytes for
   * gzip files), up to the snapshot last yielded: with {@link OpenedRecording.bytes}, how far a
   * single read has got (a snapshot's share of its batch is estimated by its place in it).
   */
  readonly bytesRead: number;
  /**
   * The same snapshots in batches (those of one chunk read), for a reader that goes through
   * many: one await per batch instead of one per snapshot. Each call starts a read from the
   * beginning, as iterating does; `dropped` follows it.
   */
  batches(): AsyncIterable<SnapshotBatch>;
}

/** A recording opened by {@link openRecording}. */
export interface OpenedRecording {
  /** The header of the first file. */
  readonly header: RecordingHeader;
  /** The files that make up the recording, in reading order. */
  readonly files: readonly string[];
  /** The total size of `files` on disk in bytes (compressed for gzip), as opened. */
  readonly bytes: number;
  /**
   * Streams the snapshots of every file in order; each call starts from the beginning and gives
   * the same snapshots and the same verdict.
   *
   * @param overrides - replaces `onWarning` for this read, e.g. to stay quiet on a second pass
   *   over a recording whose warnings the first pass reported.
   */
  snapshots(overrides?: Pick<ReadRecordingOptions, 'onWarning'>): RecordingSnapshots;
}

function defaultWarn(warning: RecordingWarning): void {
  process.emitWarning(warning.message, { type: 'QuantaRecordingWarning' });
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (error) {
    throw new QuantaError(
      ErrorCodes.RECORDING_NOT_FOUND,
      `recording ${path}: no such file or directory`,
      {
        cause: error,
      },
    );
  }
}

/**
 * The files a recording path stands for: a file is itself; a directory is all its recording
 * files (`*.jsonl`, `*.jsonl.gz`) in rotation order; a list is each entry expanded in turn.
 *
 * @throws QuantaError `QUANTA_RECORDING_NOT_FOUND` when a path does not exist or a directory
 *   holds no recording file; `QUANTA_RECORDING_INVALID` when one file is named twice or two
 *   files hold the same part of one recording (`rec.jsonl` beside `rec.jsonl.gz`).
 */
export async function resolveRecordingFiles(path: string | readonly string[]): Promise<string[]> {
  const paths = typeof path === 'string' ? [path] : path;
  const files: string[] = [];
  for (const entry of paths) {
    if (!(await isDirectory(entry))) {
      files.push(entry);
      continue;
    }
    const found = await listRecordingFiles(entry);
    if (found.length === 0) {
      throw new QuantaError(
        ErrorCodes.RECORDING_NOT_FOUND,
        `recording directory ${entry}: no recording files (*.jsonl or *.jsonl.gz) in it`,
      );
    }
    files.push(...found);
  }
  if (files.length === 0) {
    throw new QuantaError(ErrorCodes.RECORDING_NOT_FOUND, 'recording: no path given');
  }
  checkOneFilePerPart(files);
  return files;
}

/** The order check of the read in progress, kept so a caller can ask what it dropped. */
interface ReadState {
  order?: SnapshotOrder;
  /** Bytes consumed up to the line being decoded, all files so far. */
  bytesRead: number;
}

async function* readFiles(
  files: readonly string[],
  options: ReadRecordingOptions,
  state: ReadState = { bytesRead: 0 },
): AsyncGenerator<Snapshot, void, undefined> {
  for await (const batch of readFileBatches(files, options, state)) {
    const { snapshots, bytesRead } = batch;
    for (let i = 0; i < snapshots.length; i++) {
      state.bytesRead = bytesRead[i] as number;
      yield letGo(snapshots, i);
    }
  }
}

/** Snapshots read from files of a format without line checksums, said once at the end. */
interface Unverified {
  snapshots: number;
  readonly versions: Set<number>;
  first: string;
}

/** The read of one file: its decoder, the line held back, and what the file's end must say. */
class FileRead {
  readonly decoder: RecordingDecoder;
  count = 0;
  noTrailer = false;
  unterminated = false;
  // One line behind: a line is known to be the last one (allowed to be torn) only at the end.
  pending: string | undefined;
  #entered = false;

  constructor(
    readonly file: string,
    warn: (warning: RecordingWarning) => void,
    previous: ReadonlyMap<number, Market>,
    private readonly order: SnapshotOrder,
    private readonly chain: PartChain,
  ) {
    // Each file is self-contained; the previous one's markets only lend their objects.
    this.decoder = new RecordingDecoder(file, warn, previous);
    order.startFile(file);
  }

  /** Once the header is decoded: where the file stands among the parts. */
  enter(): void {
    const header = this.decoder.header;
    if (this.#entered || header === undefined) return;
    this.#entered = true;
    this.chain.enter(this.file, header);
  }

  /** Decodes the line held back and holds `text`; the snapshot when it is one that is kept. */
  next(text: string): Snapshot | undefined {
    const held = this.pending;
    this.pending = text;
    return held === undefined ? undefined : this.#admit(this.decoder.decodeLine(held, false));
  }

  /** Decodes the last line (the one held back), which may be torn. */
  last(): Snapshot | undefined {
    const snapshot = this.decoder.decodeLine(this.pending as string, true, this.unterminated);
    this.enter();
    return this.#admit(snapshot);
  }

  #admit(snapshot: Snapshot | undefined): Snapshot | undefined {
    if (snapshot === undefined || !this.order.admit(snapshot, this.decoder)) return undefined;
    this.count += 1;
    return snapshot;
  }

  /** The file's warnings (a missing gzip trailer or end line), its part, and the unverified. */
  finish(warn: (warning: RecordingWarning) => void, unverified: Unverified): void {
    const { file, decoder, count } = this;
    const header = decoder.header;
    if (this.noTrailer) {
      warn({
        file,
        line: 0,
        message: `${file}: the gzip stream ends without its trailer (the file was cut short, e.g. the recorder was killed): read ${count} snapshots from it`,
      });
    } else if (decoder.codec?.sealed === true && decoder.end === undefined) {
      warn({
        file,
        line: 0,
        message: `${file}: no end line (the file was cut short, e.g. the recorder was killed): read ${count} snapshots from it`,
      });
    }
    if (header !== undefined) this.chain.leave(file, header, decoder.end?.continues);
    if (header !== undefined && decoder.codec?.sealed === false) {
      unverified.snapshots += count;
      unverified.versions.add(header.version);
      if (unverified.first === '') unverified.first = file;
    }
  }
}

async function* readFileBatches(
  files: readonly string[],
  options: ReadRecordingOptions,
  state: ReadState,
): AsyncGenerator<SnapshotBatch, void, undefined> {
  const warn = options.onWarning ?? defaultWarn;
  const order = new SnapshotOrder(options.repair === true);
  state.order = order;
  const chain = new PartChain(warn);
  const unverified: Unverified = { snapshots: 0, versions: new Set<number>(), first: '' };
  let previous: ReadonlyMap<number, Market> = new Map();
  let before = 0;
  const position = { bytes: 0 };
  for (const file of files) {
    const read = new FileRead(file, warn, previous, order, chain);
    position.bytes = 0;
    let batchStart = 0;
    const batches = readLineBatches(file, {
      signal: options.signal,
      onMissingTrailer: () => (read.noTrailer = true),
      onUnterminatedLine: () => (read.unterminated = true),
      position,
    });
    for await (const batch of batches) {
      // The lines of a batch share its bytes evenly (the pending line is one behind: close enough).
      const from = before + batchStart;
      const span = position.bytes - batchStart;
      batchStart = position.bytes;
      const snapshots: Snapshot[] = [];
      const bytesRead: number[] = [];
      for (let line = 0; line < batch.length; line++) {
        const snapshot = read.next(batch[line] as string);
        if (snapshot === undefined) continue;
        snapshots.push(snapshot);
        bytesRead.push(from + Math.floor((span * (line + 1)) / batch.length));
      }
      read.enter();
      if (snapshots.length > 0) yield { snapshots, bytesRead };
    }
    before += position.bytes;
    state.bytesRead = before;
    if (read.pending === undefined) {
      warn({
        file,
        line: 0,
        message: `${file}: empty file skipped (the recorder stopped before writing)`,
      });
      continue;
    }
    const snapshot = read.last();
    if (snapshot !== undefined) yield { snapshots: [snapshot], bytesRead: [before] };
    read.finish(warn, unverified);
    previous = read.decoder.markets;
  }
  chain.finish();
  if (unverified.snapshots > 0) warn(unverifiedWarning(unverified));
  const repaired = order.repairSummary();
  if (repaired !== undefined) warn({ file: files[0] ?? '', line: 0, message: repaired });
}

/**
 * The one warning of a read that took snapshots from files of a format before line checksums
 * (version 5): nothing in them can tell a changed or deleted line from a recorded one, so what
 * was read that way is counted, not passed off as verified.
 */
function unverifiedWarning(unverified: {
  readonly snapshots: number;
  readonly versions: ReadonlySet<number>;
  readonly first: string;
}): RecordingWarning {
  const versions = [...unverified.versions].sort((a, b) => a - b);
  const format =
    versions.length === 1
      ? `recording format version ${versions[0]} has`
      : `recording format versions ${versions.join(', ')} have`;
  const noun = unverified.snapshots === 1 ? 'snapshot was' : 'snapshots were';
  return {
    file: unverified.first,
    line: 1,
    message: `${unverified.first}:1: ${format} no line checksums: a changed or deleted line cannot be detected, so ${unverified.snapshots} ${noun} read unverified (recordings written from now on are version ${SEALED_VERSION})`,
  };
}

/**
 * Streams the snapshots of a recording, rebuilt exactly as they were recorded (`Market` values
 * with their bigints, quotes as decimal strings, frozen snapshots with Maps in the recorded
 * order). Files are read line by line, never whole; unchanged markets are the same objects from
 * one snapshot to the next.
 *
 * @param path - a recording file, a directory of them, or a list of either.
 * @throws QuantaError (during iteration) `QUANTA_RECORDING_NOT_FOUND` for a missing path;
 *   `QUANTA_RECORDING_INVALID` naming `file:line` for a torn or malformed line that is not the
 *   last of its file, an unsupported format version or a corrupt gzip stream;
 *   `QUANTA_ABORTED` when `options.signal` aborts.
 * @example
 * ```ts
 * for await (const snapshot of readRecording('.quanta/recordings')) {
 *   const quote = snapshot.quotes?.get(1);
 * }
 * ```
 */
export async function* readRecording(
  path: string | readonly string[],
  options: ReadRecordingOptions = {},
): AsyncGenerator<Snapshot, void, undefined> {
  yield* readFiles(await resolveRecordingFiles(path), options, { bytesRead: 0 });
}

/**
 * Opens a recording: resolves its files and reads the first header, so a caller can show what it
 * is before streaming it.
 *
 * @throws QuantaError `QUANTA_RECORDING_NOT_FOUND` as {@link resolveRecordingFiles};
 *   `QUANTA_RECORDING_INVALID` when the first file has no complete header or an unsupported
 *   version.
 * @example
 * ```ts
 * const recording = await openRecording('data/recording.jsonl.gz');
 * console.log(recording.header.source);
 * for await (const snapshot of recording.snapshots()) { ... }
 * ```
 */
export async function openRecording(
  path: string | readonly string[],
  options: ReadRecordingOptions = {},
): Promise<OpenedRecording> {
  const files = await resolveRecordingFiles(path);
  const first = files[0] as string;
  // Only line 1 is read; a torn header is reported below as an error, not as a warning.
  const decoder = new RecordingDecoder(first, () => undefined);
  for await (const batch of readLineBatches(first, { signal: options.signal })) {
    const headerLine = batch[0];
    if (headerLine !== undefined) decoder.decodeLine(headerLine, true);
    break;
  }
  const header = decoder.header;
  if (header === undefined) {
    throw new QuantaError(ErrorCodes.RECORDING_INVALID, `${first}:1: no complete recording header`);
  }
  let bytes = 0;
  for (const file of files) bytes += (await stat(file)).size;
  return {
    header,
    files,
    bytes,
    snapshots: (overrides = {}) => {
      const state: ReadState = { bytesRead: 0 };
      const read = { ...options, ...overrides };
      return {
        [Symbol.asyncIterator]: () => readFiles(files, read, state),
        batches: () => ({
          [Symbol.asyncIterator]: () => readFileBatches(files, read, state),
        }),
        get dropped() {
          return state.order?.dropped ?? 0;
        },
        get bytesRead() {
          return state.bytesRead;
        },
      };
    },
  };
}
