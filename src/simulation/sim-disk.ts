import type { OrderJournal } from '../execution/journal.ts';
import type { DiskFault } from './fault-plan.ts';

/** The journal's methods that write its file. */
const WRITES: ReadonlySet<PropertyKey> = new Set([
  'insertPending',
  'insertPendingMany',
  'markAttempt',
  'recordOutcome',
  'releaseUnsentAttempt',
  'exitSet',
  'exitDelete',
  'kvSet',
]);

/** SQLite's error for a write the disk refused, as better-sqlite3 throws it. */
function sqliteWriteError(kind: DiskFault['kind']): Error {
  const [code, message] =
    kind === 'full'
      ? ['SQLITE_FULL', 'database or disk is full']
      : ['SQLITE_READONLY', 'attempt to write a readonly database'];
  return Object.assign(new Error(message), { name: 'SqliteError', code });
}

/**
 * The journal the simulated bot is given: every write throws SQLite's error for a full disk or
 * a read-only file while `failing()` says so. The seam is the journal object, not SQLite's file
 * layer (better-sqlite3 gives no injectable VFS, and the process runs as root in CI, where a
 * read-only mode does not stop a write): each write method of `OrderJournal` writes its row
 * before it changes anything in memory, so a refused write leaves the journal as SQLite's error
 * would, except `lastWriteError` (read only by readiness, which the simulated bot has not).
 * `wrote` is told each write that succeeded, with what it returned (a crash may come right after
 * it: it may throw).
 */
export function journalWithDiskFaults(
  journal: OrderJournal,
  failing: () => DiskFault | undefined,
  refused: (method: string) => void,
  wrote: (method: string, result: unknown) => void,
): OrderJournal {
  // One function per method, made at its first use: the bot reads the journal's methods on
  // every order and poll, and a new bound function (and a wrapper) per read was a steady
  // stream of garbage. The methods of an OrderJournal never change, so a kept one is the same.
  const methods = new Map<PropertyKey, unknown>();
  return new Proxy(journal, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const known = methods.get(property);
      if (known !== undefined) return known;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      const made = !WRITES.has(property)
        ? method
        : (...args: unknown[]): unknown => {
            const fault = failing();
            if (fault !== undefined) {
              refused(String(property));
              throw sqliteWriteError(fault.kind);
            }
            const result = method(...args);
            wrote(String(property), result);
            return result;
          };
      methods.set(property, made);
      return made;
    },
  });
}

/** The SQLite code of a write the disk refused, in `error` or its causes; else undefined. */
export function diskErrorOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === 'SQLITE_READONLY') return code;
    e = e.cause;
  }
  return undefined;
}
