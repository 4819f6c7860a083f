import type Database from 'better-sqlite3';
import { ORDER_STATES, UNFINISHED_STATES, type OrderState } from '../domain/index.ts';
import { summarizeError } from '../errors/index.ts';
import { CheckedRows } from './journal-checked-rows.ts';
import { journalDamaged, whileReading } from './journal-damage.ts';
import { fileBytes, JournalMarkFile, type JournalMark } from './journal-mark.ts';
import {
  changingOrderValues,
  describeRowProblem,
  fixedOrderValues,
  isRowProblem,
  readOrderRow,
  RepeatedValues,
  type RawOrderRow,
} from './journal-row.ts';
import {
  fixedPartSum,
  ORDER_CHANGING_COLUMNS,
  ORDER_COLUMNS,
  orderSum,
} from './journal-row-sum.ts';
import type { JournalStore, WriteDurability } from './journal-store.ts';
import type { OrderRecord } from './order-record.ts';
import { heldCounts } from './sqlite-journal-crash.ts';
import { SqliteKeyValues } from './sqlite-journal-kv.ts';
import { openJournalForReading, openJournalForWriting } from './sqlite-journal-open.ts';
import { JournalSync, type JournalSyncOptions } from './sqlite-journal-sync.ts';
import type { StartTimer } from '../clock/timers.ts';

/** Options of {@link SqliteJournalStore.open}. */
export interface SqliteJournalOptions {
  /** Open an existing journal to read only, beside the bot that writes it. Default false. */
  readonly readOnly?: boolean;
  /** This boot's id for a writer; default the kernel's (`null`: unknown). For tests. */
  readonly bootId?: string | null;
  /** The timer of the quiet-tick checkpoints (`JournalSync`); default a real one. */
  readonly startTimer?: StartTimer | undefined;
  /** The wall clock stamped on the journal's own bookkeeping rows; default the system's. */
  readonly now?: (() => number) | undefined;
  /**
   * What a writer on a file preallocates its WAL to at open; default `WAL_PREALLOCATED_BYTES`
   * (16 MB, for the fsync of the commit before each send: journal-wal-space.ts). The simulator
   * asks less: its files are in memory (/dev/shm), where no fsync waits for a disk.
   */
  readonly walPreallocatedBytes?: number | undefined;
  /**
   * The fewest commits the WAL must hold for a quiet tick to checkpoint it (`JournalSync`);
   * default 1. The simulator asks more: its journal is quiet between nearly every order.
   */
  readonly idleCheckpointCommits?: number | undefined;
}

/**
 * The journal in SQLite: one row per order (`":memory:"` gives a throwaway one), each row with
 * its checksum (journal-row-sum.ts), checked when read.
 *
 * Durability (`JournalSync`): an order's row is committed (WAL, synchronous FULL, so fsynced)
 * **before** its first send, so a crash never leaves an order the bot does not know it may have
 * sent; the intents of one snapshot are inserted in one transaction (one fsync for all). One
 * fsync per order, not three: the row is inserted with its first attempt already counted
 * (`attempts` 1 in the file while the order is PENDING), so the send that follows needs no
 * durable write of its own. Everything written after that is committed with synchronous NORMAL:
 * it survives a crash or SIGKILL of the process and becomes durable against power loss with the
 * next fsynced commit. What a power loss can take back is only ever an answer or a later
 * attempt, never the fact that an attempt may have left, and recovery treats such a row as maybe
 * sent: it fails closed. After a crash, the open tells a row never sent from one that may have
 * left by the machine's boot id (`settleUncountedAttempts`), and refuses a journal that lacks
 * commits its mark counts (journal-mark.ts). Statements are prepared once.
 */
export class SqliteJournalStore implements JournalStore {
  readonly writable: boolean;
  readonly #db: Database.Database;
  /** Where the file is, for messages. */
  readonly #path: string;
  readonly #insert: Database.Statement;
  /** Every column an order's life changes, and the row's checksum: the one UPDATE of a row. */
  readonly #update: Database.Statement;
  readonly #byId: Database.Statement;
  readonly #all: Database.Statement;
  readonly #latest: Database.Statement;
  readonly #countByState: Database.Statement;
  readonly #inStates = new Map<string, Database.Statement>();
  /** One copy of each repeated text and x18 value across the rows read (a backtest keeps them all). */
  readonly #texts = new RepeatedValues();
  /** The rows read and checked, each read again with the same values not checked again. */
  readonly #checked = new CheckedRows();
  readonly #insertMany: (records: readonly OrderRecord[], sums: readonly number[]) => void;
  readonly #kv: SqliteKeyValues;
  readonly #sync: JournalSync;
  /** The id the next order gets (one writer per journal: it is given here, not by SQLite). */
  #nextId: number;
  /**
   * The CRC of the fixed values of each order written here and not final, where each new
   * `row_sum` starts (the body and signature are most of a row's bytes).
   */
  readonly #fixedSums = new Map<number, number>();
  /** The mark beside the journal file, for a writer on a file. */
  #markFile: JournalMarkFile | undefined;
  /** What the mark says now (the writer keeps it current after each fsynced commit). */
  #mark: JournalMark = { open: false, walBytes: 0, orders: 0, kvWrites: 0 };
  #lastWriteError: string | undefined;

  private constructor(
    db: Database.Database,
    options: {
      readonly path: string;
      readonly writable: boolean;
      readonly onDisk: boolean;
      readonly sync: Omit<JournalSyncOptions, 'onDisk'>;
    },
  ) {
    this.#db = db;
    this.#path = options.path;
    this.writable = options.writable;
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
    this.#insertMany = db.transaction(
      (records: readonly OrderRecord[], sums: readonly number[]) => {
        records.forEach((record, i) => this.#insertOne(record, sums[i]!));
      },
    );
    this.#kv = new SqliteKeyValues(db, options.path);
    this.#sync = new JournalSync(db, {
      ...options.sync,
      onDisk: options.writable && options.onDisk,
    });
    const last = db.prepare('SELECT MAX(id) AS id FROM orders').get() as { id: number | null };
    this.#nextId = (last.id ?? 0) + 1;
  }

  /**
   * Opens the journal at `path` (`":memory:"`: a throwaway one). A writer creates it if needed,
   * checks it, migrates its schema (`migrateJournal`: a journal of an earlier version opens),
   * settles what a crash left (see the class doc), and starts its mark; a reader
   * (`readOnly: true`) migrates and creates nothing.
   * @throws QuantaError `QUANTA_JOURNAL` when the file cannot be opened (locked, unwritable,
   *   missing for a reader), was written by another schema version than this quanta can use, or
   *   cannot be migrated; `QUANTA_JOURNAL_DAMAGED` when it is damaged or lacks commits its mark
   *   counts.
   */
  static open(path: string, options: SqliteJournalOptions = {}): SqliteJournalStore {
    const writable = options.readOnly !== true;
    const opened = writable
      ? openJournalForWriting(path, options.bootId, options.walPreallocatedBytes)
      : openJournalForReading(path);
    try {
      const store = new SqliteJournalStore(opened.db, {
        path,
        writable,
        onDisk: opened.onDisk,
        sync: {
          startTimer: options.startTimer,
          now: options.now,
          idleCheckpointCommits: options.idleCheckpointCommits,
        },
      });
      if (opened.markFile !== undefined) store.#startMark(opened.markFile);
      return store;
    } catch (error) {
      opened.db.close();
      throw error;
    }
  }

  nextId(): number {
    return this.#nextId;
  }

  insert(records: readonly OrderRecord[]): void {
    const sums = records.map((record) => fixedPartSum(fixedOrderValues(record)));
    // One row commits on its own (no BEGIN/COMMIT around it): the same single fsync.
    this.#written(() =>
      this.#sync.durable(() => {
        if (records.length === 1) this.#insertOne(records[0]!, sums[0]!);
        else this.#insertMany(records, sums);
      }),
    );
    this.#nextId += records.length;
    this.#marked({ ...this.#mark, orders: this.#nextId - 1 });
    records.forEach((record, i) => this.#fixedSums.set(record.id, sums[i]!));
  }

  update(record: OrderRecord, attempts: number, durability: WriteDurability): void {
    const fixedSum = this.#fixedSums.get(record.id) ?? fixedPartSum(fixedOrderValues(record));
    const changing = changingOrderValues(record, attempts);
    const write = (): void => {
      this.#update.run(...changing, orderSum(fixedSum, changing), record.id);
    };
    if (durability === 'powerLoss') this.#written(() => this.#sync.durable(write));
    else this.#afterSend(write);
    if (LIVE_STATES.has(record.state)) this.#fixedSums.set(record.id, fixedSum);
    else this.#fixedSums.delete(record.id);
  }

  byId(id: number): OrderRecord | undefined {
    const row = whileReading(this.#path, () => this.#byId.get(id)) as RawOrderRow | undefined;
    return row === undefined ? undefined : this.#toRecord(row);
  }

  inStates(states: readonly OrderState[]): OrderRecord[] {
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

  all(): OrderRecord[] {
    const rows = whileReading(this.#path, () => this.#all.all()) as RawOrderRow[];
    return rows.map((row) => this.#toRecord(row));
  }

  latest(limit: number): OrderRecord[] {
    const rows = whileReading(this.#path, () => this.#latest.all(limit)) as RawOrderRow[];
    return rows.map((row) => this.#toRecord(row));
  }

  /** Orders per state as the file says, each state checked. */
  countByState(): Partial<Record<OrderState, number>> {
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

  kvGet(scope: string, key: string): string | undefined {
    return this.#kv.get(scope, key);
  }

  kvList(scope: string): { readonly key: string; readonly value: string }[] {
    return this.#kv.list(scope);
  }

  /** Committed and fsynced on return, counted in the mark. */
  kvSet(scope: string, key: string, value: string): void {
    const writes = this.#mark.kvWrites + 1;
    this.#written(() => this.#sync.durable(() => this.#kv.setCounted(scope, key, value, writes)));
    this.#marked({ ...this.#mark, kvWrites: writes });
  }

  exitsAll(): { readonly strategy: string; readonly marketId: number; readonly state: string }[] {
    return this.#kv.exitsAll();
  }

  /** Committed without an fsync (like an order's answer). */
  exitSet(strategy: string, marketId: number, state: string): void {
    this.#afterSend(() => this.#kv.exitSet(strategy, marketId, state));
  }

  exitDelete(strategy: string, marketId: number): void {
    this.#afterSend(() => this.#kv.exitDelete(strategy, marketId));
  }

  /**
   * Why the last write failed (disk full, file gone read-only, database closed), or undefined
   * when the last write succeeded or none was made yet. A row refused for a signature stored
   * already is not a failure of the store. Checkpoints are not counted (they retry, and lose
   * nothing).
   */
  get lastWriteError(): string | undefined {
    return this.#lastWriteError;
  }

  /** Closes the file (SQLite checkpoints the WAL into it then). */
  close(): void {
    this.#sync.stop();
    // Closed from here on (SQLite deletes the WAL as it closes): a crash inside the close is no
    // cut WAL, and the counts still hold the journal to what it committed.
    this.#marked({ ...this.#mark, open: false });
    this.#markFile?.close();
    this.#markFile = undefined;
    if (this.#db.open) this.#db.close();
  }

  /** The record of a row read from the file; a value no quanta writes is damage. */
  #toRecord(row: RawOrderRow): OrderRecord {
    return this.#checked.record(row, this.#check);
  }

  /** Reads one row into a record, checked; a value no quanta writes is damage. */
  readonly #check = (row: RawOrderRow): OrderRecord => {
    const read = readOrderRow(row, this.#texts);
    if (isRowProblem(read)) throw journalDamaged(this.#path, [describeRowProblem(read)]);
    return read;
  };

  #insertOne(record: OrderRecord, fixedSum: number): void {
    // The first attempt is counted in the file with the row (see the class doc).
    const changing = changingOrderValues(record, 1);
    this.#insert.run(...fixedOrderValues(record), ...changing, orderSum(fixedSum, changing));
  }

  /** A write after the order's pre-send insert (see `JournalSync`). */
  #afterSend(write: () => void): void {
    this.#written(() => this.#sync.afterSend(write));
    this.#sync.checkpointIfDue();
  }

  /**
   * Starts the mark of a journal just opened for writing: open, with its WAL's size and what it
   * holds now (read after migration and settling, which wrote to it).
   */
  #startMark(file: string): void {
    this.#markFile = JournalMarkFile.open(file);
    this.#marked({
      open: true,
      walBytes: fileBytes(`${this.#path}-wal`) ?? 0,
      ...heldCounts(this.#db),
    });
  }

  /** Keeps the mark current (only a writer on a file has one). */
  #marked(mark: JournalMark): void {
    this.#mark = mark;
    this.#markFile?.write(mark);
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
}

/** A row SQLite refused for a constraint (the same signature twice): the store works. */
function isConstraintError(error: unknown): boolean {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT');
}

/** The orders whose fixed sums are kept: those that may still change. */
const LIVE_STATES: ReadonlySet<OrderState> = new Set(UNFINISHED_STATES);

/** Every order state, for checking a state read from the file. */
const LIVE_OR_FINAL: ReadonlySet<string> = new Set(ORDER_STATES);
