import type Database from 'better-sqlite3';
import { ErrorCodes, QuantaError } from '../errors/index.ts';

/** At most this many of SQLite's findings are named in the message (`journal check` lists all). */
const NAMED_PROBLEMS = 5;

/**
 * The error of a journal that cannot be trusted: what is wrong, and what to do. The bot refuses
 * to trade on it (exit 4): orders it does not know of, or fills it reads wrong, lose money.
 */
export function journalDamaged(
  path: string,
  problems: readonly string[],
  cause?: unknown,
  moreDetails: readonly string[] = [],
): QuantaError {
  const named = problems.slice(0, NAMED_PROBLEMS);
  const more = problems.length - named.length;
  return new QuantaError(
    ErrorCodes.JOURNAL_DAMAGED,
    `the order journal at ${path} is damaged: ${named.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`,
    {
      cause,
      details: [
        'The bot does not trade on a journal it cannot trust; nothing was sent.',
        `Restore ${path} (with its -wal file, if the backup has one) from a backup made by \`quanta journal backup\`,`,
        'or see every problem with `quanta journal check --config FILE` and copy what can be read into a new journal with `quanta journal salvage --config FILE --out NEW_FILE`;',
        'then check the venue for orders the journal no longer shows.',
        ...moreDetails,
      ],
    },
  );
}

/** SQLite's own words for a damaged file (any `SQLITE_CORRUPT*`, or `SQLITE_NOTADB`). */
export function isSqliteDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return true;
  // A damaged sqlite_schema page reads as a schema SQLite cannot parse.
  return (
    code === 'SQLITE_ERROR' &&
    error instanceof Error &&
    error.message.startsWith('malformed database schema')
  );
}

/**
 * Runs `fn`; a SQLite error that says the file is damaged becomes {@link journalDamaged}.
 * Other errors pass unchanged.
 */
export function whileReading<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isSqliteDamage(error)) throw journalDamaged(path, [sqliteFinding(error)], error);
    throw error;
  }
}

/** A SQLite error as one finding of a damage report. */
export function sqliteFinding(error: unknown): string {
  return error instanceof Error ? `SQLite: ${error.message}` : String(error);
}

/**
 * SQLite's check of every page of the journal (`PRAGMA quick_check`: b-tree structure, page
 * accounting, records that fit their pages, NOT NULL; not whether indexes match their table,
 * which is why the journal reads orders by table scan, never through an index). Its findings,
 * empty when the file is sound.
 */
export function journalPageProblems(db: Database.Database): string[] {
  const rows = db.pragma('quick_check') as { quick_check: string }[];
  const findings = rows.map((row) => row.quick_check);
  return findings.length === 1 && findings[0] === 'ok' ? [] : findings.map((f) => `SQLite: ${f}`);
}
