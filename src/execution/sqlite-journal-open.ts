import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import {
  isSqliteDamage,
  journalDamaged,
  journalPageProblems,
  sqliteFinding,
} from './journal-damage.ts';
import { makeJournalFilesPrivate } from './journal-file-mode.ts';
import { markPathOf } from './journal-mark.ts';
import { JOURNAL_SCHEMA_VERSION, migrateJournal } from './journal-schema.ts';
import {
  checkCounts,
  checkedMark,
  currentBootId,
  settleUncountedAttempts,
} from './sqlite-journal-crash.ts';
import { preallocateWal } from './sqlite-journal-sync.ts';

/** A journal file opened and checked, ready for a store. */
export interface OpenedJournal {
  readonly db: Database.Database;
  /** Where the journal's mark is, for a writer on a file; undefined in memory or read-only. */
  readonly markFile: string | undefined;
  /** A file (not `:memory:`). */
  readonly onDisk: boolean;
}

/**
 * Opens (creating if needed) the journal at `path` for writing, checks it (its pages, its mark,
 * see journal-mark.ts), migrates its schema (`migrateJournal`), settles the rows a crash left
 * PENDING with an attempt counted (`settleUncountedAttempts`), and writes its WAL's space
 * (`walBytes`, default `WAL_PREALLOCATED_BYTES`: `preallocateWal`).
 * @throws QuantaError `QUANTA_JOURNAL` when the file cannot be opened (locked, unwritable), was
 *   written by a newer quanta, or cannot be migrated; `QUANTA_JOURNAL_DAMAGED` when it is damaged
 *   or lacks commits its mark counts.
 */
export function openJournalForWriting(
  path: string,
  bootId: string | null | undefined,
  walBytes?: number,
): OpenedJournal {
  const onDisk = path !== ':memory:' && path !== '';
  // Before SQLite opens the file (it would start a new WAL in place of a missing one).
  const markFile = onDisk ? markPathOf(path) : undefined;
  const mark = markFile === undefined ? undefined : checkedMark(path, markFile);
  const db = openWritable(path);
  try {
    // Before anything is written to it, and before a row is believed.
    if (path !== ':memory:') {
      const problems = journalPageProblems(db);
      if (problems.length > 0) throw journalDamaged(path, problems);
    }
    if (mark !== undefined) checkCounts(db, path, mark);
    migrateJournal(db);
    if (path !== ':memory:')
      settleUncountedAttempts(db, path, bootId === undefined ? currentBootId() : bootId);
    // The WAL exists now (SQLite opened it to migrate): its space is written before the first
    // order's commit, not by it.
    if (onDisk) preallocateWal(db, `${path}-wal`, walBytes);
    return { db, markFile, onDisk };
  } catch (error) {
    db.close();
    if (isSqliteDamage(error)) throw journalDamaged(path, [sqliteFinding(error)], error);
    throw error;
  }
}

function openWritable(path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    if (path !== ':memory:') {
      mkdirSync(dirname(path), { recursive: true });
      makeJournalFilesPrivate(path);
    }
    db = new Database(path, { timeout: 5000 });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    return db;
  } catch (cause) {
    // Closed, or the handle keeps the file's WAL index in this process: a journal restored in
    // its place later would be read through the stale index (rows missing).
    db?.close();
    // A damaged file fails here too (SQLite reads its header and first page): say so, not
    // "not writable" (issue 25: a journal cut to half its size got that advice).
    if (isSqliteDamage(cause)) throw journalDamaged(path, [sqliteFinding(cause)], cause);
    throw new QuantaError(ErrorCodes.JOURNAL, `cannot open the order journal at ${path}`, {
      cause,
      details: ['Check that state.dir is writable and no other bot uses the same state dir.'],
    });
  }
}

/**
 * Opens an existing journal for reading only, safe beside the bot that writes it (SQLite WAL
 * readers never block the writer), after checking its pages and its mark. Nothing is migrated
 * or created.
 * @throws QuantaError `QUANTA_JOURNAL` when there is no journal, or it was written by another
 *   schema version (run the bot once to migrate it); `QUANTA_JOURNAL_DAMAGED` as for writing.
 */
export function openJournalForReading(path: string): OpenedJournal {
  const mark = checkedMark(path, markPathOf(path));
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: 5000 });
  } catch (cause) {
    throw new QuantaError(ErrorCodes.JOURNAL, `no order journal at ${path}`, {
      cause,
      details: ['Check state.dir in the config: the bot keeps its journal there.'],
    });
  }
  try {
    const problems = journalPageProblems(db);
    if (problems.length > 0) throw journalDamaged(path, problems);
    // (Beside a running bot the mark is written after each commit: the file is never behind.)
    if (mark !== undefined) checkCounts(db, path, mark);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== JOURNAL_SCHEMA_VERSION) {
      throw new QuantaError(
        ErrorCodes.JOURNAL,
        `the journal at ${path} has schema version ${version}, this quanta reads ${JOURNAL_SCHEMA_VERSION}`,
        { details: ['Start the bot once with this version to migrate it, then ask again.'] },
      );
    }
    return { db, markFile: undefined, onDisk: true };
  } catch (error) {
    db.close();
    if (isSqliteDamage(error)) throw journalDamaged(path, [sqliteFinding(error)], error);
    throw error;
  }
}
