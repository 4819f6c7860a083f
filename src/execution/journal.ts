import {
  INITIAL_ORDER_STATE,
  UNFINISHED_STATES,
  transition,
  type OrderState,
} from '../domain/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { JournalStore } from './journal-store.ts';
import { MemoryJournalStore } from './memory-journal-store.ts';
import {
  nextState,
  pendingRecord,
  withOutcome,
  type NewOrder,
  type OrderOutcome,
} from './journal-changes.ts';
import type { OrderRecord } from './order-record.ts';
import { SqliteJournalStore, type SqliteJournalOptions } from './sqlite-journal-store.ts';

export type { NewOrder, OrderOutcome, OrderOutcomeDetails } from './journal-changes.ts';

/** An order this process keeps in memory while it may still change (see {@link OrderJournal}). */
interface LiveRow {
  /** The order as this process knows it; `attempts` counts attempts that may have left. */
  record: OrderRecord;
  /** The attempts its stored row counts: the first attempt is counted with the row. */
  written: number;
}

// The orders a writing journal keeps in memory: those that may still change.
const LIVE_STATES: ReadonlySet<OrderState> = new Set(UNFINISHED_STATES);

/**
 * The order journal: every order's life, each change applied through the state machine
 * (domain/order-state.ts) and written to a {@link JournalStore} before the journal answers.
 * Where and how durably rows are kept is the store's business: `SqliteJournalStore` (a file,
 * the order's row fsynced before its first send; see its doc for the durability policy and what
 * a crash leaves) or `MemoryJournalStore` (backtests).
 *
 * The first attempt is counted with the row when it is inserted (a store that survives a crash
 * then needs no durable write before the send); a row never marked sent is known unsent, and its
 * pre-counted attempt is given back when its outcome is written (EXPIRED, never sent) or when
 * shutdown stops it in the queue. Only an attempt the store does not count yet, on a row that
 * counts none, must survive power loss before it leaves; every other write only a crash.
 *
 * The journal keeps every order that may still change (not in a final state) in memory, loaded
 * once at open and kept up to date by its own writes (one bot per state dir, so nothing else
 * writes the store): outcomes, open orders and unanswered orders are read from there, not
 * selected again; so are the counts per state that metrics read on every scrape.
 */
export class OrderJournal {
  readonly #store: JournalStore;
  /** Orders not in a final state, in id order; undefined for a read-only journal. */
  readonly #live: Map<number, LiveRow> | undefined;
  /** Orders per state, kept by the journal that writes them; undefined for a read-only one. */
  readonly #counts: Map<OrderState, number> | undefined;

  /** A journal over `store`; a writable store's unfinished orders are read into memory now. */
  constructor(store: JournalStore) {
    this.#store = store;
    if (!store.writable) return;
    this.#live = new Map();
    for (const record of store.inStates(UNFINISHED_STATES))
      this.#live.set(record.id, { record, written: record.attempts });
    this.#counts = new Map(Object.entries(store.countByState()) as [OrderState, number][]);
  }

  /**
   * Opens (creating if needed) the journal file at `path` for writing (`":memory:"`: a throwaway
   * one in SQLite): see {@link SqliteJournalStore.open}.
   * @param options.bootId - this boot's id; default the kernel's (`null`: unknown). For tests.
   * @param options.startTimer - the timer of the quiet-tick checkpoints; default a real one (the
   *   simulator gives its virtual one).
   * @param options.now - the wall clock of the journal's bookkeeping rows; default the system's.
   * @param options.walPreallocatedBytes - the WAL's space written at open; default 16 MB (see
   *   the store).
   * @param options.idleCheckpointCommits - the fewest commits a quiet-tick checkpoint waits
   *   for; default 1 (see the store).
   * @throws QuantaError `QUANTA_JOURNAL` or `QUANTA_JOURNAL_DAMAGED` (see the store).
   */
  static open(
    path: string,
    options: Pick<
      SqliteJournalOptions,
      'bootId' | 'startTimer' | 'now' | 'walPreallocatedBytes' | 'idleCheckpointCommits'
    > = {},
  ): OrderJournal {
    return OrderJournal.#over(SqliteJournalStore.open(path, options));
  }

  /**
   * A throwaway journal (backtests) whose order rows live in memory only
   * ({@link MemoryJournalStore}): every answer is the one a journal opened on `":memory:"`
   * gives, without a statement per write, except that a PENDING order says the attempts made
   * (0), not the attempt a file counts ahead of the send.
   */
  static inMemory(): OrderJournal {
    return new OrderJournal(new MemoryJournalStore());
  }

  /**
   * Opens an existing journal file for reading only, safe beside the bot that writes it.
   * Nothing is migrated or created, nothing is kept in memory.
   * @throws QuantaError `QUANTA_JOURNAL` when there is no journal, or it was written by another
   *   schema version (run the bot once to migrate it); `QUANTA_JOURNAL_DAMAGED`.
   */
  static openReadOnly(path: string): OrderJournal {
    return OrderJournal.#over(SqliteJournalStore.open(path, { readOnly: true }));
  }

  /** A journal over `store`, the store closed when reading it in fails (a damaged row). */
  static #over(store: JournalStore): OrderJournal {
    try {
      return new OrderJournal(store);
    } catch (error) {
      store.close();
      throw error;
    }
  }

  /**
   * Writes a new order in state PENDING, its first attempt counted, and returns its record
   * (durable on return: it may be sent from then on).
   */
  insertPending(order: NewOrder, now: number): OrderRecord {
    const [record] = this.insertPendingMany([order], now);
    if (record === undefined) throw new Error('unreachable: one order inserted, none returned');
    return record;
  }

  /**
   * Writes new orders in state PENDING in one transaction (one fsync for all of them) and
   * returns their records in the same order. Each row counts its first attempt in the store, so
   * none of them needs another durable write before it is sent; the records returned say 0
   * attempts, the attempts made so far. Nothing is written when one of them is refused (the same
   * signature twice).
   */
  insertPendingMany(orders: readonly NewOrder[], now: number): OrderRecord[] {
    if (orders.length === 0) return [];
    const first = this.#store.nextId();
    const records = orders.map((order, i) => pendingRecord(order, first + i, now));
    this.#store.insert(records);
    this.#counted(undefined, INITIAL_ORDER_STATE, records.length);
    for (const record of records) this.#live?.set(record.id, { record, written: 1 });
    return records;
  }

  /**
   * Counts one send attempt: the `sent` event (PENDING or SENT becomes SENT), written before
   * the attempt leaves. Only an attempt the store does not count yet (a resend, or the first
   * attempt of a row whose pre-counted attempt was given back) must survive power loss, and
   * only when the row says no attempt was ever made; otherwise it already says "may have been
   * sent".
   * @throws IllegalOrderTransition for an order in any other state; nothing is written.
   */
  markAttempt(id: number, now: number): void {
    const live = this.#liveRow(id);
    const { record } = live;
    const state = transition(record.state, 'sent');
    const attempts = record.attempts + 1;
    const next: OrderRecord = { ...record, state, attempts, updatedAt: now };
    if (attempts <= live.written) {
      this.#store.update(next, live.written, 'crash');
    } else {
      this.#store.update(next, attempts, live.written === 0 ? 'powerLoss' : 'crash');
      live.written = attempts;
    }
    live.record = next;
    this.#counted(record.state, state);
  }

  /**
   * Records what the venue (or recovery) decided, as the state machine allows it: one write,
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
    const updated = withOutcome(current, nextState(from, outcome), outcome, now);
    // A row this process inserted and never sent gives back the attempt counted with it.
    this.#store.update(updated, updated.attempts, 'crash');
    this.#counted(current.state, updated.state);
    if (live !== undefined) {
      live.written = updated.attempts;
      if (LIVE_STATES.has(updated.state)) live.record = updated;
      else this.#live?.delete(id);
    }
    return updated;
  }

  /**
   * Gives back the first attempt counted with a row this process inserted and never sent, when
   * its sending ended before any attempt (shutdown interrupted it in the queue): the store then
   * says 0 attempts again, so a restart after its expiry marks it EXPIRED, not UNKNOWN.
   * Does nothing for an order with an attempt made.
   */
  releaseUnsentAttempt(id: number): void {
    const live = this.#live?.get(id);
    if (live === undefined || live.record.attempts > 0 || live.written === 0) return;
    this.#store.update(live.record, 0, 'crash');
    live.written = 0;
  }

  /** One order by id. @throws QuantaError `QUANTA_JOURNAL` when there is no such row. */
  get(id: number): OrderRecord {
    const record = this.#live?.get(id)?.record ?? this.#store.byId(id);
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
    return this.#store.inStates(states);
  }

  /** Every order, oldest first. */
  all(): OrderRecord[] {
    return this.#store.all();
  }

  /** The `limit` latest orders, newest first (`GET /status`). */
  latest(limit: number): OrderRecord[] {
    return this.#store.latest(limit);
  }

  /**
   * True when no order is in a state other than a final one, as far as this journal knows
   * without a query: a writer keeps those orders in memory; a read-only journal does not know
   * (false).
   */
  get allFinal(): boolean {
    return this.#live !== undefined && this.#live.size === 0;
  }

  /** How many orders are in each state (metrics read it on every scrape: no query for a writer). */
  countByState(): Partial<Record<OrderState, number>> {
    const counts = this.#counts;
    if (counts === undefined) return this.#store.countByState();
    const answer: Partial<Record<OrderState, number>> = {};
    for (const [state, n] of counts) if (n > 0) answer[state] = n;
    return answer;
  }

  /** Reads a value of a strategy's persisted key-value store. */
  kvGet(scope: string, key: string): string | undefined {
    return this.#store.kvGet(scope, key);
  }

  /** Every key and value of one scope of the key-value store, by key, each row checked. */
  kvList(scope: string): { readonly key: string; readonly value: string }[] {
    return this.#store.kvList(scope);
  }

  /** Writes a value of a strategy's persisted key-value store (durable on return). */
  kvSet(scope: string, key: string, value: string): void {
    this.#store.kvSet(scope, key, value);
  }

  /**
   * Every protective exit kept (`ExitBook`'s rows: strategy, market, its state as JSON), each
   * row checked against its checksum.
   */
  exitsAll(): { readonly strategy: string; readonly marketId: number; readonly state: string }[] {
    return this.#store.exitsAll();
  }

  /**
   * Writes a protective exit's state, as durable as an order's answer: it survives a crash or
   * SIGKILL of the process, and becomes durable against power loss with the next fsynced commit.
   */
  exitSet(strategy: string, marketId: number, state: string): void {
    this.#store.exitSet(strategy, marketId, state);
  }

  /** Removes a protective exit (its position closed, or the strategy cleared it). */
  exitDelete(strategy: string, marketId: number): void {
    this.#store.exitDelete(strategy, marketId);
  }

  /**
   * Why the journal's last write failed (disk full, file gone read-only, database closed), or
   * undefined when the last write succeeded or none was made yet. Readiness reads this instead
   * of writing a probe row: a scrape of `/readyz`, `/status` or `/metrics` writes nothing, and a
   * journal that could not write its last order, attempt, outcome or key stays not ready until
   * a write succeeds again. A row refused for a signature journaled already is not a failure of
   * the journal.
   */
  get lastWriteError(): string | undefined {
    return this.#store.lastWriteError;
  }

  /** Closes the store (SQLite checkpoints the WAL into the file then). */
  close(): void {
    this.#store.close();
  }

  /** One order moved from `from` to `to` (or was inserted in `to`): the counts follow. */
  #counted(from: OrderState | undefined, to: OrderState, n = 1): void {
    const counts = this.#counts;
    if (counts === undefined || from === to) return;
    if (from !== undefined) counts.set(from, (counts.get(from) ?? 0) - n);
    counts.set(to, (counts.get(to) ?? 0) + n);
  }

  #liveRow(id: number): LiveRow {
    const live = this.#live?.get(id);
    if (live !== undefined) return live;
    // A final order (the state machine refuses `sent`), or a read-only journal.
    const record = this.get(id);
    transition(record.state, 'sent');
    throw new QuantaError(ErrorCodes.JOURNAL, `order ${id} cannot be written by this journal`);
  }
}
