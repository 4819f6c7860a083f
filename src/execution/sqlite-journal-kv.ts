import type Database from 'better-sqlite3';
import { journalDamaged, whileReading } from './journal-damage.ts';
import { exitRowSum, kvRowSum } from './journal-row-sum.ts';

/** The key-value scope the journal keeps its own values in (boot id, count of value writes). */
export const BOOT_SCOPE = 'quanta:journal';
/** The stored value counting stored-value writes (what the mark's `kvWrites` is compared with). */
export const KV_WRITES = 'kvWrites';

/** Upserts one stored value with its checksum. */
export const KV_SET =
  'INSERT INTO kv (scope, key, value, row_sum) VALUES (?, ?, ?, ?) ON CONFLICT(scope, key) DO UPDATE SET value = excluded.value, row_sum = excluded.row_sum';

/**
 * The journal file's `kv` and `exits` tables: strategies' stored values and protective exits,
 * each row written with its checksum and checked against it when read (journal-row-sum.ts).
 * Tables are scanned, never read through an index: the check at open (`quick_check`) does not
 * verify that indexes match their table (both tables are small).
 */
export class SqliteKeyValues {
  readonly #path: string;
  readonly #kvGet: Database.Statement;
  readonly #kvSet: Database.Statement;
  readonly #kvList: Database.Statement;
  readonly #exitsAll: Database.Statement;
  readonly #exitSet: Database.Statement;
  readonly #exitDelete: Database.Statement;
  /** A stored value and the count of such writes, in one transaction (see journal-mark.ts). */
  readonly #setCounted: (scope: string, key: string, value: string, writes: number) => void;

  /** @param path - where the file is, for messages. */
  constructor(db: Database.Database, path: string) {
    this.#path = path;
    this.#kvGet = db.prepare(
      'SELECT value, row_sum FROM kv NOT INDEXED WHERE scope = ? AND key = ?',
    );
    this.#kvSet = db.prepare(KV_SET);
    this.#kvList = db.prepare(
      'SELECT key, value, row_sum FROM kv NOT INDEXED WHERE scope = ? ORDER BY key',
    );
    this.#setCounted = db.transaction(
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
  }

  /** Reads a stored value, checked against its checksum. */
  get(scope: string, key: string): string | undefined {
    const row = whileReading(this.#path, () => this.#kvGet.get(scope, key)) as
      { value: unknown; row_sum: unknown } | undefined;
    if (row === undefined) return undefined;
    if (typeof row.value !== 'string' || row.row_sum !== kvRowSum(scope, key, row.value))
      throw journalDamaged(this.#path, [
        `the stored value of ${JSON.stringify(`${scope}/${key}`)} is not text or does not match its checksum (row_sum)`,
      ]);
    return row.value;
  }

  /** Every key and value of one scope, by key, each row checked. */
  list(scope: string): { readonly key: string; readonly value: string }[] {
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

  /** Stores a value and `writes`, the count of such writes so far, in one transaction. */
  setCounted(scope: string, key: string, value: string, writes: number): void {
    this.#setCounted(scope, key, value, writes);
  }

  /** Every protective exit kept (strategy, market, its state as JSON), each row checked. */
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

  exitSet(strategy: string, marketId: number, state: string): void {
    this.#exitSet.run(strategy, marketId, state, exitRowSum(strategy, marketId, state));
  }

  exitDelete(strategy: string, marketId: number): void {
    this.#exitDelete.run(strategy, marketId);
  }
}
