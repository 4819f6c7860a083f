/**
 * Writes snapshots to a recording, in the format of `docs/recording-format.md` (version 5 by
 * default: version 4's lines, each with a check field, and an end line; versions 1 to 4 on
 * request, for readers that know only those).
 */
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { Market } from '../../domain/index.ts';
import { sameMarket } from '../same-market.ts';
import type { Snapshot } from '../snapshot.ts';
import {
  encodeHeader,
  encodeMarketLine,
  encodeOrderLine,
  encodeRemovalLine,
  encodeSnapshotLine,
  encodeSnapshotLineV2,
  type QuoteMemory,
} from './encode-lines.ts';
import { GzipLineSink, PlainLineSink, type LineSink } from './line-sink.ts';
import { sealLine } from './line-seal.ts';
import { isGzipPath, partPath } from './recording-files.ts';
import { LineTag, type RecordingHeader, SEALED_VERSION } from './recording-format.ts';
import {
  type RecordingWriterOptions,
  type WriterSettings,
  writerSettings,
} from './writer-options.ts';

export { DEFAULT_ROTATE_BYTES, type RecordingWriterOptions } from './writer-options.ts';

/** True when `b` iterates its keys in the same order as `a` (same sizes assumed). */
function sameOrder(a: ReadonlyMap<number, Market>, b: ReadonlyMap<number, Market>): boolean {
  const keys = b.keys();
  for (const id of a.keys()) if (keys.next().value !== id) return false;
  return true;
}

/**
 * Records snapshots in the format described at the top of this file: market rows only when they
 * change, one compact line per snapshot, rotation by size, crash-safe lines.
 *
 * @example
 * ```ts
 * const writer = await RecordingWriter.open({ dir: '.quanta/recordings', gzip: true, source: url });
 * for await (const snapshot of snapshots) {
 *   writer.write(snapshot);
 *   await writer.drained();
 * }
 * await writer.close();
 * ```
 */
export class RecordingWriter {
  readonly #firstPath: string;
  readonly #rotateBytes: number;
  readonly #gzip: boolean;
  readonly #header: Omit<RecordingHeader, 'part'>;
  readonly #files: string[] = [];
  // The listing as a reader rebuilds it from the lines written so far in this file.
  #markets = new Map<number, Market>();
  // The listing Map of the last snapshot written: the poller hands the same Map on while no
  // market changed, and then there is nothing to compare.
  #lastListing: ReadonlyMap<number, Market> | undefined;
  #sink: LineSink;
  #fileBytes = 0;
  #totalBytes = 0;
  #fileSnapshots = 0;
  // Lines and keyframe lines written to the current file (version 5 seals each line with its
  // number; its end line counts the keyframes).
  #fileLines = 0;
  #fileKeyframes = 0;
  #closing: Promise<void>[] = [];
  #failure: Error | undefined;
  // A failure to write the last file's end line at close (close reports it).
  #endFailure: Error | undefined;
  #closed = false;
  // Version 2 and later: each market's last quote sides in the current file.
  #quoteMemory: QuoteMemory = new Map();
  readonly #keyframes: number;
  // Version 3: snapshot lines since the file's start or its last keyframe.
  #sinceKeyframe = 0;
  readonly #flushSnapshots: number;
  readonly #flushMs: number;
  readonly #now: () => number;
  #unflushed = 0;
  #flushedAt: number;

  private constructor({ path, rotateBytes, header, flush, keyframes }: WriterSettings) {
    this.#keyframes = keyframes;
    this.#firstPath = path;
    this.#rotateBytes = rotateBytes;
    this.#gzip = isGzipPath(path);
    this.#header = header;
    this.#flushSnapshots = flush.snapshots;
    this.#flushMs = flush.ms;
    this.#now = flush.now;
    this.#flushedAt = flush.now();
    this.#sink = this.#startFile(0);
  }

  /**
   * Creates the first file and writes its header.
   *
   * @throws QuantaError `QUANTA_USAGE` for contradictory or invalid options;
   *   `QUANTA_RECORDING_WRITE` when the file exists already or cannot be created.
   */
  static open(options: RecordingWriterOptions): Promise<RecordingWriter> {
    try {
      return Promise.resolve(new RecordingWriter(writerSettings(options)));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** The files written so far, first to current. */
  get files(): readonly string[] {
    return this.#files;
  }

  /** Bytes of lines written so far over every file (uncompressed size for gzip). */
  get bytesWritten(): number {
    return this.#totalBytes;
  }

  /**
   * Appends one snapshot: its changed market rows, then its snapshot line. Rotates first when
   * the current file is full. The hot path costs nothing for markets: the same markets Map as
   * the previous snapshot (snapshots are immutable, so it cannot have changed) is not looked at,
   * and reference-equal Market objects are skipped without a field compare.
   *
   * @throws QuantaError `QUANTA_RECORDING_WRITE` when the writer is closed, a write failed
   *   (this one or an earlier gzip write), `seq`/`takenAt` cannot be recorded exactly, or a
   *   quote price or quantity holds a space (the snapshot is then refused whole and the writer
   *   stays usable).
   */
  write(snapshot: Snapshot): void {
    if (this.#closed) {
      throw new QuantaError(
        ErrorCodes.RECORDING_WRITE,
        `recording ${this.#firstPath}: write after close`,
      );
    }
    if (this.#failure !== undefined) throw this.#failure;
    if (!Number.isSafeInteger(snapshot.seq) || !Number.isFinite(snapshot.takenAt)) {
      throw new QuantaError(
        ErrorCodes.RECORDING_WRITE,
        `recording ${this.#firstPath}: snapshot ${String(snapshot.seq)}: seq must be an integer and takenAt a finite number (got takenAt ${String(snapshot.takenAt)})`,
      );
    }
    // Encoded first: a snapshot that cannot be recorded is refused before any of its lines.
    // Rotated first: version 2 encodes against what the file holds.
    if (this.#fileBytes >= this.#rotateBytes && this.#fileSnapshots > 0) {
      try {
        this.#rotate();
      } catch (error) {
        this.#failure =
          error instanceof Error
            ? error
            : new QuantaError(ErrorCodes.RECORDING_WRITE, `recording: ${String(error)}`);
        throw this.#failure;
      }
    }
    let snapshotLine: string;
    const version = this.#header.version;
    const keyframe = version >= 3 && this.#sinceKeyframe >= this.#keyframes;
    // A keyframe encodes against nothing; the memory is replaced only once the line is encoded.
    const memory: QuoteMemory = keyframe ? (new Map() as QuoteMemory) : this.#quoteMemory;
    try {
      snapshotLine =
        version === 1
          ? encodeSnapshotLine(snapshot)
          : encodeSnapshotLineV2(
              snapshot,
              memory,
              keyframe ? LineTag.keyframe : LineTag.snapshot,
              version,
            );
    } catch (error) {
      if (!(error instanceof QuantaError)) throw error;
      throw new QuantaError(
        error.code,
        `recording ${this.#firstPath}: snapshot ${snapshot.seq}: ${error.shortMessage}`,
        { cause: error },
      );
    }
    try {
      if (snapshot.markets !== this.#lastListing) {
        this.#writeMarkets(snapshot.markets);
        this.#lastListing = snapshot.markets;
      }
      this.#line(snapshotLine);
      this.#quoteMemory = memory;
      this.#sinceKeyframe = keyframe ? 1 : this.#sinceKeyframe + 1;
      this.#fileSnapshots++;
      if (keyframe) this.#fileKeyframes++;
      this.#unflushed++;
      if (this.#unflushed >= this.#flushSnapshots || this.#now() - this.#flushedAt >= this.#flushMs)
        this.flush();
    } catch (error) {
      // The file may now end mid-snapshot; refuse further writes rather than record a lie.
      this.#failure =
        error instanceof Error
          ? error
          : new QuantaError(ErrorCodes.RECORDING_WRITE, `recording: ${String(error)}`);
      throw this.#failure;
    }
  }

  /**
   * Pushes what was written to the file now (gzip: out of the compressor, which otherwise
   * happens every `flushEverySnapshots` snapshots or `flushEveryMs`, and at close).
   */
  flush(): void {
    this.#sink.endOfSnapshot();
    this.#unflushed = 0;
    this.#flushedAt = this.#now();
  }

  /**
   * Resolves when the writer has caught up (gzip compresses in the background; plain writes are
   * synchronous). A recording loop awaits it after each write so memory stays bounded.
   */
  drained(): Promise<void> {
    return this.#sink.drained();
  }

  /**
   * Flushes, fsyncs and closes the current file (and any rotated one still compressing).
   * Calling it again does nothing more.
   *
   * @throws QuantaError `QUANTA_RECORDING_WRITE` for the first failure of any file.
   */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      // Not after a failed write: the file may end mid-snapshot, and its missing end line says
      // so to a reader.
      if (this.#failure === undefined) {
        try {
          this.#endLine(false);
        } catch (error) {
          this.#failure = error instanceof Error ? error : new Error(String(error));
          this.#endFailure = this.#failure;
        }
      }
      this.#closing.push(this.#sink.close());
    }
    const results = await Promise.allSettled(this.#closing);
    for (const result of results) if (result.status === 'rejected') throw result.reason;
    if (this.#endFailure !== undefined) throw this.#endFailure;
  }

  #startFile(part: number): LineSink {
    const path = partPath(this.#firstPath, part);
    const sink = this.#gzip ? new GzipLineSink(path) : new PlainLineSink(path);
    this.#files.push(path);
    this.#sink = sink;
    this.#fileBytes = 0;
    this.#fileSnapshots = 0;
    this.#fileLines = 0;
    this.#fileKeyframes = 0;
    this.#markets = new Map();
    this.#lastListing = undefined;
    this.#quoteMemory = new Map();
    this.#sinceKeyframe = 0;
    this.#line(encodeHeader({ ...this.#header, part }));
    return sink;
  }

  #rotate(): void {
    this.#endLine(true);
    const closing = this.#sink.close();
    // Owned here: close() awaits it and reports its failure.
    closing.catch(() => undefined);
    this.#closing.push(closing);
    this.#startFile(this.#files.length);
  }

  /** Version 5: the end line, `["e", snapshots, keyframes, next]` (see `LineTag.end`). */
  #endLine(continues: boolean): void {
    if (this.#header.version < SEALED_VERSION) return;
    this.#line(
      JSON.stringify([LineTag.end, this.#fileSnapshots, this.#fileKeyframes, continues ? 1 : 0]),
    );
  }

  #line(text: string): void {
    this.#fileLines += 1;
    const sealed = this.#header.version >= SEALED_VERSION ? sealLine(text, this.#fileLines) : text;
    const line = `${sealed}\n`;
    this.#sink.writeLine(line);
    const bytes = Buffer.byteLength(line, 'utf8');
    this.#fileBytes += bytes;
    this.#totalBytes += bytes;
  }

  #writeMarkets(current: ReadonlyMap<number, Market>): void {
    const known = this.#markets;
    // Deleting the entry being visited is safe in a Map iteration.
    for (const id of known.keys()) {
      if (current.has(id)) continue;
      this.#line(encodeRemovalLine(id));
      known.delete(id);
    }
    for (const [id, market] of current) {
      const previous = known.get(id);
      if (previous === market) continue;
      if (previous === undefined || !sameMarket(previous, market))
        this.#line(encodeMarketLine(market));
      // Keep the newest object either way: the next snapshot most likely shares it.
      known.set(id, market);
    }
    if (!sameOrder(known, current)) {
      this.#line(encodeOrderLine([...current.keys()]));
      this.#markets = new Map(current);
    }
  }
}
