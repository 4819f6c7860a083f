import { ORDER_STATES, type OrderSide, type OrderState, type OrderType } from '../domain/index.ts';
import type { OrderRecord } from './order-record.ts';
import { orderRowSum, type StoredValue } from './journal-row-sum.ts';
import { RecentValues } from './recent-values.ts';

/** An `orders` row as SQLite returns it, before anything about it is checked. */
export type RawOrderRow = Readonly<Record<string, unknown>>;

/** One value of a row that no quanta writes: corruption, never data. */
export interface RowProblem {
  /** The row's id as read (it may be the damaged value itself). */
  readonly id: unknown;
  readonly column: string;
  /** What the value should be. */
  readonly expected: string;
  readonly value: unknown;
}

/** "order 12: expiry_ts 100751768123447 is not a time quanta writes (…)": for messages. */
export function describeRowProblem(problem: RowProblem): string {
  return `order ${describeValue(problem.id)}: ${problem.column} ${describeValue(problem.value)} is not ${problem.expected}`;
}

/** A value for a message: short, printable, never the whole of a long string. */
function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Uint8Array) return `<${value.length} bytes of binary>`;
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/**
 * The latest time quanta writes into a journal: 2100-01-01 UTC. A timestamp beyond it is a
 * damaged one (issue 25 found an `expiry_ts` of 100751768123447, the year 5162, which made every
 * later order be signed after it).
 */
export const LATEST_JOURNAL_TS = 4_102_444_800_000; // 2100-01-01T00:00:00Z

const STATES: ReadonlySet<string> = new Set(ORDER_STATES);
const SIDES: ReadonlySet<string> = new Set<OrderSide>(['BUY', 'SELL']);
const TYPES: ReadonlySet<string> = new Set<OrderType>(['MARKET', 'LIMIT']);
/** Each allowed value of a `oneOf` column: a row's value is replaced by this one copy. */
const CANONICAL = new Map<string, string>([...STATES, ...SIDES, ...TYPES].map((v) => [v, v]));

/**
 * Values that repeat from row to row, one copy each: texts (strategy, symbol, signer, tag) and
 * x18 amounts and prices. SQLite gives every row its own strings, and each x18 column parses to
 * a new bigint: a backtest holding 10,000 orders held 10,000 copies of each (about 200 bytes an
 * order for the texts, test/bench/backtest-heap.bench.ts), though an order's amount, its fill
 * and its prices mostly repeat. Equal values, so nothing read from them changes. Owned by whoever
 * keeps many rows or samples (two owners share nothing); bounded: texts in a Map emptied when
 * full, bigints among the recent ones (`RecentValues`; what was handed out stays valid).
 */
export class RepeatedValues {
  static readonly MAX = 4096;
  readonly #texts = new Map<string, string>();
  readonly #bigints = new RecentValues();

  /** The one copy of `value` this pool keeps (the value itself, the first time it is seen). */
  one<T extends string | bigint>(value: T): T {
    if (typeof value === 'bigint') return this.#bigints.one(value) as T;
    const known = this.#texts.get(value);
    if (known !== undefined) return known as T;
    if (this.#texts.size >= RepeatedValues.MAX) this.#texts.clear();
    this.#texts.set(value, value);
    return value;
  }
}
// x18 amounts as the journal writes them: bigint.toString(), so no sign on zero, no leading 0.
const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]*)$/;

/**
 * Reads the columns of one row, each checked; the first value that fails is kept as the problem.
 * (A class, not closures made per row: a journal's rows are read by the hundred at each start.)
 */
class ColumnReader {
  readonly #row: RawOrderRow;
  readonly #texts: RepeatedValues | undefined;
  #problem: RowProblem | undefined;

  constructor(row: RawOrderRow, texts: RepeatedValues | undefined) {
    this.#row = row;
    this.#texts = texts;
  }

  problem(): RowProblem | undefined {
    return this.#problem;
  }

  fail(column: string, expected: string): undefined {
    this.#problem ??= { id: this.#row['id'], column, expected, value: this.#row[column] };
    return undefined;
  }

  int(column: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const value = this.#row[column];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max)
      return value;
    this.fail(column, `a whole number in [${min}, ${max}]`);
    return 0;
  }

  time(column: string): number {
    const value = this.#row[column];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
      if (value <= LATEST_JOURNAL_TS) return value;
    }
    this.fail(column, 'a time quanta writes (ms since 1970, before 2100)');
    return 0;
  }

  flag(column: string): boolean {
    const value = this.#row[column];
    if (value === 0 || value === 1) return value === 1;
    this.fail(column, '0 or 1');
    return false;
  }

  text(column: string, nullable = false): string | null {
    const value = this.#row[column];
    if (typeof value === 'string' && (value !== '' || nullable)) return value;
    if (value === null && nullable) return null;
    this.fail(column, nullable ? 'text or NULL' : 'non-empty text');
    return null;
  }

  /** `text` of a column whose values repeat from row to row: one copy of each (`RepeatedValues`). */
  repeated(column: string, nullable = false): string | null {
    const value = this.text(column, nullable);
    return value === null || this.#texts === undefined ? value : this.#texts.one(value);
  }

  x18(column: string, nullable: boolean, min?: bigint): bigint | null {
    const value = this.#row[column];
    if (value === null && nullable) return null;
    if (typeof value === 'string' && CANONICAL_INTEGER.test(value)) {
      const parsed = BigInt(value);
      if (min === undefined || parsed >= min)
        return this.#texts === undefined ? parsed : this.#texts.one(parsed);
    }
    this.fail(
      column,
      `${min === undefined ? 'an integer' : `an integer ≥ ${min}`} in decimal digits${nullable ? ' or NULL' : ''} (x18)`,
    );
    return null;
  }

  oneOf<T extends string>(column: string, allowed: ReadonlySet<string>): T {
    const value = this.#row[column];
    if (typeof value === 'string' && allowed.has(value))
      return (CANONICAL.get(value) ?? value) as T;
    this.fail(column, `one of ${[...allowed].join(', ')}`);
    return [...allowed][0] as T;
  }
}

/**
 * Reads one `orders` row into a record, checking every column against what the journal writes
 * (type, range, canonical form, the signed body's own market and expiry, and the row's
 * checksum). A value that fails is corruption: the first one found is returned, naming the column.
 * `texts`: the reader's pool of repeated texts and x18 values, when it keeps many rows (the store).
 */
export function readOrderRow(row: RawOrderRow, texts?: RepeatedValues): OrderRecord | RowProblem {
  const read = new ColumnReader(row, texts);
  const record: OrderRecord = {
    id: read.int('id', 1),
    strategy: read.repeated('strategy') ?? '',
    tag: read.repeated('tag', true),
    marketId: read.int('market_id', 0),
    symbol: read.repeated('symbol') ?? '',
    side: read.oneOf<OrderSide>('side', SIDES),
    type: read.oneOf<OrderType>('type', TYPES),
    amountX18: read.x18('amount_x18', false, 1n) ?? 0n,
    priceX18: read.x18('price_x18', false, 0n) ?? 0n,
    reduceOnly: read.flag('reduce_only'),
    body: read.text('body') ?? '',
    signature: read.text('signature') ?? '',
    signer: read.repeated('signer') ?? '',
    expiryTs: read.time('expiry_ts'),
    referencePriceX18: read.x18('reference_price_x18', true, 0n),
    state: read.oneOf<OrderState>('state', STATES),
    venueOrderId: row['venue_order_id'] === null ? null : read.int('venue_order_id', 0),
    filledX18: read.x18('filled_x18', false, 0n) ?? 0n,
    avgFillPriceX18: read.x18('avg_fill_price_x18', true, 0n),
    fillPriceEstimated: read.flag('fill_price_estimated'),
    feesX18: read.x18('fees_x18', true),
    attempts: read.int('attempts', 0),
    createdAt: read.time('created_at'),
    updatedAt: read.time('updated_at'),
    error: read.text('error', true),
  };
  if (read.problem() === undefined) checkBody(record, read);
  // (A journal of a schema before checksums has no such column: only `journal check` reads one.)
  if (read.problem() === undefined && 'row_sum' in row && row['row_sum'] !== orderRowSum(row))
    read.fail(
      'row_sum',
      "the checksum of the row's values (a byte of the row changed after it was written)",
    );
  return read.problem() ?? record;
}

/**
 * The signed body is the order: where it names the market or the expiry, they must be the
 * row's (a damaged body would be resent as bytes its signature does not cover).
 */
function checkBody(record: OrderRecord, read: ColumnReader) {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    read.fail('body', 'the JSON of a signed order');
    return;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    read.fail('body', 'the JSON of a signed order');
    return;
  }
  const fields = body as Record<string, unknown>;
  if ('marketId' in fields && fields['marketId'] !== record.marketId)
    read.fail('body', `a signed order for market_id ${record.marketId}`);
  else if ('expiryTs' in fields && fields['expiryTs'] !== record.expiryTs)
    read.fail('body', `a signed order expiring at expiry_ts ${record.expiryTs}`);
}

/** True when `value` is a problem, not a record. */
export function isRowProblem(value: OrderRecord | RowProblem): value is RowProblem {
  return 'column' in value;
}

/** The values of `record`'s row that never change, in `ORDER_FIXED_COLUMNS` order. */
export function fixedOrderValues(record: OrderRecord): StoredValue[] {
  return [
    record.id,
    record.strategy,
    record.tag,
    record.marketId,
    record.symbol,
    record.side,
    record.type,
    record.amountX18.toString(),
    record.priceX18.toString(),
    record.reduceOnly ? 1 : 0,
    record.body,
    record.signature,
    record.signer,
    record.expiryTs,
    record.referencePriceX18?.toString() ?? null,
  ];
}

/**
 * The values of `record`'s row that its life changes, in `ORDER_CHANGING_COLUMNS` order, with
 * `attempts` as the file counts them (it may count an attempt ahead of the record).
 */
export function changingOrderValues(record: OrderRecord, attempts: number): StoredValue[] {
  return [
    record.state,
    record.venueOrderId,
    record.filledX18.toString(),
    record.avgFillPriceX18?.toString() ?? null,
    record.fillPriceEstimated ? 1 : 0,
    record.feesX18?.toString() ?? null,
    attempts,
    record.createdAt,
    record.updatedAt,
    record.error,
  ];
}
