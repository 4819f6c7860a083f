/**
 * What a journal file tells of the run that wrote it, read when it opens: whether it lacks
 * commits its mark counts (a WAL deleted or cut after a crash, an older copy: journal-mark.ts),
 * and which rows a crash left PENDING with their first attempt counted (sent or not, told apart
 * by the machine's boot id).
 */
import type Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { INITIAL_ORDER_STATE, transition } from '../domain/index.ts';
import type { QuantaError } from '../errors/index.ts';
import { journalDamaged } from './journal-damage.ts';
import {
  countProblems,
  markPathOf,
  readJournalMark,
  walProblems,
  type JournalMark,
} from './journal-mark.ts';
import {
  changingOrderValues,
  describeRowProblem,
  fixedOrderValues,
  isRowProblem,
  readOrderRow,
  type RawOrderRow,
} from './journal-row.ts';
import { fixedPartSum, kvRowSum, orderSum } from './journal-row-sum.ts';
import { BOOT_SCOPE, KV_SET, KV_WRITES } from './sqlite-journal-kv.ts';

/**
 * What the journal holds of what its mark counts: its highest order id and its count of
 * stored-value writes (0 for a file without the tables yet: an empty or new file).
 */
export function heldCounts(db: Database.Database): { orders: number; kvWrites: number } {
  const tables = new Set(
    (
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]
    ).map((row) => row.name),
  );
  const orders = tables.has('orders')
    ? ((db.prepare('SELECT MAX(id) AS id FROM orders').get() as { id: number | null }).id ?? 0)
    : 0;
  const stored = tables.has('kv')
    ? (db
        .prepare('SELECT value FROM kv NOT INDEXED WHERE scope = ? AND key = ?')
        .get(BOOT_SCOPE, KV_WRITES) as { value: unknown } | undefined)
    : undefined;
  const kvWrites =
    stored === undefined ? 0 : typeof stored.value === 'string' ? Number(stored.value) : NaN;
  // (A count that is no count reads as none: its row_sum check refuses it at its next read.)
  return { orders, kvWrites: Number.isSafeInteger(kvWrites) ? kvWrites : 0 };
}

/**
 * The mark of the journal at `path`, checked against its WAL before SQLite opens the file;
 * undefined when it has none.
 * @throws QuantaError `QUANTA_JOURNAL_DAMAGED` for a mark that does not parse, or a journal left
 *   open by a writer that died whose WAL is missing or shorter than it was.
 */
export function checkedMark(path: string, markFile: string): JournalMark | undefined {
  const mark = readJournalMark(markFile);
  if (typeof mark === 'string') throw journalCut(path, markFile, [mark]);
  if (mark === undefined) return undefined;
  const problems = walProblems(mark, `${path}-wal`);
  if (problems.length > 0) throw journalCut(path, markFile, problems);
  return mark;
}

/** @throws QuantaError `QUANTA_JOURNAL_DAMAGED` when `db` holds less than `mark` counts. */
export function checkCounts(db: Database.Database, path: string, mark: JournalMark): void {
  const problems = countProblems(mark, heldCounts(db));
  if (problems.length > 0) throw journalCut(path, markPathOf(path), problems);
}

/** A journal that lacks what its mark says was committed (journal-mark.ts). */
function journalCut(path: string, markFile: string, problems: readonly string[]): QuantaError {
  return journalDamaged(path, problems, undefined, [
    `If you restored or salvaged this journal on purpose, delete ${markFile} so the bot takes it as it is; then check the venue for orders the journal does not show.`,
  ]);
}

/** The kernel's id of this boot (Linux); null where it cannot be read. */
export function currentBootId(): string | null {
  try {
    const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return id === '' ? null : id;
  } catch {
    return null;
  }
}

/**
 * Settles the rows a crash left PENDING with their first attempt counted, in one transaction,
 * before the journal is read into memory. If the machine has not restarted since the run that
 * wrote them (same boot id), every write of that run is in the file, including the SENT written
 * before each attempt left: those rows were never sent, and get their attempt back. After a
 * restart (a power loss or an OS crash may have taken back that SENT), or where the boot id
 * cannot be read, they may have been sent and become SENT, for good: a later run on the same
 * boot cannot mistake them for unsent ones. Each row is checked before it is rewritten (with
 * its new checksum).
 */
export function settleUncountedAttempts(
  db: Database.Database,
  path: string,
  bootId: string | null,
): void {
  db.transaction(() => {
    const stored = db
      .prepare('SELECT value FROM kv WHERE scope = ? AND key = ?')
      .get(BOOT_SCOPE, 'bootId') as { value: unknown } | undefined;
    const sameBoot = bootId !== null && stored?.value === bootId;
    const pending = INITIAL_ORDER_STATE;
    const rows = db
      .prepare('SELECT * FROM orders NOT INDEXED WHERE state = ? AND attempts > 0')
      .all(pending) as RawOrderRow[];
    const update = db.prepare(
      'UPDATE orders SET state = ?, attempts = ?, row_sum = ? WHERE id = ?',
    );
    for (const row of rows) {
      const record = readOrderRow(row);
      if (isRowProblem(record)) throw journalDamaged(path, [describeRowProblem(record)]);
      // Same boot: never sent, the attempt given back; else it may have left: SENT, for good.
      const settled = sameBoot ? record : { ...record, state: transition(pending, 'sent') };
      const attempts = sameBoot ? 0 : record.attempts;
      const sum = orderSum(
        fixedPartSum(fixedOrderValues(settled)),
        changingOrderValues(settled, attempts),
      );
      update.run(settled.state, attempts, sum, record.id);
    }
    if (!sameBoot && bootId !== null)
      db.prepare(KV_SET).run(BOOT_SCOPE, 'bootId', bootId, kvRowSum(BOOT_SCOPE, 'bootId', bootId));
  })();
}
