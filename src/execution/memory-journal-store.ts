import type { OrderState } from '../domain/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { JournalStore } from './journal-store.ts';
import type { OrderRecord } from './order-record.ts';

/**
 * A throwaway journal store (backtests) whose order rows are the records themselves, kept in an
 * array at index id - 1: no SQL per order (three statements per order were a sixth of a trading
 * backtest's time). It gives the answers a SQLite store on `:memory:` gives, except that a
 * PENDING order says the attempts made (0), not the attempt a file counts ahead of the send;
 * it survives nothing, so a write's durability is moot. The key-value store and the exits are
 * maps, in the order SQLite would list them.
 */
export class MemoryJournalStore implements JournalStore {
  readonly writable = true;
  readonly lastWriteError: string | undefined = undefined;
  readonly #rows: OrderRecord[] = [];
  /** The signatures stored (SQLite's UNIQUE column). */
  readonly #signatures = new Set<string>();
  /** Values by scope, then key. */
  readonly #kv = new Map<string, Map<string, string>>();
  /** Exits by strategy and market, in the order first stored (SQLite's rowid order). */
  readonly #exits = new Map<
    string,
    { readonly strategy: string; readonly marketId: number; readonly state: string }
  >();

  nextId(): number {
    return this.#rows.length + 1;
  }

  insert(records: readonly OrderRecord[]): void {
    // Checked before any is added: a refused batch writes nothing. (A Set of the batch only
    // when it holds more than one order: most hold one.)
    const batch = records.length > 1 ? new Set<string>() : undefined;
    for (const { signature } of records) {
      if (this.#signatures.has(signature) || batch?.has(signature) === true)
        throw new QuantaError(
          ErrorCodes.JOURNAL,
          `UNIQUE constraint failed: orders.signature (${signature} is journaled already: the same signed bytes are one order)`,
        );
      batch?.add(signature);
    }
    for (const record of records) {
      this.#signatures.add(record.signature);
      this.#rows.push(record);
    }
  }

  /** The record is the row; the file's count of attempts ahead of a send does not apply here. */
  update(record: OrderRecord): void {
    this.#rows[record.id - 1] = record;
  }

  byId(id: number): OrderRecord | undefined {
    return this.#rows[id - 1];
  }

  inStates(states: readonly OrderState[]): OrderRecord[] {
    const wanted = new Set(states);
    return this.#rows.filter((record) => wanted.has(record.state));
  }

  all(): OrderRecord[] {
    return this.#rows.slice();
  }

  latest(limit: number): OrderRecord[] {
    // As SQLite's LIMIT: a negative one is no limit.
    if (limit < 0) return this.#rows.slice().reverse();
    return limit === 0 ? [] : this.#rows.slice(-limit).reverse();
  }

  countByState(): Partial<Record<OrderState, number>> {
    const counts: Partial<Record<OrderState, number>> = {};
    for (const { state } of this.#rows) counts[state] = (counts[state] ?? 0) + 1;
    return counts;
  }

  kvGet(scope: string, key: string): string | undefined {
    return this.#kv.get(scope)?.get(key);
  }

  kvList(scope: string): { readonly key: string; readonly value: string }[] {
    const values = this.#kv.get(scope);
    if (values === undefined) return [];
    return [...values.keys()].sort(byCodePoint).map((key) => ({ key, value: values.get(key)! }));
  }

  kvSet(scope: string, key: string, value: string): void {
    let values = this.#kv.get(scope);
    if (values === undefined) this.#kv.set(scope, (values = new Map<string, string>()));
    values.set(key, value);
  }

  exitsAll(): { readonly strategy: string; readonly marketId: number; readonly state: string }[] {
    return [...this.#exits.values()];
  }

  exitSet(strategy: string, marketId: number, state: string): void {
    // (A key set again keeps its place: SQLite's upsert keeps the row's rowid.)
    this.#exits.set(exitKey(strategy, marketId), { strategy, marketId, state });
  }

  exitDelete(strategy: string, marketId: number): void {
    this.#exits.delete(exitKey(strategy, marketId));
  }

  close(): void {
    // Nothing to release: the rows go with the store.
  }
}

function exitKey(strategy: string, marketId: number): string {
  return `${marketId}\u0000${strategy}`;
}

/** SQLite's default text order (BINARY): by UTF-8 bytes, which is code point order. */
function byCodePoint(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
