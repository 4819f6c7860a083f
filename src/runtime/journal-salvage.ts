import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { makeJournalFilesPrivate } from '../execution/journal-file-mode.ts';
import { inspectJournal, type JournalContents } from './journal-inspect.ts';
import { kvRowSum, ORDER_COLUMNS, orderRowSum } from '../execution/journal-row-sum.ts';
import { migrateJournal } from '../execution/journal-schema.ts';

/**
 * Copies every readable, valid row of the journal at `from` into a new journal at `to` (the
 * current schema, ids kept) and returns what was read, so the caller can list what was lost.
 * The original is opened read-only and never written.
 *
 * @throws QuantaError `QUANTA_USAGE` when `to` exists (a salvage never overwrites anything);
 *   `QUANTA_JOURNAL` when `from` cannot be opened at all.
 */
export function salvageJournal(from: string, to: string): JournalContents {
  if (existsSync(to))
    throw new QuantaError(ErrorCodes.USAGE, `${to} exists: salvage writes a new file only`, {
      details: ['Name a file that does not exist yet with --out.'],
    });
  const contents = inspectJournal(from);
  makeJournalFilesPrivate(to);
  const db = new Database(to);
  try {
    db.pragma('journal_mode = WAL');
    migrateJournal(db);
    const insertOrder = db.prepare(
      `INSERT INTO orders (${ORDER_COLUMNS.join(', ')}, row_sum) VALUES (${ORDER_COLUMNS.map(() => '?').join(', ')}, ?)`,
    );
    const insertKv = db.prepare('INSERT INTO kv (scope, key, value, row_sum) VALUES (?, ?, ?, ?)');
    db.transaction(() => {
      // The values as read (each checked), summed afresh: a journal older than checksums has none.
      for (const row of contents.orders)
        insertOrder.run(...ORDER_COLUMNS.map((column) => row[column] ?? null), orderRowSum(row));
      for (const row of contents.kv)
        insertKv.run(row.scope, row.key, row.value, kvRowSum(row.scope, row.key, row.value));
    })();
  } finally {
    db.close();
  }
  return contents;
}
