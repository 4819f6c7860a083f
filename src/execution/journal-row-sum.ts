import { crc32 } from 'node:zlib';

/** The `orders` columns an order is inserted with and that never change after. */
export const ORDER_FIXED_COLUMNS = [
  'id',
  'strategy',
  'tag',
  'market_id',
  'symbol',
  'side',
  'type',
  'amount_x18',
  'price_x18',
  'reduce_only',
  'body',
  'signature',
  'signer',
  'expiry_ts',
  'reference_price_x18',
] as const;

/** The `orders` columns an order's life changes. */
export const ORDER_CHANGING_COLUMNS = [
  'state',
  'venue_order_id',
  'filled_x18',
  'avg_fill_price_x18',
  'fill_price_estimated',
  'fees_x18',
  'attempts',
  'created_at',
  'updated_at',
  'error',
] as const;

/**
 * The `orders` columns in the order their values are summed (and salvaged): every column but
 * `row_sum` itself, the id included (a flipped rowid would otherwise renumber an order).
 */
export const ORDER_COLUMNS = [...ORDER_FIXED_COLUMNS, ...ORDER_CHANGING_COLUMNS] as const;

/** A value as SQLite stores and returns it for the journal's columns. */
export type StoredValue = string | number | null;

/**
 * The checksum a row is written with (`row_sum`): zlib's CRC-32 of its values as JSON, 8 hex
 * digits (the same check as a recording line, `src/market/recording/line-seal.ts`).
 *
 * Why: SQLite's page check finds broken pages, not a changed byte inside a value; a flipped byte
 * in a strategy name, a signature or a stored risk baseline reads as other data without a word.
 * Every write sets the sum of the row as written, every read recomputes it, so such a byte is
 * found as damage: always when the change spans at most 32 bits of the JSON, else with odds of
 * 2^-32. (Chosen over SHA-256 for its cost: the JSON and the CRC together are a few µs a write;
 * the commit message of this change has the order-path measurement.)
 */
export function rowSum(values: readonly unknown[]): string {
  return hex(crc32(JSON.stringify(values)));
}

function hex(crc: number): string {
  return crc.toString(16).padStart(8, '0');
}

/**
 * The CRC of an order's fixed values (`ORDER_FIXED_COLUMNS` order): the start of its row's sum,
 * which a writer keeps per live order so that a state change sums only what changed (the body
 * and signature are most of a row's bytes).
 */
export function fixedPartSum(fixed: readonly unknown[]): number {
  return crc32(JSON.stringify(fixed));
}

/**
 * An order row's `row_sum`: the CRC of its changing values (`ORDER_CHANGING_COLUMNS` order) as
 * JSON, continued from {@link fixedPartSum} of its fixed values (zlib's CRC takes a starting
 * value: the same as the CRC of both JSON texts one after the other).
 */
export function orderSum(fixedSum: number, changing: readonly unknown[]): string {
  return hex(crc32(JSON.stringify(changing), fixedSum));
}

/** The sum of an `orders` row read from SQLite (by column name). */
export function orderRowSum(row: Readonly<Record<string, unknown>>): string {
  return orderSum(
    fixedPartSum(ORDER_FIXED_COLUMNS.map((column) => row[column] ?? null)),
    ORDER_CHANGING_COLUMNS.map((column) => row[column] ?? null),
  );
}

/** The sum of a `kv` row. */
export function kvRowSum(scope: unknown, key: unknown, value: unknown): string {
  return rowSum([scope, key, value]);
}

/** The sum of an `exits` row. */
export function exitRowSum(strategy: unknown, marketId: unknown, state: unknown): string {
  return rowSum([strategy, marketId, state]);
}
