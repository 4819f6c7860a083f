import type { OrderState } from '../domain/index.ts';
import type { ExitStore } from './exits/exit-book.ts';
import type { OrderRecord } from './order-record.ts';

/**
 * What a write must survive when it returns. `powerLoss`: the write allows a send (an order's
 * row, or the first attempt a file counts), so it is fsynced. `crash`: it records what happened
 * after a send (an answer, a resend, a stored exit); it survives the process dying, and becomes
 * durable against power loss with the next `powerLoss` write. How a store honours each is its
 * own business (see `SqliteJournalStore`); a store in memory survives neither and says so.
 */
export type WriteDurability = 'powerLoss' | 'crash';

/** A strategy's persisted key-value store: text values by scope and key. */
export interface KeyValueStore {
  /** The value of `key` in `scope`; undefined when none was stored. */
  kvGet(scope: string, key: string): string | undefined;
  /** Every key and value of one scope, by key. */
  kvList(scope: string): { readonly key: string; readonly value: string }[];
  /** Stores a value (durable against power loss on return). */
  kvSet(scope: string, key: string, value: string): void;
}

/**
 * Where the order journal keeps its rows: one row per order, a key-value store and the
 * protective exits. A store applies no rule of the order's life: `OrderJournal` computes every
 * state through the state machine and hands the store the record to keep. Two stores exist:
 * `SqliteJournalStore` (a file, or `:memory:`) and `MemoryJournalStore` (backtests).
 */
export interface JournalStore extends KeyValueStore, ExitStore {
  /** False for a store opened to read only: every write throws. */
  readonly writable: boolean;
  /** The id the next inserted order gets. */
  nextId(): number;
  /**
   * Writes new orders (ids from {@link nextId}, in order) in one transaction, durable against
   * power loss on return, each row counting its first attempt ahead of the send. Nothing is
   * written when one is refused (a signature stored already: the same signed bytes are one order).
   */
  insert(records: readonly OrderRecord[]): void;
  /**
   * Writes `record` over its row, with `attempts` as the row is to count them (the record's own
   * count, or one ahead of it: see `OrderJournal`).
   */
  update(record: OrderRecord, attempts: number, durability: WriteDurability): void;
  /** One order as stored; undefined when there is none. */
  byId(id: number): OrderRecord | undefined;
  /** Orders in the given states, oldest first. */
  inStates(states: readonly OrderState[]): OrderRecord[];
  /** Every order, oldest first. */
  all(): OrderRecord[];
  /** The `limit` latest orders, newest first (as SQLite's LIMIT: a negative one is no limit). */
  latest(limit: number): OrderRecord[];
  /** How many orders are in each state, as stored. */
  countByState(): Partial<Record<OrderState, number>>;
  /** Every protective exit kept (strategy, market, its state as JSON), in the order first stored. */
  exitsAll(): { readonly strategy: string; readonly marketId: number; readonly state: string }[];
  /** How the last write failed; undefined after one that succeeded (or none yet). */
  readonly lastWriteError: string | undefined;
  close(): void;
}
