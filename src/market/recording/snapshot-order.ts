import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { Snapshot } from '../snapshot.ts';
import type { RecordingHeader } from './recording-format.ts';

/** Where the reader is: what {@link SnapshotOrder} needs of a decoder, read only off the hot path. */
export interface LinePosition {
  /** The 1-based number of the line just decoded. */
  readonly line: number;
  /** The file's header, once line 1 was decoded. */
  readonly header: RecordingHeader | undefined;
}

interface FileRange {
  readonly file: string;
  readonly first: number;
  last: number;
}

const REPAIR_HINT =
  'Fix the recording, or replay it with repair (quanta backtest --repair), which drops such snapshots and counts them.';
const EXAMPLES = 3;

/** An ISO time for a message; a `takenAt` outside the Date range is shown as the number. */
function timeText(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

/**
 * Holds a recording to its order while it is read: within a recording `seq` increases, and
 * `takenAt` never goes back, across every file (a snapshot may share its predecessor's
 * millisecond). A file whose first snapshot is older than the snapshot before it overlaps the
 * files before it (or its name sorts against its time): that is always an error. Any other
 * offender (a duplicated, swapped or back-dated line) is an error naming `file:line`, or with
 * `repair` is dropped and counted.
 *
 * One instance per read, so every read of the same files gives the same verdict. The cost per
 * snapshot is two comparisons.
 */
export class SnapshotOrder {
  readonly #repair: boolean;
  #seq = -Infinity;
  #takenAt = -Infinity;
  // Where the last admitted snapshot came from, for messages.
  #file = '';
  #line = 0;
  #atFileStart = false;
  #currentFile = '';
  readonly #ranges: FileRange[] = [];
  #dropped = 0;
  readonly #examples: string[] = [];

  /** @param repair - drop offending snapshots instead of throwing. */
  constructor(repair: boolean) {
    this.#repair = repair;
  }

  /** Snapshots dropped so far (only ever non-zero with `repair`). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Call before the first line of each file. */
  startFile(file: string): void {
    this.#currentFile = file;
    this.#atFileStart = true;
  }

  /**
   * @returns true to replay `snapshot`, false to drop it (only with `repair`).
   * @throws QuantaError `QUANTA_RECORDING_INVALID` for files that overlap in time, and without
   *   `repair` for a snapshot whose seq does not increase or whose takenAt goes back.
   */
  admit(snapshot: Snapshot, at: LinePosition): boolean {
    if (this.#atFileStart) this.#enterFile(snapshot, at);
    if (snapshot.seq > this.#seq && snapshot.takenAt >= this.#takenAt) {
      this.#seq = snapshot.seq;
      this.#takenAt = snapshot.takenAt;
      this.#file = this.#currentFile;
      this.#line = at.line;
      return true;
    }
    const error = this.#offence(snapshot, at.line);
    if (!this.#repair) throw error;
    this.#dropped += 1;
    if (this.#examples.length < EXAMPLES) this.#examples.push(`${this.#currentFile}:${at.line}`);
    return false;
  }

  /** The warning text after a read with repair that dropped snapshots, else undefined. */
  repairSummary(): string | undefined {
    if (this.#dropped === 0) return undefined;
    const more = this.#dropped > EXAMPLES ? `, … ${this.#dropped - EXAMPLES} more` : '';
    const noun = this.#dropped === 1 ? 'snapshot' : 'snapshots';
    return `recording repaired: dropped ${this.#dropped} ${noun} whose seq or takenAt did not increase (${this.#examples.join(', ')}${more})`;
  }

  #enterFile(snapshot: Snapshot, at: LinePosition): void {
    this.#atFileStart = false;
    const previous = this.#ranges[this.#ranges.length - 1];
    if (previous !== undefined) previous.last = this.#takenAt;
    this.#ranges.push({ file: this.#currentFile, first: snapshot.takenAt, last: snapshot.takenAt });
    if (previous !== undefined && snapshot.takenAt < this.#takenAt) {
      throw this.#overlap(snapshot, at.line);
    }
    // Part 0 starts a recording, which numbers its snapshots afresh; later parts continue it.
    if (at.header?.part === 0) this.#seq = -Infinity;
  }

  #offence(snapshot: Snapshot, line: number): QuantaError {
    const here = `${this.#currentFile}:${line}`;
    const before = `${this.#file}:${this.#line}`;
    const rule =
      snapshot.seq <= this.#seq
        ? `snapshot seq ${snapshot.seq} does not increase: the snapshot before it (${before}) has seq ${this.#seq} (a duplicated or out-of-order line)`
        : `snapshot ${snapshot.seq} goes back in time: takenAt ${timeText(snapshot.takenAt)} is ${this.#takenAt - snapshot.takenAt} ms before that of the snapshot before it (${before}, ${timeText(this.#takenAt)})`;
    return new QuantaError(ErrorCodes.RECORDING_INVALID, `${here}: ${rule}`, {
      details: [REPAIR_HINT],
    });
  }

  #overlap(snapshot: Snapshot, line: number): QuantaError {
    const listed = this.#ranges.map((range, index) =>
      index === this.#ranges.length - 1
        ? `  ${range.file}: from ${timeText(range.first)}`
        : `  ${range.file}: ${timeText(range.first)} … ${timeText(range.last)}`,
    );
    return new QuantaError(
      ErrorCodes.RECORDING_INVALID,
      `recording files overlap in time or are named against their time order: ${this.#currentFile}:${line} starts at ${timeText(snapshot.takenAt)}, before ${this.#file} ends (${timeText(this.#takenAt)})`,
      {
        details: [
          'Files in reading order (by name, then rotation part):',
          ...listed,
          'Rename the files so that their names sort in time order, or remove the one that overlaps.',
        ],
      },
    );
  }
}
