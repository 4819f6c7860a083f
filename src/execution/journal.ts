import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  INITIAL_ORDER_STATE,
  IllegalOrderTransition,
  ORDER_STATES,
  transition,
  type OrderEvent,
  type OrderSide,
  type OrderState,
  type OrderType,
} from '../domain/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { makeJournalFilesPrivate } from './journal-file-mode.ts';
import { JOURNAL_SCHEMA_VERSION, migrateJournal } from './journal-schema.ts';
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

/** What an outcome may change besides the state; omitted fields keep their journaled value. */
export interface OrderOutcomeDetails {
  readonly venueOrderId?: number | null;
  readonly filledX18?: bigint;
  readonly avgFillPriceX18?: bigint | null;
  readonly fillPriceEstimated?: boolean;
  /** Fees charged for the order's fills so far (cumulative), as booked when they happened. */
  readonly feesX18?: bigint;
  readonly error?: string | null;
}

/**
 * An update after a venue answer (or a decision of recovery): what happened to the order, as an
 * event the state machine applies to the journaled state, or as the state the caller expects;
 * the journal then checks that the state machine leads there. Either way an illegal change is
 * refused and nothing is written.
 */
export type OrderOutcome = OrderOutcomeDetails &
  (
    | { readonly event: OrderEvent; readonly state?: never }
    | { readonly state: Exclude<OrderState, typeof INITIAL_ORDER_STATE>; readonly event?: never }
  );

// For outcomes that propose a state: the event that leads there. Every state but the initial one
// is the target of exactly one event, except UNKNOWN (also reached by `expired` from SENT, which
// a caller proposing UNKNOWN has already judged as "outcome unknown").
const EVENT_LEADING_TO: Readonly<Record<Exclude<OrderState, 'PENDING'>, OrderEvent>> = {
  SENT: 'sent',
  ACCEPTED: 'landed',
  OPEN: 'opened',
  PARTIALLY_FILLED: 'partiallyFilled',
  FILLED: 'filled',
  CANCELLED: 'cancelled',
  REJECTED: 'rejected',
  EXPIRED: 'expired',
  UNKNOWN: 'outcomeUnknown',
};

/** The state `outcome` moves an order in `current` to. @throws IllegalOrderTransition */
function nextState(current: OrderState, outcome: OrderOutcome): OrderState {
  if (outcome.event !== undefined) return transition(current, outcome.event);
  const event = EVENT_LEADING_TO[outcome.state];
  const next = transition(current, event);
  if (next !== outcome.state) throw new IllegalOrderTransition(current, event, outcome.state);
  return next;
}

const KNOWN_STATES: ReadonlySet<string> = new Set(ORDER_STATES);

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

function toRecord(row: Row): OrderRecord {
  if (!KNOWN_STATES.has(row.state))
    throw new QuantaError(
      ErrorCodes.JOURNAL,
      `order ${row.id} has an unknown state "${row.state}"`,
    );
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
  // Read the state, ask the state machine, write: one transaction, so no write slips between.
  readonly #applyAttempt: (id: number, now: number) => void;
  readonly #applyOutcome: (id: number, outcome: OrderOutcome, now: number) => void;

  private constructor(db: Database.Database) {
    this.#db = db;
    this.#insert = db.prepare(
      `INSERT INTO orders (strategy, tag, market_id, symbol, side, type, amount_x18, price_x18,
         reduce_only, body, signature, signer, expiry_ts, reference_price_x18, state, fees_x18,
         created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '0', ?, ?)`,
    );
    // Every state the journal writes is one `transition` computed, bound as a parameter.
    this.#attempt = db.prepare(
      'UPDATE orders SET attempts = attempts + 1, state = ?, updated_at = ? WHERE id = ?',
    );
    this.#outcome = db.prepare(
      `UPDATE orders SET state = ?, venue_order_id = ?, filled_x18 = ?, avg_fill_price_x18 = ?,
         fill_price_estimated = ?, fees_x18 = ?, error = ?, updated_at = ? WHERE id = ?`,
    );
    this.#byId = db.prepare('SELECT * FROM orders WHERE id = ?');
    this.#applyAttempt = db.transaction((id: number, now: number) => {
      this.#attempt.run(transition(this.get(id).state, 'sent'), now, id);
    });
    this.#applyOutcome = db.transaction((id: number, outcome: OrderOutcome, now: number) => {
      const current = this.get(id);
      this.#outcome.run(
        nextState(current.state, outcome),
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
    });
  }

  /**
   * Opens (creating if needed) the journal at `path` and migrates its schema to the current
   * version (see `migrateJournal`): a journal of an earlier version opens.
   * @throws QuantaError `QUANTA_JOURNAL` when the file cannot be opened (locked, unwritable), was
   *   written by a newer quanta, or cannot be migrated.
   */
  static open(path: string): OrderJournal {
    let db: Database.Database;
    try {
      if (path !== ':memory:') {
        mkdirSync(dirname(path), { recursive: true });
        makeJournalFilesPrivate(path);
      }
      db = new Database(path, { timeout: 5000 });
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
    } catch (cause) {
      throw new QuantaError(ErrorCodes.JOURNAL, `cannot open the order journal at ${path}`, {
        cause,
        details: ['Check that state.dir is writable and no other bot uses the same state dir.'],
      });
    }
    try {
      migrateJournal(db);
      return new OrderJournal(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Opens an existing journal for reading only, safe beside the bot that writes it (SQLite WAL
   * readers never block the writer). Nothing is migrated or created.
   * @throws QuantaError `QUANTA_JOURNAL` when there is no journal, or it was written by another
   *   schema version (run the bot once to migrate it).
   */
  static openReadOnly(path: string): OrderJournal {
    let db: Database.Database;
    try {
      db = new Database(path, { readonly: true, fileMustExist: true, timeout: 5000 });
    } catch (cause) {
      throw new QuantaError(ErrorCodes.JOURNAL, `no order journal at ${path}`, {
        cause,
        details: ['Check state.dir in the config: the bot keeps its journal there.'],
      });
    }
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== JOURNAL_SCHEMA_VERSION) {
      db.close();
      throw new QuantaError(
        ErrorCodes.JOURNAL,
        `the journal at ${path} has schema version ${version}, this quanta reads ${JOURNAL_SCHEMA_VERSION}`,
        { details: ['Start the bot once with this version to migrate it, then ask again.'] },
      );
    }
    return new OrderJournal(db);
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
      INITIAL_ORDER_STATE,
      now,
      now,
    );
    return this.get(Number(result.lastInsertRowid));
  }

  /**
   * Counts one send attempt: the `sent` event (PENDING or SENT becomes SENT), committed before
   * the attempt leaves.
   * @throws IllegalOrderTransition for an order in any other state; nothing is written.
   */
  markAttempt(id: number, now: number): void {
    this.#applyAttempt(id, now);
  }

  /**
   * Records what the venue (or recovery) decided, as the state machine allows it.
   * @throws IllegalOrderTransition (`QUANTA_ILLEGAL_ORDER_TRANSITION`) naming the journaled
   *   state, the event and the proposed state when the table forbids the change; nothing is
   *   written then.
   */
  recordOutcome(id: number, outcome: OrderOutcome, now: number): OrderRecord {
    this.#applyOutcome(id, outcome, now);
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

  /** The `limit` latest orders, newest first (`GET /status`). */
  latest(limit: number): OrderRecord[] {
    return (
      this.#db.prepare('SELECT * FROM orders ORDER BY id DESC LIMIT ?').all(limit) as Row[]
    ).map(toRecord);
  }

  /** How many orders are in each state (one query: metrics read it on every scrape). */
  countByState(): Partial<Record<OrderState, number>> {
    const rows = this.#db
      .prepare('SELECT state, COUNT(*) AS n FROM orders GROUP BY state')
      .all() as { state: OrderState; n: number }[];
    return Object.fromEntries(rows.map((row) => [row.state, row.n]));
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
