/**
 * Journal schema versions: a journal written before versions existed opens, is migrated, and
 * its rows read back; a journal of schema 3 (before per-row checksums) is migrated, each row
 * checked before it is sealed with a checksum; a journal of a newer quanta is refused untouched.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { JOURNAL_SCHEMA_VERSION } from '../../../src/execution/journal-schema.ts';
import { writeJournal } from '../../helpers/journal-orders.ts';

// The schema exactly as the journal created it before it carried a version (commit de198dc),
// copied here on purpose: the test must keep opening such files whatever the code becomes.
const UNVERSIONED_SCHEMA = `
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

const X18 = 10n ** 18n;

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function journalPath(): string {
  dir = mkdtempSync(join(tmpdir(), 'quanta-journal-schema-'));
  return join(dir, 'journal.sqlite');
}

/** Writes a journal as the unversioned code did: its schema, one resting order, one kv pair. */
function writeUnversionedJournal(path: string, options: { withFeesColumn: boolean }): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(UNVERSIONED_SCHEMA);
  if (options.withFeesColumn) db.exec('ALTER TABLE orders ADD COLUMN fees_x18 TEXT');
  db.prepare(
    `INSERT INTO orders (strategy, tag, market_id, symbol, side, type, amount_x18, price_x18,
       reduce_only, body, signature, signer, expiry_ts, reference_price_x18, state, venue_order_id,
       filled_x18, avg_fill_price_x18, fill_price_estimated, attempts, created_at, updated_at, error)
     VALUES ('mm', 'bid', 1, 'ETH-USD', 'BUY', 'LIMIT', ?, ?, 0, '{"marketId":1}', '0xsig', '0xsigner',
       5000, ?, 'PARTIAL', 42, ?, ?, 0, 1, 1000, 1001, NULL)`,
  ).run(
    (2n * X18).toString(),
    (3000n * X18).toString(),
    (3001n * X18).toString(),
    X18.toString(),
    (3000n * X18).toString(),
  );
  if (options.withFeesColumn) db.exec(`UPDATE orders SET fees_x18 = '1500000000000000000'`);
  db.prepare('INSERT INTO kv (scope, key, value) VALUES (?, ?, ?)').run('mm', 'k', 'v');
  db.close();
}

function userVersion(path: string): number {
  const db = new Database(path, { readonly: true });
  const version = db.pragma('user_version', { simple: true }) as number;
  db.close();
  return version;
}

describe('journal schema version', () => {
  it('is stamped on a new journal', () => {
    const path = journalPath();
    OrderJournal.open(path).close();
    expect(JOURNAL_SCHEMA_VERSION).toBe(5);
    expect(userVersion(path)).toBe(JOURNAL_SCHEMA_VERSION);
  });

  it('migrates a journal written before versions: its row reads back, renamed state and all', () => {
    const path = journalPath();
    writeUnversionedJournal(path, { withFeesColumn: false });
    expect(userVersion(path)).toBe(0);

    const journal = OrderJournal.open(path);
    expect(userVersion(path)).toBe(JOURNAL_SCHEMA_VERSION);
    expect(journal.all()).toEqual([
      {
        id: 1,
        strategy: 'mm',
        tag: 'bid',
        marketId: 1,
        symbol: 'ETH-USD',
        side: 'BUY',
        type: 'LIMIT',
        amountX18: 2n * X18,
        priceX18: 3000n * X18,
        reduceOnly: false,
        body: '{"marketId":1}',
        signature: '0xsig',
        signer: '0xsigner',
        expiryTs: 5000,
        referencePriceX18: 3001n * X18,
        state: 'PARTIALLY_FILLED',
        venueOrderId: 42,
        filledX18: X18,
        avgFillPriceX18: 3000n * X18,
        fillPriceEstimated: false,
        feesX18: null, // not recorded then: recovery estimates it
        attempts: 1,
        createdAt: 1000,
        updatedAt: 1001,
        error: null,
      },
    ]);
    expect(journal.kvGet('mm', 'k')).toBe('v');
    // And it goes on living under the state machine.
    expect(
      journal.recordOutcome(1, { event: 'filled', filledX18: 2n * X18, feesX18: 3n }, 2000),
    ).toMatchObject({ state: 'FILLED', feesX18: 3n });
    journal.close();

    // Reopening a migrated journal changes nothing.
    const again = OrderJournal.open(path);
    expect(again.get(1)).toMatchObject({ state: 'FILLED', feesX18: 3n, updatedAt: 2000 });
    again.close();
    expect(userVersion(path)).toBe(JOURNAL_SCHEMA_VERSION);
  });

  it('migrates an unversioned journal that already records fees, keeping them', () => {
    const path = journalPath();
    writeUnversionedJournal(path, { withFeesColumn: true });
    const journal = OrderJournal.open(path);
    expect(journal.get(1)).toMatchObject({ state: 'PARTIALLY_FILLED', feesX18: 15n * 10n ** 17n });
    journal.close();
  });

  it('refuses a journal of a newer quanta, leaving it as it was', () => {
    const path = journalPath();
    OrderJournal.open(path).close();
    const db = new Database(path);
    db.pragma(`user_version = ${JOURNAL_SCHEMA_VERSION + 1}`);
    db.close();

    let error: unknown;
    try {
      OrderJournal.open(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QuantaError);
    expect(error).toMatchObject({
      code: ErrorCodes.JOURNAL,
      shortMessage: `the order journal has schema version ${JOURNAL_SCHEMA_VERSION + 1}; this quanta reads up to ${JOURNAL_SCHEMA_VERSION}`,
    });
    expect(userVersion(path)).toBe(JOURNAL_SCHEMA_VERSION + 1);
  });

  it('migrates a schema-3 journal (no checksums): every row reads back, and is checked from then on', () => {
    const path = journalPath();
    writeJournal(path, 3);
    const before = OrderJournal.openReadOnly(path);
    const written = before.all();
    before.close();
    writeSchema3(path);
    expect(userVersion(path)).toBe(3);

    // Read-only (quanta status) does not migrate: it says what to do.
    expect(() => OrderJournal.openReadOnly(path)).toThrow(
      `the journal at ${path} has schema version 3, this quanta reads ${JOURNAL_SCHEMA_VERSION}`,
    );
    const journal = OrderJournal.open(path, { bootId: null });
    expect(journal.all()).toEqual(written);
    expect(journal.kvGet('quanta:risk', 'baseline')).toBe('{"day":"2026-11-23","equity":"1000"}');
    journal.close();
    expect(userVersion(path)).toBe(JOURNAL_SCHEMA_VERSION);

    // Sealed: a value changed after the migration is found.
    const db = new Database(path);
    db.prepare(`UPDATE orders SET strategy = 'dcb' WHERE id = 2`).run();
    db.close();
    const reopened = OrderJournal.open(path, { bootId: null });
    try {
      expect(() => reopened.get(2)).toThrow(
        expect.objectContaining({ code: ErrorCodes.JOURNAL_DAMAGED }),
      );
    } finally {
      reopened.close();
    }
  });

  it('refuses to migrate a schema-3 journal with a damaged row, instead of sealing it as good', () => {
    const path = journalPath();
    writeJournal(path, 3);
    writeSchema3(path);
    const db = new Database(path);
    db.prepare(`UPDATE orders SET amount_x18 = 'kjkbjjjjjjjjjjjj' WHERE id = 2`).run();
    db.close();

    let error: unknown;
    try {
      OrderJournal.open(path, { bootId: null });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: ErrorCodes.JOURNAL_DAMAGED });
    expect((error as Error).message).toContain('order 2');
    expect((error as Error).message).toContain('amount_x18');
    // Nothing was migrated: the journal is as it was, for `quanta journal salvage`.
    expect(userVersion(path)).toBe(3);
  });
});

/** Turns a current journal into the schema-3 layout exactly (no row_sum columns, version 3). */
function writeSchema3(path: string): void {
  const db = new Database(path);
  db.exec('ALTER TABLE orders DROP COLUMN row_sum');
  db.exec('ALTER TABLE kv DROP COLUMN row_sum');
  db.pragma('user_version = 3');
  db.close();
}
