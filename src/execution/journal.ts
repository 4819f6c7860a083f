import { systemClock } from '../clock/clock.ts';
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  INITIAL_ORDER_STATE,
  IllegalOrderTransition,
  ORDER_STATES,
  UNFINISHED_STATES,
  eventLeadingTo,
  transition,
  type OrderEvent,
  type OrderState,
} from '../domain/index.ts';
import { ErrorCodes, QuantaError, summarizeError } from '../errors/index.ts';
import {
  isSqliteDamage,
  journalDamaged,
  journalPageProblems,
  sqliteFinding,
  whileReading,
} from './journal-damage.ts';
import {
  describeRowProblem,
  isRowProblem,
  changingOrderValues,
  fixedOrderValues,
  readOrderRow,
  type RawOrderRow,
} from './journal-row.ts';
import {
  fixedPartSum,
  kvRowSum,
  exitRowSum,
  ORDER_CHANGING_COLUMNS,
  ORDER_COLUMNS,
  orderSum,
} from './journal-row-sum.ts';
import { makeJournalFilesPrivate } from './journal-file-mode.ts';
import {
  countProblems,
  fileBytes,
  JournalMarkFile,
  markPathOf,
  readJournalMark,
  walProblems,
  type JournalMark,
} from './journal-mark.ts';
import { preallocateJournalWal } from './journal-wal-space.ts';
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

/**
 * The state `outcome` moves an order in `current` to. An outcome that proposes a state goes by
 * the event leading there (a caller proposing UNKNOWN has judged the outcome unknown, so
 * `outcomeUnknown`, not `expired`). @throws IllegalOrderTransition
 */
function nextState(current: OrderState, outcome: OrderOutcome): OrderState {
  if (outcome.event !== undefined) return transition(current, outcome.event);
  const event = eventLeadingTo(outcome.state);
  const next = transition(current, event);
  if (next !== outcome.state) throw new IllegalOrderTransition(current, event, outcome.state);
  return next;
}

/** An order this process keeps in memory while it may still change (see {@link OrderJournal}). */
interface LiveRow {
  /** The order as this process knows it; `attempts` counts attempts that may have left. */
  record: OrderRecord;
  /** The `attempts` column as written: the first attempt is counted with the row. */
  written: number;
  /** The CRC of the row's fixed values, where each new `row_sum` starts (journal-row-sum.ts). */
  readonly fixedSum: number;
}

/** The fixed part of `record`'s row sum (see {@link LiveRow.fixedSum}). */
function fixedSumOf(record: OrderRecord): number {
  return fixedPartSum(fixedOrderValues(record));
}

// The orders a writing journal keeps in memory: those that may still change.
const LIVE_STATES: ReadonlySet<OrderState> = new Set(UNFINISHED_STATES);

/**
 * The order journal: one SQLite row per order, committed (WAL, synchronous FULL, so fsynced)
 * **before** the first send, so a crash never leaves an order the bot does not know it may have
 * sent. `":memory:"` gives a throwaway journal (backtests).
 *
 * One fsync per order, not three: the row is inserted with its first attempt already counted
 * (`attempts` 1 in the file while the order is PENDING), so the send that follows needs no
 * durable write of its own; the intents of one snapshot are inserted in one transaction (one
 * fsync for all of them). Everything written after that (the state SENT when the attempt
 * leaves, resends, the venue's answer) is committed with synchronous NORMAL: it survives a
 * crash or SIGKILL of the process (the WAL is written before the call returns) and becomes
 * durable against power loss with the next fsynced commit. What a power loss can take back is
 * only ever an answer or a later attempt, never the fact that an attempt may have left, and
 * recovery treats such a row as maybe sent (resend identical bytes, or UNKNOWN once expired):
 * it fails closed. A row this process inserted and never marked sent is known unsent: its
 * pre-counted attempt is given back when its outcome is written (EXPIRED, never sent), or when
 * shutdown stops it in the queue; after a crash, {@link OrderJournal.open} tells the two apart
 * by the machine's boot id.
 *
 * The journal keeps every order that may still change (not in a final state) in memory, loaded
 * once at open and kept up to date by its own writes (one bot per state dir, so nothing else
 * writes the file): outcomes, open orders and unanswered orders are read from there, not
 * selected again. Statements are prepared once.
 *
 * WAL checkpoints (two fsyncs each) are kept off the order path: SQLite's automatic ones are
 * off, and the journal runs a PASSIVE checkpoint when it has been quiet for a tick (100-200 ms),
 * or after a post-answer write once the WAL holds 1000 commits; closing checkpoints the rest.
 * The WAL's space is written when the journal opens (see `preallocateJournalWal`).
 *
 * {@link OrderJournal.inMemory} gives a throwaway journal for backtests whose order rows are the
 * records themselves, kept in an array: the same state machine, the same answers, no SQL per
 * order (three statements per order were a sixth of a trading backtest's time).
 */
export class OrderJournal {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  /** Every column an order's life changes, and the row's checksum: the one UPDATE of a row. */
  readonly #update: Database.Statement;
  readonly #byId: Database.Statement;
  readonly #all: Database.Statement;
  readonly #latest: Database.Statement;
  readonly #countByState: Database.Statement;
  readonly #kvGet: Database.Statement;
  readonly #kvSet: Database.Statement;
  readonly #kvList: Database.Statement;
  /** A stored value and the count of such writes, in one transaction (see journal-mark.ts). */
  readonly #kvSetCounted: (scope: string, key: string, value: string, writes: number) => void;
  /** The mark beside the journal file; undefined in memory. */
  #markFile: JournalMarkFile | undefined;
  /** What the mark says now (the writer keeps it current after each fsynced commit). */
  #mark: JournalMark = { open: false, walBytes: 0, orders: 0, kvWrites: 0 };
  readonly #exitsAll: Database.Statement;
  readonly #exitSet: Database.Statement;
  readonly #exitDelete: Database.Statement;
  readonly #inStates = new Map<string, Database.Statement>();
  readonly #insertMany: (records: readonly OrderRecord[], sums: readonly number[]) => void;
  /** The id the next order gets (one writer per journal: it is given here, not by SQLite). */
  #nextId = 1;
  /** Orders not in a final state, in id order; undefined for a read-only journal. */
  readonly #live: Map<number, LiveRow> | undefined;
  /** Whether writes after the pre-send insert may skip the fsync (a file, not `:memory:`). */
  readonly #lazySync: boolean;
  readonly #syncNormal: Database.Statement | undefined;
  readonly #syncFull: Database.Statement | undefined;
  readonly #checkpoint: Database.Statement | undefined;
  readonly #restartWal: Database.Statement | undefined;
  /** Commits since the last checkpoint, and their count at the last idle check. */
  #commits = 0;
  #commitsSeen = 0;
  readonly #idleTimer: NodeJS.Timeout | undefined;
  /**
   * For a journal {@link OrderJournal.inMemory}: every order's current record, at index id - 1
   * (the orders table), and the signatures journaled (its UNIQUE column).
   */
  readonly #rows: OrderRecord[] | undefined;
  readonly #signatures: Set<string> | undefined;
  /** How the last write of the file failed; undefined after one that succeeded (or none yet). */
  #lastWriteError: string | undefined;
  /** Where the file is, for messages. */
  readonly #path: string;
  /**
   * Orders per state, kept by the journal that writes them (metrics read it on every scrape,
   * and a count by SQL would go through the state index, which `quick_check` does not verify).
   */
  readonly #counts: Map<OrderState, number> | undefined;

  private constructor(
    db: Database.Database,
    path: string,
    writable: boolean,
    onDisk: boolean,
    rowsInMemory = false,
  ) {
    this.#db = db;
    this.#path = path;
    if (rowsInMemory) {
      this.#rows = [];
      this.#signatures = new Set();
    }
    // The id is given by the journal, not by AUTOINCREMENT: it is part of the row's checksum,
    // computed before the row is written.
    this.#insert = db.prepare(
      `INSERT INTO orders (${ORDER_COLUMNS.join(', ')}, row_sum)
       VALUES (${ORDER_COLUMNS.map(() => '?').join(', ')}, ?)`,
    );
    // Every state the journal writes is one `transition` computed, bound as a parameter.
    this.#update = db.prepare(
      `UPDATE orders SET ${ORDER_CHANGING_COLUMNS.map((column) => `${column} = ?`).join(', ')},
         row_sum = ?
       WHERE id = ?`,
    );
    // Orders are read from the table itself (by rowid or a scan), never through an index: the
    // check at open (`quick_check`) does not verify that indexes match their table.
    this.#byId = db.prepare('SELECT * FROM orders WHERE id = ?');
    this.#all = db.prepare('SELECT * FROM orders ORDER BY id');
    this.#latest = db.prepare('SELECT * FROM orders ORDER BY id DESC LIMIT ?');
    this.#countByState = db.prepare(
      'SELECT state, COUNT(*) AS n FROM orders NOT INDEXED GROUP BY state',
    );
    // A table scan (kv is small): the primary key's index is not verified by quick_check.
    this.#kvGet = db.prepare(
      'SELECT value, row_sum FROM kv NOT INDEXED WHERE scope = ? AND key = ?',
    );
    this.#kvSet = db.prepare(KV_SET);
    this.#kvList = db.prepare(
      'SELECT key, value, row_sum FROM kv NOT INDEXED WHERE scope = ? ORDER BY key',
    );
    this.#kvSetCounted = db.transaction(
      (scope: string, key: string, value: string, writes: number) => {
        this.#kvSet.run(scope, key, value, kvRowSum(scope, key, value));
        const count = String(writes);
        this.#kvSet.run(BOOT_SCOPE, KV_WRITES, count, kvRowSum(BOOT_SCOPE, KV_WRITES, count));
      },
    );
    this.#exitsAll = db.prepare(
      'SELECT strategy, market_id, state, row_sum FROM exits NOT INDEXED ORDER BY rowid',
    );
    this.#exitSet = db.prepare(
      'INSERT INTO exits (strategy, market_id, state, row_sum) VALUES (?, ?, ?, ?) ON CONFLICT(strategy, market_id) DO UPDATE SET state = excluded.state, row_sum = excluded.row_sum',
    );
    this.#exitDelete = db.prepare('DELETE FROM exits WHERE strategy = ? AND market_id = ?');
    this.#insertMany = db.transaction(
      (records: readonly OrderRecord[], sums: readonly number[]) => {
        records.forEach((record, i) => this.#insertOne(record, sums[i]!));
      },
    );
    if (!rowsInMemory) {
      const last = db.prepare('SELECT MAX(id) AS id FROM orders').get() as { id: number | null };
      this.#nextId = (last.id ?? 0) + 1;
    }
    this.#lazySync = writable && onDisk;
    if (this.#lazySync) {
      this.#syncNormal = db.prepare('PRAGMA synchronous = NORMAL');
      this.#syncFull = db.prepare('PRAGMA synchronous = FULL');
      // Checkpoints are ours, not SQLite's: an automatic one runs inside whichever commit fills
      // the WAL past 1000 pages (two more fsyncs, often the insert an order waits for). We run
      // a PASSIVE one when the journal has been quiet for a tick, and after a write that follows
      // an answer once the WAL holds CHECKPOINT_AFTER_COMMITS commits (never before a send).
      db.pragma('wal_autocheckpoint = 0');
      this.#checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
      this.#restartWal = this.#kvSet;
      this.#idleTimer = setInterval(() => this.#checkpointIfIdle(), CHECKPOINT_IDLE_TICK_MS);
      this.#idleTimer.unref();
    }
    if (writable) {
      this.#live = new Map();
      const live = UNFINISHED_STATES;
      for (const record of this.#select(live)) {
        this.#live.set(record.id, {
          record,
          written: record.attempts,
          fixedSum: fixedSumOf(record),
        });
      }
      if (!rowsInMemory)
        this.#counts = new Map(Object.entries(this.#countInFile()) as [OrderState, number][]);
    }
  }

  /** Orders per state as the file says, each state checked. */
  #countInFile(): Partial<Record<OrderState, number>> {
    const rows = whileReading(this.#path, () => this.#countByState.all()) as {
      state: unknown;
      n: number;
    }[];
    const counts: Partial<Record<OrderState, number>> = {};
    for (const { state, n } of rows) {
      if (typeof state !== 'string' || !LIVE_OR_FINAL.has(state))
        throw journalDamaged(this.#path, [
          `${n} orders have the state ${JSON.stringify(state)}, which is no order state`,
        ]);
      counts[state as OrderState] = n;
    }
    return counts;
  }

  /** One order moved from `from` to `to` (or was inserted in `to`): the counts follow. */
  #counted(from: OrderState | undefined, to: OrderState, n = 1): void {
    const counts = this.#counts;
    if (counts === undefined || from === to) return;
    if (from !== undefined) counts.set(from, (counts.get(from) ?? 0) - n);
    counts.set(to, (counts.get(to) ?? 0) + n);
  }

  /** The record of a row read from the file; a value no quanta writes is damage. */
  #toRecord(row: RawOrderRow): OrderRecord {
    const read = readOrderRow(row);
    if (isRowProblem(read)) throw journalDamaged(this.#path, [describeRowProblem(read)]);
    return read;
  }

  #insertOne(record: OrderRecord, fixedSum: number): void {
    // The first attempt is counted in the file with the row (see the class doc).
    const changing = changingOrderValues(record, 1);
    this.#insert.run(...fixedOrderValues(record), ...changing, orderSum(fixedSum, changing));
  }

  /**
   * Writes `record` over its row, with `attempts` as the file counts them; `fixedSum` is the
   * CRC of its fixed values when the caller keeps it (a live order), else computed here.
   */
  #rewrite(record: OrderRecord, attempts: number, fixedSum = fixedSumOf(record)): void {
    const changing = changingOrderValues(record, attempts);
    this.#update.run(...changing, orderSum(fixedSum, changing), record.id);
  }

  /**
   * Opens (creating if needed) the journal at `path` and migrates its schema to the current
   * version (see `migrateJournal`): a journal of an earlier version opens.
   *
   * Then it settles the rows a crash left PENDING with their first attempt counted (see the
   * class doc). If the machine has not restarted since the run that wrote them (same boot id),
   * every write of that run is in the file, including the SENT written before each attempt
   * left: those rows were never sent, and get their attempt back. After a restart (a power loss
   * or an OS crash may have taken back that SENT), or where the boot id cannot be read, they may
   * have been sent and become SENT, for good: a later run on the same boot cannot mistake them
   * for unsent ones.
   *
   * @param options.bootId - this boot's id; default the kernel's (`null`: unknown). For tests.
   * @throws QuantaError `QUANTA_JOURNAL` when the file cannot be opened (locked, unwritable), was
   *   written by a newer quanta, or cannot be migrated.
   */
  static open(path: string, options: { readonly bootId?: string | null } = {}): OrderJournal {
    const onDisk = path !== ':memory:' && path !== '';
    // Before SQLite opens the file (it would start a new WAL in place of a missing one).
    const markFile = onDisk ? markPathOf(path) : undefined;
    const mark = markFile === undefined ? undefined : checkedMark(path, markFile);
    let db: Database.Database | undefined;
    try {
      if (path !== ':memory:') {
        mkdirSync(dirname(path), { recursive: true });
        makeJournalFilesPrivate(path);
      }
      db = new Database(path, { timeout: 5000 });
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
    } catch (cause) {
      // Closed, or the handle keeps the file's WAL index in this process: a journal restored in
      // its place later would be read through the stale index (rows missing).
      db?.close();
      // A damaged file fails here too (SQLite reads its header and first page): say so, not
      // "not writable" (issue 25: a journal cut to half its size got that advice).
      if (isSqliteDamage(cause)) throw journalDamaged(path, [sqliteFinding(cause)], cause);
      throw new QuantaError(ErrorCodes.JOURNAL, `cannot open the order journal at ${path}`, {
        cause,
        details: ['Check that state.dir is writable and no other bot uses the same state dir.'],
      });
    }
    try {
      // Before anything is written to it, and before a row is believed.
      if (path !== ':memory:') {
        const problems = journalPageProblems(db);
        if (problems.length > 0) throw journalDamaged(path, problems);
      }
      if (mark !== undefined) checkCounts(db, path, mark);
      migrateJournal(db);
      if (path !== ':memory:')
        settleUncountedAttempts(
          db,
          path,
          options.bootId === undefined ? currentBootId() : options.bootId,
        );
      if (onDisk) {
        // The WAL exists now (SQLite opened it to migrate): its space is written before the
        // first order's commit, not by it.
        preallocateWal(db, `${path}-wal`);
      }
      const journal = new OrderJournal(db, path, true, onDisk);
      if (markFile !== undefined) journal.#startMark(markFile, `${path}-wal`);
      return journal;
    } catch (error) {
      db.close();
      if (isSqliteDamage(error)) throw journalDamaged(path, [sqliteFinding(error)], error);
      throw error;
    }
  }

  /**
   * A throwaway journal (backtests) whose order rows live in memory only: every answer is the
   * one a journal opened on `":memory:"` gives, without a statement per write, except that a
   * PENDING order says the attempts made (0), not the attempt a file counts ahead of the send.
   * The strategies' key-value store is still SQLite's (in memory).
   */
  static inMemory(): OrderJournal {
    const db = new Database(':memory:');
    try {
      migrateJournal(db);
      return new OrderJournal(db, ':memory:', true, false, true);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Opens an existing journal for reading only, safe beside the bot that writes it (SQLite WAL
   * readers never block the writer). Nothing is migrated or created, nothing is kept in memory.
   * @throws QuantaError `QUANTA_JOURNAL` when there is no journal, or it was written by another
   *   schema version (run the bot once to migrate it).
   */
  static openReadOnly(path: string): OrderJournal {
    const mark = checkedMark(path, markPathOf(path));
    let db: Database.Database;
    try {
      db = new Database(path, { readonly: true, fileMustExist: true, timeout: 5000 });
    } catch (cause) {
      throw new QuantaError(ErrorCodes.JOURNAL, `no order journal at ${path}`, {
        cause,
        details: ['Check state.dir in the config: the bot keeps its journal there.'],
      });
    }
    try {
      const problems = journalPageProblems(db);
      if (problems.length > 0) throw journalDamaged(path, problems);
      // (Beside a running bot the mark is written after each commit: the file is never behind.)
      if (mark !== undefined) checkCounts(db, path, mark);
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version !== JOURNAL_SCHEMA_VERSION) {
        throw new QuantaError(
          ErrorCodes.JOURNAL,
          `the journal at ${path} has schema version ${version}, this quanta reads ${JOURNAL_SCHEMA_VERSION}`,
          { details: ['Start the bot once with this version to migrate it, then ask again.'] },
        );
      }
      return new OrderJournal(db, path, false, true);
    } catch (error) {
      db.close();
      if (isSqliteDamage(error)) throw journalDamaged(path, [sqliteFinding(error)], error);
      throw error;
    }
  }

  /**
   * Writes a new order in state PENDING, its first attempt counted, and returns its record
   * (committed and fsynced on return: it may be sent from then on).
   */
  insertPending(order: NewOrder, now: number): OrderRecord {
    const [record] = this.insertPendingMany([order], now);
    if (record === undefined) throw new Error('unreachable: one order inserted, none returned');
    return record;
  }

  /**
   * Writes new orders in state PENDING in one transaction (one fsync for all of them) and
   * returns their records in the same order. Each row counts its first attempt in the file, so
   * none of them needs another durable write before it is sent; the records returned say 0
   * attempts, the attempts made so far. Nothing is written when one of them is refused (the same
   * signature twice).
   */
  insertPendingMany(orders: readonly NewOrder[], now: number): OrderRecord[] {
    if (orders.length === 0) return [];
    const rows = this.#rows;
    const ids =
      rows === undefined
        ? orders.map((_, i) => this.#nextId + i)
        : this.#claimIdsInMemory(orders, rows.length);
    const records = orders.map((order, i) => {
      // Every field written out: a spread of the order followed by the new fields costs V8
      // (Node 20) some 60 µs per object, more than the insert itself.
      const record: OrderRecord = {
        strategy: order.strategy,
        tag: order.tag,
        marketId: order.marketId,
        symbol: order.symbol,
        side: order.side,
        type: order.type,
        amountX18: order.amountX18,
        priceX18: order.priceX18,
        reduceOnly: order.reduceOnly,
        body: order.body,
        signature: order.signature,
        signer: order.signer,
        expiryTs: order.expiryTs,
        referencePriceX18: order.referencePriceX18,
        id: ids[i] ?? -1,
        state: INITIAL_ORDER_STATE,
        venueOrderId: null,
        filledX18: 0n,
        avgFillPriceX18: null,
        fillPriceEstimated: false,
        feesX18: 0n,
        attempts: 0,
        createdAt: now,
        updatedAt: now,
        error: null,
      };
      return record;
    });
    // (In memory nothing is summed: there are no rows to check.)
    const sums = rows === undefined ? records.map(fixedSumOf) : [];
    if (rows === undefined) {
      // One row commits on its own (no BEGIN/COMMIT around it): the same single fsync.
      this.#written(() => {
        if (records.length === 1) this.#insertOne(records[0]!, sums[0]!);
        else this.#insertMany(records, sums);
      });
      this.#nextId += records.length;
      this.#commits += 1;
      this.#marked({ ...this.#mark, orders: this.#nextId - 1 });
      this.#counted(undefined, INITIAL_ORDER_STATE, records.length);
    }
    records.forEach((record, i) => {
      this.#live?.set(record.id, { record, written: 1, fixedSum: sums[i] ?? 0 });
      rows?.push(record);
    });
    return records;
  }

  /** The ids the next `orders` get in memory; refuses a signature journaled before, as SQLite does. */
  #claimIdsInMemory(orders: readonly NewOrder[], stored: number): number[] {
    const signatures = this.#signatures!;
    const batch = new Set<string>();
    for (const { signature } of orders) {
      if (signatures.has(signature) || batch.has(signature))
        throw new QuantaError(
          ErrorCodes.JOURNAL,
          `UNIQUE constraint failed: orders.signature (${signature} is journaled already: the same signed bytes are one order)`,
        );
      batch.add(signature);
    }
    for (const signature of batch) signatures.add(signature);
    return orders.map((_, i) => stored + i + 1);
  }

  /** A journal in memory: `record` is now its order's row. */
  #keep(record: OrderRecord): void {
    if (this.#rows !== undefined) this.#rows[record.id - 1] = record;
  }

  /**
   * Counts one send attempt: the `sent` event (PENDING or SENT becomes SENT), committed before
   * the attempt leaves. Only an attempt the file does not count yet (a resend, or the first
   * attempt of a row whose pre-counted attempt was given back) is fsynced, and only when the
   * file says no attempt was ever made; otherwise the row already says "may have been sent".
   * @throws IllegalOrderTransition for an order in any other state; nothing is written.
   */
  markAttempt(id: number, now: number): void {
    const live = this.#liveRow(id);
    const { record } = live;
    const state = transition(record.state, 'sent');
    const attempts = record.attempts + 1;
    const next: OrderRecord = { ...record, state, attempts, updatedAt: now };
    if (this.#rows !== undefined) {
      // In memory the record is the row: nothing to write.
    } else if (attempts <= live.written) {
      const written = live.written;
      this.#lazily(() => this.#rewrite(next, written, live.fixedSum));
    } else if (live.written === 0) {
      this.#written(() => this.#rewrite(next, attempts, live.fixedSum));
      this.#commits += 1;
      live.written = attempts;
    } else {
      this.#lazily(() => this.#rewrite(next, attempts, live.fixedSum));
      live.written = attempts;
    }
    live.record = next;
    this.#counted(record.state, state);
    this.#keep(live.record);
  }

  /**
   * Records what the venue (or recovery) decided, as the state machine allows it: one UPDATE,
   * no read (the journal knows the order's current row).
   * @throws IllegalOrderTransition (`QUANTA_ILLEGAL_ORDER_TRANSITION`) naming the journaled
   *   state, the event and the proposed state when the table forbids the change; nothing is
   *   written then.
   */
  recordOutcome(id: number, outcome: OrderOutcome, now: number): OrderRecord {
    const live = this.#live?.get(id);
    const current = live?.record ?? this.get(id);
    // A PENDING row that counts an attempt (a crash left it so) may have been sent: to the state
    // machine it is SENT, so it can become UNKNOWN, never EXPIRED unsent.
    const from =
      current.state === INITIAL_ORDER_STATE && current.attempts > 0
        ? transition(current.state, 'sent')
        : current.state;
    const updated: OrderRecord = {
      ...current,
      state: nextState(from, outcome),
      venueOrderId:
        outcome.venueOrderId === undefined ? current.venueOrderId : outcome.venueOrderId,
      filledX18: outcome.filledX18 ?? current.filledX18,
      avgFillPriceX18:
        outcome.avgFillPriceX18 === undefined ? current.avgFillPriceX18 : outcome.avgFillPriceX18,
      fillPriceEstimated: outcome.fillPriceEstimated ?? current.fillPriceEstimated,
      feesX18: outcome.feesX18 ?? current.feesX18,
      error: outcome.error === undefined ? current.error : outcome.error,
      updatedAt: now,
    };
    // A row this process inserted and never sent gives back the attempt counted with it.
    this.#lazily(() => this.#rewrite(updated, updated.attempts, live?.fixedSum));
    this.#counted(current.state, updated.state);
    if (live !== undefined) {
      live.written = updated.attempts;
      if (LIVE_STATES.has(updated.state)) live.record = updated;
      else this.#live?.delete(id);
    }
    this.#keep(updated);
    return updated;
  }

  /**
   * Gives back the first attempt counted with a row this process inserted and never sent, when
   * its sending ended before any attempt (shutdown interrupted it in the queue): the file then
   * says 0 attempts again, so a restart after its expiry marks it EXPIRED, not UNKNOWN.
   * Does nothing for an order with an attempt made.
   */
  releaseUnsentAttempt(id: number): void {
    const live = this.#live?.get(id);
    if (live === undefined || live.record.attempts > 0 || live.written === 0) return;
    this.#lazily(() => this.#rewrite(live.record, 0, live.fixedSum));
    live.written = 0;
  }

  /** One order by id. @throws QuantaError `QUANTA_JOURNAL` when there is no such row. */
  get(id: number): OrderRecord {
    const live = this.#live?.get(id);
    if (live !== undefined) return live.record;
    const row =
      this.#rows === undefined
        ? (whileReading(this.#path, () => this.#byId.get(id)) as RawOrderRow | undefined)
        : undefined;
    const record = this.#rows?.[id - 1] ?? (row === undefined ? undefined : this.#toRecord(row));
    if (record === undefined)
      throw new QuantaError(ErrorCodes.JOURNAL, `order ${id} is not in the journal`);
    return record;
  }

  /**
   * Orders in the given states, oldest first. States that are not final are answered from
   * memory (no query) by the journal that writes them.
   */
  inStates(states: readonly OrderState[]): OrderRecord[] {
    const live = this.#live;
    if (live !== undefined && states.every((state) => LIVE_STATES.has(state))) {
      // (A few states: `includes` on them, not a Set built per call; the executor asks after
      // every snapshot.)
      const records: OrderRecord[] = [];
      for (const { record } of live.values())
        if (states.includes(record.state)) records.push(record);
      return records;
    }
    return this.#select(states);
  }

  #select(states: readonly OrderState[]): OrderRecord[] {
    if (this.#rows !== undefined) {
      const wanted = new Set(states);
      return this.#rows.filter((record) => wanted.has(record.state));
    }
    const key = states.join(',');
    let statement = this.#inStates.get(key);
    if (statement === undefined) {
      const marks = states.map(() => '?').join(', ');
      statement = this.#db.prepare(
        `SELECT * FROM orders NOT INDEXED WHERE state IN (${marks}) ORDER BY id`,
      );
      this.#inStates.set(key, statement);
    }
    const found = statement;
    const rows = whileReading(this.#path, () => found.all(...states)) as RawOrderRow[];
    return rows.map((row) => this.#toRecord(row));
  }

  /** Every order, oldest first. */
  all(): OrderRecord[] {
    if (this.#rows !== undefined) return this.#rows.slice();
    const rows = whileReading(this.#path, () => this.#all.all()) as RawOrderRow[];
    return rows.map((row) => this.#toRecord(row));
  }

  /** The `limit` latest orders, newest first (`GET /status`). */
  latest(limit: number): OrderRecord[] {
    if (this.#rows !== undefined) {
      // As SQLite's LIMIT: a negative one is no limit.
      if (limit < 0) return this.#rows.slice().reverse();
      return limit === 0 ? [] : this.#rows.slice(-limit).reverse();
    }
    const rows = whileReading(this.#path, () => this.#latest.all(limit)) as RawOrderRow[];
    return rows.map((row) => this.#toRecord(row));
  }

  /** How many orders are in each state (one query: metrics read it on every scrape). */
  countByState(): Partial<Record<OrderState, number>> {
    if (this.#rows !== undefined) {
      const counts: Partial<Record<OrderState, number>> = {};
      for (const { state } of this.#rows) counts[state] = (counts[state] ?? 0) + 1;
      return counts;
    }
    const counts = this.#counts;
    if (counts === undefined) return this.#countInFile();
    const answer: Partial<Record<OrderState, number>> = {};
    for (const [state, n] of counts) if (n > 0) answer[state] = n;
    return answer;
  }

  /** Reads a value of a strategy's persisted key-value store. */
  kvGet(scope: string, key: string): string | undefined {
    const row = whileReading(this.#path, () => this.#kvGet.get(scope, key)) as
      { value: unknown; row_sum: unknown } | undefined;
    if (row === undefined) return undefined;
    if (typeof row.value !== 'string' || row.row_sum !== kvRowSum(scope, key, row.value))
      throw journalDamaged(this.#path, [
        `the stored value of ${JSON.stringify(`${scope}/${key}`)} is not text or does not match its checksum (row_sum)`,
      ]);
    return row.value;
  }

  /** Every key and value of one scope of the key-value store, by key, each row checked. */
  kvList(scope: string): { readonly key: string; readonly value: string }[] {
    const rows = whileReading(this.#path, () => this.#kvList.all(scope)) as Record<
      string,
      unknown
    >[];
    return rows.map(({ key, value, row_sum: sum }) => {
      if (
        typeof key !== 'string' ||
        typeof value !== 'string' ||
        sum !== kvRowSum(scope, key, value)
      )
        throw journalDamaged(this.#path, [
          `a stored value of scope ${JSON.stringify(scope)} is not text or does not match its checksum (row_sum)`,
        ]);
      return { key, value };
    });
  }

  /**
   * Every protective exit kept (`ExitBook`'s rows: strategy, market, its state as JSON), each
   * row checked against its checksum.
   */
  exitsAll(): { readonly strategy: string; readonly marketId: number; readonly state: string }[] {
    const rows = whileReading(this.#path, () => this.#exitsAll.all()) as Record<string, unknown>[];
    return rows.map((row) => {
      const { strategy, market_id: marketId, state } = row;
      if (
        typeof strategy !== 'string' ||
        typeof marketId !== 'number' ||
        typeof state !== 'string' ||
        row['row_sum'] !== exitRowSum(strategy, marketId, state)
      )
        throw journalDamaged(this.#path, [
          `the exit of ${JSON.stringify(strategy)} in market ${String(marketId)} does not match its checksum (row_sum)`,
        ]);
      return { strategy, marketId, state };
    });
  }

  /**
   * Writes a protective exit's state. Committed without an fsync (like an order's answer): it
   * survives a crash or SIGKILL of the process, and becomes durable against power loss with the
   * next fsynced commit.
   */
  exitSet(strategy: string, marketId: number, state: string): void {
    this.#exitWrite(() =>
      this.#exitSet.run(strategy, marketId, state, exitRowSum(strategy, marketId, state)),
    );
  }

  /** Removes a protective exit (its position closed, or the strategy cleared it). */
  exitDelete(strategy: string, marketId: number): void {
    this.#exitWrite(() => this.#exitDelete.run(strategy, marketId));
  }

  // Exits live in SQLite in every journal (the in-memory one's rows are records, its exits not).
  #exitWrite(write: () => void): void {
    if (this.#rows !== undefined) write();
    else this.#lazily(write);
  }

  /** Writes a value of a strategy's persisted key-value store (committed and fsynced on return). */
  kvSet(scope: string, key: string, value: string): void {
    const writes = this.#mark.kvWrites + 1;
    this.#written(() => this.#kvSetCounted(scope, key, value, writes));
    this.#commits += 1;
    this.#marked({ ...this.#mark, kvWrites: writes });
  }

  /**
   * Why the journal's last write failed (disk full, file gone read-only, database closed), or
   * undefined when the last write succeeded or none was made yet. Readiness reads this instead
   * of writing a probe row: a scrape of `/readyz`, `/status` or `/metrics` writes nothing, and a
   * journal that could not write its last order, attempt, outcome or key stays not ready until
   * a write succeeds again. A row refused for a signature journaled already is not a failure of
   * the journal. Checkpoints are not counted (they retry, and lose nothing).
   */
  get lastWriteError(): string | undefined {
    return this.#lastWriteError;
  }

  /** Closes the file (SQLite checkpoints the WAL into it then). */
  close(): void {
    if (this.#idleTimer !== undefined) clearInterval(this.#idleTimer);
    // Closed from here on (SQLite deletes the WAL as it closes): a crash inside the close is no
    // cut WAL, and the counts still hold the journal to what it committed.
    this.#marked({ ...this.#mark, open: false });
    this.#markFile?.close();
    this.#markFile = undefined;
    if (this.#db.open) this.#db.close();
  }

  /** Keeps the mark current (only a writer on a file has one). */
  #marked(mark: JournalMark): void {
    this.#mark = mark;
    this.#markFile?.write(mark);
  }

  /**
   * Starts the mark of a journal just opened for writing: open, with its WAL's size and what it
   * holds now (read after migration and settling, which wrote to it).
   */
  #startMark(file: string, walPath: string): void {
    this.#markFile = JournalMarkFile.open(file);
    this.#marked({ open: true, walBytes: fileBytes(walPath) ?? 0, ...heldCounts(this.#db) });
  }

  /** A PASSIVE checkpoint of the WAL (it never waits for readers); no-op when nothing was written. */
  #checkpointNow(): void {
    if (this.#checkpoint === undefined || this.#commits === 0 || !this.#db.open) return;
    try {
      this.#checkpoint.get();
    } catch {
      // Only a copy of committed pages: the WAL keeps them and the next checkpoint retries.
      return;
    }
    this.#commits = 0;
    this.#commitsSeen = 0;
    // The next write starts the WAL over, and with synchronous FULL SQLite fsyncs the new WAL
    // header first: a second fsync for the next order's insert. This write takes that restart
    // now, while the journal is quiet (one row of its own; not counted, so it calls for no checkpoint).
    try {
      this.#syncNormal!.run();
      // (A changed value: SQLite writes nothing for an unchanged one.)
      const at = String(systemClock.now());
      this.#restartWal!.run(
        BOOT_SCOPE,
        'walRestartedAt',
        at,
        kvRowSum(BOOT_SCOPE, 'walRestartedAt', at),
      );
    } catch {
      // Then the next commit restarts the WAL, as SQLite would anyway.
    } finally {
      this.#syncFull!.run();
    }
  }

  #checkpointIfIdle(): void {
    if (this.#commits !== this.#commitsSeen) this.#commitsSeen = this.#commits;
    else this.#checkpointNow();
  }

  #liveRow(id: number): LiveRow {
    const live = this.#live?.get(id);
    if (live !== undefined) return live;
    // A final order (the state machine refuses `sent`), or a read-only journal.
    const record = this.get(id);
    transition(record.state, 'sent');
    throw new QuantaError(ErrorCodes.JOURNAL, `order ${id} cannot be written by this journal`);
  }

  /** Runs one write of the file and keeps how it ended for {@link lastWriteError}. */
  #written<T>(write: () => T): T {
    let result: T;
    try {
      result = write();
    } catch (error) {
      if (!isConstraintError(error)) this.#lastWriteError = summarizeError(error).message;
      throw error;
    }
    this.#lastWriteError = undefined;
    return result;
  }

  // A write after the order's pre-send insert: committed without an fsync (see the class doc).
  #lazily(write: () => void): void {
    // In memory the records are the rows (#keep): nothing to write.
    if (this.#rows !== undefined) return;
    if (!this.#lazySync) {
      this.#written(write);
      return;
    }
    this.#written(() => {
      this.#syncNormal!.run();
      try {
        write();
      } finally {
        this.#syncFull!.run();
      }
    });
    this.#commits += 1;
    if (this.#commits >= CHECKPOINT_AFTER_COMMITS) this.#checkpointNow();
  }
}

const BOOT_SCOPE = 'quanta:journal';
/** The stored value counting stored-value writes (what the mark's `kvWrites` is compared with). */
const KV_WRITES = 'kvWrites';

/**
 * What the journal holds of what its mark counts: its highest order id and its count of
 * stored-value writes (0 for a file without the tables yet: an empty or new file).
 */
function heldCounts(db: Database.Database): { orders: number; kvWrites: number } {
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
function checkedMark(path: string, markFile: string): JournalMark | undefined {
  const mark = readJournalMark(markFile);
  if (typeof mark === 'string') throw journalCut(path, markFile, [mark]);
  if (mark === undefined) return undefined;
  const problems = walProblems(mark, `${path}-wal`);
  if (problems.length > 0) throw journalCut(path, markFile, problems);
  return mark;
}

/** @throws QuantaError `QUANTA_JOURNAL_DAMAGED` when `db` holds less than `mark` counts. */
function checkCounts(db: Database.Database, path: string, mark: JournalMark): void {
  const problems = countProblems(mark, heldCounts(db));
  if (problems.length > 0) throw journalCut(path, markPathOf(path), problems);
}

/** A journal that lacks what its mark says was committed (journal-mark.ts). */
function journalCut(path: string, markFile: string, problems: readonly string[]): QuantaError {
  return journalDamaged(path, problems, undefined, [
    `If you restored or salvaged this journal on purpose, delete ${markFile} so the bot takes it as it is; then check the venue for orders the journal does not show.`,
  ]);
}

/** A row SQLite refused for a constraint (the same signature twice): the journal works. */
function isConstraintError(error: unknown): boolean {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT');
}

/** Every order state, for checking a state read from the file. */
const LIVE_OR_FINAL: ReadonlySet<string> = new Set(ORDER_STATES);

/**
 * Writes the WAL's space (`preallocateJournalWal`) under SQLite's write lock, so that no other
 * connection (a `quanta compare` opening the same journal) appends frames between the size read
 * and the zeros written after it. A disk without the room refuses the journal with a clear
 * error, the file left at its size: the commit before each send would soon fail there anyway.
 */
function preallocateWal(db: Database.Database, walPath: string): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    preallocateJournalWal(walPath, WAL_PREALLOCATED_BYTES);
  } catch (cause) {
    throw new QuantaError(
      ErrorCodes.JOURNAL,
      `cannot write the ${WAL_PREALLOCATED_BYTES / 1024 / 1024} MB of the order journal's WAL at ${walPath}`,
      {
        cause,
        details: [
          'Free disk space where state.dir is: the journal needs it before the first order.',
        ],
      },
    );
  } finally {
    db.exec('COMMIT');
  }
}

/** How often a disk journal looks whether it has been quiet since the last look (then checkpoints). */
const CHECKPOINT_IDLE_TICK_MS = 100;
/**
 * The WAL's bound when the journal is never quiet: some 330 orders, about 12 MB of WAL (measured:
 * 24 MB after 2000 commits of insert, sent and outcome). A checkpoint costs two fsyncs and copies
 * the few pages those commits keep rewriting, so a tighter bound costs little and keeps the
 * preallocated WAL small.
 */
const CHECKPOINT_AFTER_COMMITS = 1000;
/** What a disk journal's WAL is preallocated to at open (see `preallocateJournalWal`): the bound above with room. */
const WAL_PREALLOCATED_BYTES = 16 * 1024 * 1024;

/** The kernel's id of this boot (Linux); undefined where it cannot be read. */
function currentBootId(): string | null {
  try {
    const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return id === '' ? null : id;
  } catch {
    return null;
  }
}

/** Upserts one stored value with its checksum. */
const KV_SET =
  'INSERT INTO kv (scope, key, value, row_sum) VALUES (?, ?, ?, ?) ON CONFLICT(scope, key) DO UPDATE SET value = excluded.value, row_sum = excluded.row_sum';

/**
 * See {@link OrderJournal.open}: one transaction, before the journal is read into memory. Each
 * row is checked before it is rewritten (with its new checksum).
 */
function settleUncountedAttempts(db: Database.Database, path: string, bootId: string | null): void {
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
      const sum = orderSum(fixedSumOf(settled), changingOrderValues(settled, attempts));
      update.run(settled.state, attempts, sum, record.id);
    }
    if (!sameBoot && bootId !== null)
      db.prepare(KV_SET).run(BOOT_SCOPE, 'bootId', bootId, kvRowSum(BOOT_SCOPE, 'bootId', bootId));
  })();
}
