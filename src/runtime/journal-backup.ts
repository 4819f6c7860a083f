import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { makeJournalFilesPrivate } from '../execution/journal-file-mode.ts';

/**
 * Copies the journal at `from` to the new file `to` with SQLite's online backup API, one read
 * transaction for the whole copy: a consistent journal as of one commit, taken beside a running
 * bot without stopping it (copying the file by hand misses what its `-wal` file holds, or tears
 * it mid-commit). `to` is created 0600, like the journal.
 *
 * @returns the pages copied.
 * @throws QuantaError `QUANTA_USAGE` when `to` exists; `QUANTA_JOURNAL` when `from` is no
 *   journal or the copy fails (a partial `to` is then left for inspection, never used).
 */
export async function backupJournal(from: string, to: string): Promise<number> {
  if (existsSync(to))
    throw new QuantaError(ErrorCodes.USAGE, `${to} exists: a backup writes a new file only`, {
      details: ['Name a file that does not exist yet with --out.'],
    });
  let db: Database.Database;
  try {
    db = new Database(from, { readonly: true, fileMustExist: true });
  } catch (cause) {
    throw new QuantaError(ErrorCodes.JOURNAL, `no order journal at ${from}`, { cause });
  }
  try {
    makeJournalFilesPrivate(to);
    // All remaining pages in one step: a step per batch of pages would restart from scratch
    // whenever the bot commits between two of them.
    const done = await db.backup(to, { progress: () => Number.MAX_SAFE_INTEGER });
    return done.totalPages;
  } catch (cause) {
    throw new QuantaError(ErrorCodes.JOURNAL, `cannot back up ${from} to ${to}`, { cause });
  } finally {
    db.close();
  }
}
