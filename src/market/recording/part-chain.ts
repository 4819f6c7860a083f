import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { RecordingWarning } from './recording-decoder.ts';
import { siblingPartPath } from './recording-files.ts';
import type { RecordingHeader } from './recording-format.ts';

/** A file as the chain saw it: its header, and (version 5) whether its end line says "continues". */
interface ReadFile {
  readonly file: string;
  readonly header: RecordingHeader;
  /** True: the end line says the recording goes on; false: closed; undefined: no end line. */
  readonly continues: boolean | undefined;
}

const MISSING_HINT =
  'Put the missing part back beside the others, or read the parts before the gap alone.';

/** The parts of one recording share the header's `createdAt` and `source` (one writer). */
function sameRecording(a: RecordingHeader, b: RecordingHeader): boolean {
  return a.createdAt === b.createdAt && a.source === b.source;
}

function partName(file: string, part: number): string {
  const path = siblingPartPath(file, part);
  return path === undefined ? `part ${part}` : `part ${part} (${path})`;
}

function missing(first: number, last: number): string {
  return first === last ? `part ${first} is` : `parts ${first} to ${last} are`;
}

/**
 * Checks that the rotation parts of a recording are read one after another with none missing:
 * a part after another of its recording must be the next one, and a file whose end line says the
 * recording continues (version 5) must be followed by the next part. A gap between two files read
 * is an error naming the missing part; a recording read from one of its later parts, or up to a
 * part that says it continues, is a warning (one part read alone is allowed, and says so).
 */
export class PartChain {
  readonly #warn: (warning: RecordingWarning) => void;
  #previous: ReadFile | undefined;

  constructor(warn: (warning: RecordingWarning) => void) {
    this.#warn = warn;
  }

  /**
   * Call once a file's header is known, before any of its snapshots is used.
   *
   * @throws QuantaError `QUANTA_RECORDING_INVALID` when a part is missing between the file
   *   before and this one.
   */
  enter(file: string, header: RecordingHeader): void {
    const previous = this.#previous;
    const { part } = header;
    if (previous?.continues === true && part === 0)
      throw new QuantaError(
        ErrorCodes.RECORDING_INVALID,
        `${previous.file}: the file ends saying its recording continues in ${partName(previous.file, previous.header.part + 1)}, but the next file read (${file}) starts another recording`,
        { details: [MISSING_HINT] },
      );
    // Part 0 starts a recording (the writer writes it once).
    if (part === 0) return;
    if (previous === undefined) {
      this.#warn({
        file,
        line: 1,
        message: `${file}:1: the recording is read from part ${part}: ${missing(0, part - 1)} not read (it starts at ${partName(file, 0)})`,
      });
      return;
    }
    const before = previous.header.part;
    if (!sameRecording(previous.header, header))
      throw new QuantaError(
        ErrorCodes.RECORDING_INVALID,
        `${file}:1: part ${part} of a recording follows another recording (${previous.file}): ${missing(0, part - 1)} of this one missing (${partName(file, 0)})`,
        { details: [MISSING_HINT] },
      );
    if (part === before + 1) return;
    throw new QuantaError(
      ErrorCodes.RECORDING_INVALID,
      part > before
        ? `${file}:1: part ${part} of the recording follows part ${before} (${previous.file}): ${missing(before + 1, part - 1)} missing (${partName(file, before + 1)})`
        : `${file}:1: part ${part} of the recording follows part ${before} (${previous.file}): its parts are read out of order or twice`,
      { details: [MISSING_HINT] },
    );
  }

  /** Call at the end of each file, with its end line's verdict (undefined without one). */
  leave(file: string, header: RecordingHeader, continues: boolean | undefined): void {
    this.#previous = { file, header, continues };
  }

  /** Call after the last file: a last part that says the recording continues is a warning. */
  finish(): void {
    const last = this.#previous;
    if (last?.continues !== true) return;
    this.#warn({
      file: last.file,
      line: 0,
      message: `${last.file}: the recording continues in ${partName(last.file, last.header.part + 1)}, which was not read`,
    });
  }
}
