import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { OrderSide, OrderState, OrderType } from '../domain/index.ts';
import { makeJournalFilesPrivate } from './journal-file-mode.ts';
import type { OrderRecord } from './order-record.ts';

/** What is known about an order before its first send. */
export type NewOrder = Pick<
  OrderRecord,
  | 'strategy'
  | 'tag'
  | 'marketId'
  | 'symbol'
  | 'side'
  | 'type'
  | 'amountX18'
  | 'priceX18'
  | 'reduceOnly'
  | 'body'
  | 'signature'
  | 'signer'
  | 'expiryTs'
  | 'referencePriceX18'
>;

/** An update after a venue answer. */
export interface OrderOutcome {
  readonly state: OrderState;
  readonly venueOrderId?: number | null;
  readonly filledX18?: bigint;
  readonly avgFillPriceX18?: bigint | null;
  readonly fillPriceEstimated?: boolean;
  /** Fees charged for the order's fills so far (cumulative), as booked when they happened. */
  readonly feesX18?: bigint;
  readonly error?: string | null;
}

interface Row {
  id: number;
  strategy: string;
  tag: string | null;
  market_id: number;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  amount_x18: string;
  price_x18: string;
  reduce_only: number;
  body: string;
  signature: string;
  signer: string;
  expiry_ts: number;
  reference_price_x18: string | null;
  state: OrderState;
  venue_order_id: number | null;
  filled_x18: string;
  avg_fill_price_x18: string | null;
  fill_price_estimated: number;
  fees_x18: string | null;
  attempts: number;
  created_at: number;
  updated_at: number;
  error: string | null;
}

const SCHEMA = `
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
  fees_x18 TEXT,
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

function toRecord(row: Row): OrderRecord {
  return {
    id: row.id,
    strategy: row.strategy,
    tag: row.tag,
    marketId: row.market_id,
    symbol: row.symbol,
    side: row.side,
    type: row.type,
    amountX18: BigInt(row.amount_x18),
    priceX18: BigInt(row.price_x18),
    reduceOnly: row.reduce_only === 1,
    body: row.body,
    signature: row.signature,
    signer: row.signer,
    expiryTs: row.expiry_ts,
    referencePriceX18: row.reference_price_x18 === null ? null : BigInt(row.reference_price_x18),
    state: row.state,
    venueOrderId: row.venue_order_id,
    filledX18: BigInt(row.filled_x18),
    avgFillPriceX18: row.avg_fill_price_x18 === null ? null : BigInt(row.avg_fill_price_x18),
    fillPriceEstimated: row.fill_price_estimated === 1,
    feesX18: row.fees_x18 === null ? null : BigInt(row.fees_x18),
    attempts: row.attempts,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    error: row.error,
  };
}

/**
 * The order journal: one SQLite row per order, committed (WAL, synchronous FULL) **before** the
 * first send, so a crash never leaves an order the bot does not know it may have sent.
 * `":memory:"` gives a throwaway journal (backtests).
 */
export class OrderJournal {
  readonly #db: Database.Database;
  // Prepared once: the executor writes a row per order and per attempt.
  readonly #insert: Database.Statement;
  readonly #attempt: Database.Statement;
  readonly #outcome: Database.Statement;
  readonly #byId: Database.Statement;

  private constructor(db: Database.Database) {
    this.#db = db;
    this.#insert = db.prepare(
      `INSERT INTO orders (strategy, tag, market_id, symbol, side, type, amount_x18, price_x18,
         reduce_only, body, signature, signer, expiry_ts, reference_price_x18, state, fees_x18,
         created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', '0', ?, ?)`,
    );
    this.#attempt = db.prepare(
      `UPDATE orders SET attempts = attempts + 1, updated_at = ?,
         state = CASE WHEN state = 'PENDING' THEN 'SENT' ELSE state END WHERE id = ?`,
    );
    this.#outcome = db.prepare(
      `UPDATE orders SET state = ?, venue_order_id = ?, filled_x18 = ?, avg_fill_price_x18 = ?,
         fill_price_estimated = ?, fees_x18 = ?, error = ?, updated_at = ? WHERE id = ?`,
    );
    this.#byId = db.prepare('SELECT * FROM orders WHERE id = ?');
  }

  /**
   * Opens (creating if needed) the journal at `path`.
   * @throws QuantaError `QUANTA_JOURNAL` when the file cannot be opened (locked, unwritable).
   */
  static open(path: string): OrderJournal {
    try {
      if (path !== ':memory:') {
        mkdirSync(dirname(path), { recursive: true });
        makeJournalFilesPrivate(path);
      }
      const db = new Database(path, { timeout: 5000 });
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.exec(SCHEMA);
      addFeesColumn(db);
      return new OrderJournal(db);
    } catch (cause) {
      throw new QuantaError(ErrorCodes.JOURNAL, `cannot open the order journal at ${path}`, {
        cause,
        details: ['Check that state.dir is writable and no other bot uses the same state dir.'],
      });
    }
  }

  /** Writes a new order in state PENDING and returns its record (committed on return). */
  insertPending(order: NewOrder, now: number): OrderRecord {
    const result = this.#insert.run(
      order.strategy,
      order.tag,
      order.marketId,
      order.symbol,
      order.side,
      order.type,
      order.amountX18.toString(),
      order.priceX18.toString(),
      order.reduceOnly ? 1 : 0,
      order.body,
      order.signature,
      order.signer,
      order.expiryTs,
      order.referencePriceX18?.toString() ?? null,
      now,
      now,
    );
    return this.get(Number(result.lastInsertRowid));
  }

  /** Counts one send attempt and moves PENDING to SENT. */
  markAttempt(id: number, now: number): void {
    this.#attempt.run(now, id);
  }

  /** Records what the venue (or recovery) decided. */
  recordOutcome(id: number, outcome: OrderOutcome, now: number): OrderRecord {
    const current = this.get(id);
    this.#outcome.run(
      outcome.state,
      outcome.venueOrderId === undefined ? current.venueOrderId : outcome.venueOrderId,
      (outcome.filledX18 ?? current.filledX18).toString(),
      outcome.avgFillPriceX18 === undefined
        ? (current.avgFillPriceX18?.toString() ?? null)
        : (outcome.avgFillPriceX18?.toString() ?? null),
      (outcome.fillPriceEstimated ?? current.fillPriceEstimated) ? 1 : 0,
      (outcome.feesX18 ?? current.feesX18)?.toString() ?? null,
      outcome.error === undefined ? current.error : outcome.error,
      now,
      id,
    );
    return this.get(id);
  }

  /** One order by id. @throws QuantaError `QUANTA_JOURNAL` when there is no such row. */
  get(id: number): OrderRecord {
    const row = this.#byId.get(id) as Row | undefined;
    if (row === undefined)
      throw new QuantaError(ErrorCodes.JOURNAL, `order ${id} is not in the journal`);
    return toRecord(row);
  }

  /** Orders in the given states, oldest first. */
  inStates(states: readonly OrderState[]): OrderRecord[] {
    const marks = states.map(() => '?').join(', ');
    const rows = this.#db
      .prepare(`SELECT * FROM orders WHERE state IN (${marks}) ORDER BY id`)
      .all(...states) as Row[];
    return rows.map(toRecord);
  }

  /** Every order, oldest first. */
  all(): OrderRecord[] {
    return (this.#db.prepare('SELECT * FROM orders ORDER BY id').all() as Row[]).map(toRecord);
  }

  /** Reads a value of a strategy's persisted key-value store. */
  kvGet(scope: string, key: string): string | undefined {
    const row = this.#db
      .prepare('SELECT value FROM kv WHERE scope = ? AND key = ?')
      .get(scope, key) as { value: string } | undefined;
    return row?.value;
  }

  /** Writes a value of a strategy's persisted key-value store (committed on return). */
  kvSet(scope: string, key: string, value: string): void {
    this.#db
      .prepare(
        'INSERT INTO kv (scope, key, value) VALUES (?, ?, ?) ON CONFLICT(scope, key) DO UPDATE SET value = excluded.value',
      )
      .run(scope, key, value);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}

// Journals written before fees were recorded per order lack the column; their rows read NULL
// ("not recorded"), which recovery prices at the taker rate rather than as free.
function addFeesColumn(db: Database.Database): void {
  const columns = db.prepare('PRAGMA table_info(orders)').all() as { name: string }[];
  if (!columns.some((column) => column.name === 'fees_x18'))
    db.exec('ALTER TABLE orders ADD COLUMN fees_x18 TEXT');
}
