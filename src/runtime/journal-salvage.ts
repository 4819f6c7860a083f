import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { makeJournalFilesPrivate } from '../execution/journal-file-mode.ts';
import { inspectJournal, type JournalContents } from './journal-inspect.ts';
import { migrateJournal } from '../execution/journal-schema.ts';

/** The `orders` columns a salvaged row carries over, as the current schema names them. */
const ORDER_COLUMNS = [
  'id',
  'strategy',
  'tag',
  'market_id',
  'symbol',
  'side',
  'type',
  'amount_x18',
  'price_x18',
  'reduce_only',
  'body',
  'signature',
  'signer',
  'expiry_ts',
  'reference_price_x18',
  'state',
  'venue_order_id',
  'filled_x18',
  'avg_fill_price_x18',
  'fill_price_estimated',
  'fees_x18',
  'attempts',
  'created_at',
  'updated_at',
  'error',
] as const;

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
      `INSERT INTO orders (${ORDER_COLUMNS.join(', ')}) VALUES (${ORDER_COLUMNS.map(() => '?').join(', ')})`,
    );
    const insertKv = db.prepare('INSERT INTO kv (scope, key, value) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (const row of contents.orders)
        insertOrder.run(...ORDER_COLUMNS.map((column) => row[column] ?? null));
      for (const row of contents.kv) insertKv.run(row.scope, row.key, row.value);
    })();
  } finally {
    db.close();
  }
  return contents;
}
