import type Database from 'better-sqlite3';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { journalDamaged } from './journal-damage.ts';
import { describeRowProblem, isRowProblem, readOrderRow, type RawOrderRow } from './journal-row.ts';
import { kvRowSum, orderRowSum } from './journal-row-sum.ts';

/** One step of the journal's schema history: brings a journal from version `n - 1` to `n`. */
interface Migration {
  /** What the step changes, for the error message when it fails. */
  readonly what: string;
  readonly apply: (db: Database.Database) => void;
}

// Version 1 is the schema journals had before they carried a version (user_version 0). Its
// statements are IF NOT EXISTS, so an unversioned journal passes through it unchanged and a new
// file gets its tables; later steps then apply to both alike.
const BASELINE = `
CREATE TABLE IF NOT EXISTS orders (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  strategy TEXT NOT NULL,
  tag TEXT,
  market_id INTEGER NOT NULL,
  symbol TEXT NOT NULL,
  side TEXT NOT NULL,
  type TEXT NOT NULL,
  amount_x18 TEXT NOT NULL,
  price_x18 TEXT NOT NULL,
  reduce_only INTEGER NOT NULL,
  body TEXT NOT NULL,
  signature TEXT NOT NULL UNIQUE,
  signer TEXT NOT NULL,
  expiry_ts INTEGER NOT NULL,
  reference_price_x18 TEXT,
  state TEXT NOT NULL,
  venue_order_id INTEGER,
  filled_x18 TEXT NOT NULL DEFAULT '0',
  avg_fill_price_x18 TEXT,
  fill_price_estimated INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  error TEXT
);
CREATE INDEX IF NOT EXISTS orders_state ON orders(state);
CREATE TABLE IF NOT EXISTS kv (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (scope, key)
);
`;

/** The schema history, oldest first: `MIGRATIONS[n - 1]` makes version `n`. Append only. */
const MIGRATIONS: readonly Migration[] = [
  { what: 'create the orders and kv tables', apply: (db) => db.exec(BASELINE) },
  {
    what: 'record each order’s fees (fees_x18)',
    apply: (db) => {
      // Unversioned journals of the release that introduced the column already have it. Rows
      // written before read NULL ("not recorded"): recovery prices them at the taker rate.
      const columns = db.prepare('PRAGMA table_info(orders)').all() as { name: string }[];
      if (!columns.some((column) => column.name === 'fees_x18'))
        db.exec('ALTER TABLE orders ADD COLUMN fees_x18 TEXT');
    },
  },
  {
    what: 'name order states as the state machine does (PARTIAL becomes PARTIALLY_FILLED)',
    // A rename of the stored word, not a transition: every order keeps the state it had.
    apply: (db) => db.exec(`UPDATE orders SET state = 'PARTIALLY_FILLED' WHERE state = 'PARTIAL'`),
  },
  {
    what: 'give every row a checksum (row_sum)',
    // The journal's pages were checked before migrating (SQLite's page check); each order row
    // is checked here before it is summed, so a row damaged before this step is refused, not
    // sealed as if it were good. Table scans, not the indexes, which quick_check does not verify.
    apply: (db) => {
      const orders = db.prepare('SELECT * FROM orders NOT INDEXED').all() as RawOrderRow[];
      for (const row of orders) {
        const read = readOrderRow(row);
        if (isRowProblem(read)) throw journalDamaged(db.name, [describeRowProblem(read)]);
      }
      db.exec('ALTER TABLE orders ADD COLUMN row_sum TEXT');
      db.exec('ALTER TABLE kv ADD COLUMN row_sum TEXT');
      const setOrder = db.prepare('UPDATE orders SET row_sum = ? WHERE id = ?');
      for (const row of orders) setOrder.run(orderRowSum(row), row['id']);
      const setKv = db.prepare('UPDATE kv SET row_sum = ? WHERE rowid = ?');
      const kv = db.prepare('SELECT rowid, scope, key, value FROM kv NOT INDEXED').all() as {
        rowid: number;
        scope: unknown;
        key: unknown;
        value: unknown;
      }[];
      for (const row of kv) setKv.run(kvRowSum(row.scope, row.key, row.value), row.rowid);
    },
  },
  {
    what: 'keep protective exits per strategy and market (exits)',
    apply: (db) =>
      db.exec(`CREATE TABLE IF NOT EXISTS exits (
        strategy TEXT NOT NULL,
        market_id INTEGER NOT NULL,
        state TEXT NOT NULL,
        row_sum TEXT NOT NULL,
        PRIMARY KEY (strategy, market_id)
      )`),
  },
];

/** The schema version this code writes (SQLite `PRAGMA user_version`). */
export const JOURNAL_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the journal's schema up to {@link JOURNAL_SCHEMA_VERSION}, one step per version, each
 * step and its new version number committed together (a crash mid-way leaves a journal that
 * the next start migrates from where it stopped). A new file is created at the latest version;
 * a journal written before versions existed (user_version 0) is migrated like any other.
 *
 * @throws QuantaError `QUANTA_JOURNAL` when the journal was written by a newer quanta (its
 *   version is unknown here: opening it could lose what that version records), or a step fails.
 */
export function migrateJournal(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > JOURNAL_SCHEMA_VERSION) {
    throw new QuantaError(
      ErrorCodes.JOURNAL,
      `the order journal has schema version ${version}; this quanta reads up to ${JOURNAL_SCHEMA_VERSION}`,
      {
        details: ['It was written by a newer quanta: run that version, or use another state.dir.'],
      },
    );
  }
  for (let next = version + 1; next <= JOURNAL_SCHEMA_VERSION; next += 1) {
    const migration = MIGRATIONS[next - 1];
    if (migration === undefined) break;
    try {
      db.transaction(() => {
        migration.apply(db);
        db.pragma(`user_version = ${next}`);
      })();
    } catch (cause) {
      // A damaged row found on the way is what the operator must hear about, as such.
      if (cause instanceof QuantaError && cause.code === ErrorCodes.JOURNAL_DAMAGED) throw cause;
      throw new QuantaError(
        ErrorCodes.JOURNAL,
        `cannot migrate the order journal to version ${next} (${migration.what})`,
        { cause },
      );
    }
  }
}
