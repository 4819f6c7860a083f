/**
 * The journal's mark: a small file beside the journal (`journal.sqlite-mark`) that says what the
 * journal must hold, so that a journal which lost its newest commits is refused, not traded on.
 *
 * Why (issue 25): a bot killed right after an order landed keeps its newest commits in the
 * `-wal` file; with that file deleted (a backup tool, a careless cleanup) SQLite opens the main
 * file alone, which is sound but old, and a restart traded 130 orders without a warning while
 * 10 rows, 2 of them orders the venue held, were gone. Nothing inside the journal can tell: what
 * is lost is exactly the record of it. The mark is written outside the file:
 *
 * - `open`: a writer has the journal open. SQLite deletes the WAL only when the writer closes
 *   (the journal's readers all open read-only, and a read-only connection never deletes it), so
 *   a journal marked open without its WAL, or with a WAL shorter than `walBytes` (its size once
 *   the writer had opened and preallocated it; SQLite never shortens it while open), was cut.
 * - `orders` and `kvWrites`: the highest order id and the count of stored-value writes
 *   committed, each written after its commit's fsync. A journal holding fewer lost commits (its
 *   WAL deleted or cut, or the file replaced by an older copy). State changes written after an
 *   answer (committed without an fsync, see OrderJournal) are not counted: a power cut may lose
 *   them too, and recovery asks the venue about every order not final.
 *
 * The mark is written in place (one write of a fixed-size record) without an fsync: a killed
 * process's writes stay in the page cache, and after a power cut the mark can only be behind the
 * fsynced commits it counts (it is written after them), never ahead.
 */
import { closeSync, constants, openSync, readFileSync, statSync, writeSync } from 'node:fs';

/** What the mark says (see the module doc). */
export interface JournalMark {
  readonly open: boolean;
  readonly walBytes: number;
  readonly orders: number;
  readonly kvWrites: number;
}

/** The mark's bytes: JSON padded with spaces to one fixed size, so each write replaces it whole. */
const MARK_BYTES = 128;

/** Where the mark of the journal at `journal` is. */
export function markPathOf(journal: string): string {
  return `${journal}-mark`;
}

/**
 * The mark at `file`; undefined when there is none (a journal written before marks, a new one,
 * or a mark an operator deleted after restoring a backup on purpose). A mark that does not parse
 * is a string saying so.
 */
export function readJournalMark(file: string): JournalMark | undefined | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `its mark ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  // (Created and not yet written when a power cut came: as good as none.)
  if (text.length === 0) return undefined;
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const { open, walBytes, orders, kvWrites } = value;
    if (typeof open === 'boolean' && isCount(walBytes) && isCount(orders) && isCount(kvWrites))
      return { open, walBytes, orders, kvWrites };
  } catch {
    // Not JSON: said below.
  }
  return `its mark ${file} is not one this quanta writes`;
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The size of the file at `path` in bytes, or undefined when it does not exist. */
export function fileBytes(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * What the mark says is missing from the WAL at `walPath` (checked before SQLite opens the
 * journal, which would start a new WAL); empty when nothing is.
 */
export function walProblems(mark: JournalMark, walPath: string): string[] {
  if (!mark.open || mark.walBytes === 0) return [];
  const bytes = fileBytes(walPath);
  const crashed = 'the bot that wrote it stopped without closing it (killed or crashed)';
  if (bytes === undefined)
    return [
      `${crashed} and its WAL ${walPath}, which holds its newest commits, is missing (deleted after the crash?)`,
    ];
  if (bytes < mark.walBytes)
    return [
      `${crashed} and its WAL ${walPath} is ${bytes} bytes, shorter than the ${mark.walBytes} it had: cut short, its newest commits may be gone`,
    ];
  return [];
}

/** What the journal lacks of what the mark says was committed; empty when nothing. */
export function countProblems(
  mark: JournalMark,
  held: { readonly orders: number; readonly kvWrites: number },
): string[] {
  const problems: string[] = [];
  if (held.orders < mark.orders)
    problems.push(
      `it holds orders up to id ${held.orders}, but orders up to id ${mark.orders} were committed: the newest ${mark.orders - held.orders} are missing (its WAL deleted or cut, or the file replaced by an older copy)`,
    );
  if (held.kvWrites < mark.kvWrites)
    problems.push(
      `it counts ${held.kvWrites} stored-value writes, but ${mark.kvWrites} were committed: the newest ${mark.kvWrites - held.kvWrites} are missing (a persisted mode or strategy state may be old)`,
    );
  return problems;
}

/** The mark file a writing journal keeps open and rewrites in place. */
export class JournalMarkFile {
  readonly #fd: number;
  readonly #buffer = Buffer.alloc(MARK_BYTES);

  private constructor(fd: number) {
    this.#fd = fd;
  }

  /** Opens (creating, owner-only) the mark at `file` for writing. */
  static open(file: string): JournalMarkFile {
    // Not truncated: every write replaces all MARK_BYTES, so the old mark stands until then.
    return new JournalMarkFile(openSync(file, constants.O_WRONLY | constants.O_CREAT, 0o600));
  }

  /** Replaces the mark with `mark` (one write at offset 0, no fsync: see the module doc). */
  write(mark: JournalMark): void {
    const text = JSON.stringify(mark);
    this.#buffer.fill(0x20);
    this.#buffer.write(text, 0, 'utf8');
    this.#buffer[MARK_BYTES - 1] = 0x0a;
    writeSync(this.#fd, this.#buffer, 0, MARK_BYTES, 0);
  }

  close(): void {
    closeSync(this.#fd);
  }
}
