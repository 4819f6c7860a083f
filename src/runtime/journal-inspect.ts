import Database from 'better-sqlite3';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { sqliteFinding } from '../execution/journal-damage.ts';
import { kvRowSum } from '../execution/journal-row-sum.ts';
import {
  describeRowProblem,
  isRowProblem,
  readOrderRow,
  type RawOrderRow,
} from '../execution/journal-row.ts';

/** One `kv` row as read (scope, key, value: text all three in a sound journal). */
export interface RawKvRow {
  readonly scope: unknown;
  readonly key: unknown;
  readonly value: unknown;
}

/** What could be read out of a journal, and what could not. */
export interface JournalContents {
  /** Rows whose every value is one quanta writes, in id order. */
  readonly orders: readonly RawOrderRow[];
  readonly kv: readonly RawKvRow[];
  /** SQLite's page check (`PRAGMA integrity_check`): empty when the pages are sound. */
  readonly pageProblems: readonly string[];
  /** Rows that were read and hold a value no quanta writes, or could not be read at all. */
  readonly rowProblems: readonly string[];
  /** The ids of orders the journal once held that are not among `orders`. */
  readonly lostOrderIds: readonly number[];
  /** `PRAGMA user_version`, or null when it cannot be read. */
  readonly schemaVersion: number | null;
}

/** How far past the last id read an unreadable table is probed for rows, one id at a time. */
const PROBE_BEYOND = 1000;

/**
 * Reads everything that can be read from the journal at `path`, read-only (the file and its WAL
 * are never written; safe beside a running bot), and says what cannot: SQLite's full page check,
 * every row checked as the journal checks it when it reads, and the ids of orders that existed
 * (AUTOINCREMENT ids run from 1 without gaps: the journal never deletes) but cannot be read.
 * A scan that stops at a damaged page goes on one id at a time past it.
 *
 * @throws QuantaError `QUANTA_JOURNAL` when there is no file at `path`, or SQLite cannot open
 *   it at all.
 */
export function inspectJournal(path: string): JournalContents {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (cause) {
    throw new QuantaError(ErrorCodes.JOURNAL, `cannot open ${path} as an order journal`, {
      cause,
    });
  }
  try {
    const pageProblems = attempt(() => {
      const rows = db.pragma('integrity_check(1000)') as { integrity_check: string }[];
      const findings = rows.map((row) => row.integrity_check);
      return findings.length === 1 && findings[0] === 'ok'
        ? []
        : findings.map((f) => `SQLite: ${f}`);
    });
    const rowProblems: string[] = [];
    const read = readAllOrders(db, rowProblems);
    const orders: RawOrderRow[] = [];
    for (const row of read.rows) {
      const record = readOrderRow(row);
      if (isRowProblem(record)) rowProblems.push(describeRowProblem(record));
      else orders.push(row);
    }
    const kv = readKv(db, rowProblems);
    const kept = new Set(orders.map((row) => row['id'] as number));
    const lostOrderIds: number[] = [];
    for (let id = 1; id <= read.lastId; id += 1) if (!kept.has(id)) lostOrderIds.push(id);
    const version = attempt(() => db.pragma('user_version', { simple: true }) as number);
    return {
      orders,
      kv,
      pageProblems: Array.isArray(pageProblems) ? pageProblems : [pageProblems.failed],
      rowProblems,
      lostOrderIds,
      schemaVersion: typeof version === 'number' ? version : null,
    };
  } finally {
    db.close();
  }
}

/** True when the journal read holds nothing wrong: what `quanta journal check` decides. */
export function isSound(contents: JournalContents): boolean {
  return (
    contents.pageProblems.length === 0 &&
    contents.rowProblems.length === 0 &&
    contents.lostOrderIds.length === 0
  );
}

function attempt<T>(run: () => T): T | { failed: string } {
  try {
    return run();
  } catch (error) {
    return { failed: sqliteFinding(error) };
  }
}

/** Every row the table gives, by scan and then id by id past a page that stops the scan. */
function readAllOrders(
  db: Database.Database,
  problems: string[],
): { rows: RawOrderRow[]; lastId: number } {
  const rows: RawOrderRow[] = [];
  let lastId = 0;
  try {
    for (const row of db.prepare('SELECT * FROM orders NOT INDEXED ORDER BY id').iterate()) {
      const raw = row as RawOrderRow;
      rows.push(raw);
      if (typeof raw['id'] === 'number') lastId = Math.max(lastId, raw['id']);
    }
    const sequence = attempt(() => readSequence(db));
    return { rows, lastId: Math.max(lastId, typeof sequence === 'number' ? sequence : 0) };
  } catch (error) {
    problems.push(
      `the orders table stops being readable after order ${lastId}: ${sqliteFinding(error)}`,
    );
  }
  const sequence = attempt(() => readSequence(db));
  const known = typeof sequence === 'number' ? sequence : 0;
  const byId = db.prepare('SELECT * FROM orders WHERE id = ?');
  const seen = new Set(rows.map((row) => row['id']));
  for (let id = lastId + 1; id <= Math.max(known, lastId + PROBE_BEYOND); id += 1) {
    if (seen.has(id)) continue;
    const found = attempt(() => byId.get(id) as RawOrderRow | undefined);
    if (found !== undefined && !('failed' in found)) {
      rows.push(found);
      lastId = Math.max(lastId, id);
    }
  }
  return { rows, lastId: Math.max(lastId, known) };
}

/** The largest order id ever given (sqlite_sequence), 0 when none. */
function readSequence(db: Database.Database): number {
  const row = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'orders'").get() as
    { seq: unknown } | undefined;
  return typeof row?.seq === 'number' && Number.isSafeInteger(row.seq) ? row.seq : 0;
}

function readKv(db: Database.Database, problems: string[]): RawKvRow[] {
  const rows: RawKvRow[] = [];
  try {
    for (const row of db.prepare('SELECT * FROM kv NOT INDEXED').iterate()) {
      const kv = row as RawKvRow & { row_sum?: unknown };
      const text =
        typeof kv.scope === 'string' && typeof kv.key === 'string' && typeof kv.value === 'string';
      // (A journal older than checksums has no row_sum column.)
      const summed = !('row_sum' in kv) || kv.row_sum === kvRowSum(kv.scope, kv.key, kv.value);
      if (text && summed) rows.push({ scope: kv.scope, key: kv.key, value: kv.value });
      else
        problems.push(
          `the stored value ${JSON.stringify(`${String(kv.scope)}/${String(kv.key)}`)} is not text or does not match its checksum (row_sum)`,
        );
    }
  } catch (error) {
    problems.push(`the stored values (kv) stop being readable: ${sqliteFinding(error)}`);
  }
  return rows;
}

/** The schema version this quanta writes (what `journal check` compares against). */
export { JOURNAL_SCHEMA_VERSION } from '../execution/journal-schema.ts';
