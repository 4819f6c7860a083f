import type { RawOrderRow } from './journal-row.ts';
import type { OrderRecord } from './order-record.ts';

/** A row as SQLite gave it and the record its check made of it. */
interface CheckedRow {
  readonly row: RawOrderRow;
  /** How many columns `row` has. */
  readonly columns: number;
  readonly record: OrderRecord;
}

/**
 * The rows of a journal file already read and checked, by id: a row read again with exactly the
 * same values (every column `===` the one checked) is the same record, so its check (the column
 * types and ranges, the signed body's JSON, the checksum over its values) is not made again. A
 * check is a function of the row's values alone, so its answer for the same values is the one it
 * gave; a value that differs in any way (a byte of the file changed, a write, a BLOB where text
 * was) is checked in full. A restarted bot reads its journal a few times at start (the
 * unfinished rows, then every row for recovery) and the simulator reads it again to check it;
 * before this, seed 1 of `quanta sim` parsed a signed body 652 times for its 120 orders.
 *
 * Bounded: emptied when it holds {@link CheckedRows.MAX} rows (a journal bigger than that is
 * checked row by row as before, beyond the first ones).
 */
export class CheckedRows {
  static readonly MAX = 1024;
  readonly #rows = new Map<unknown, CheckedRow>();

  /**
   * The record of `row`: the one kept when the row read before had the same values, else
   * `check(row)` (which throws on a damaged row: nothing is kept then).
   */
  record(row: RawOrderRow, check: (row: RawOrderRow) => OrderRecord): OrderRecord {
    const id = row['id'];
    const kept = this.#rows.get(id);
    if (kept !== undefined && sameValues(kept, row)) return kept.record;
    const record = check(row);
    if (this.#rows.size >= CheckedRows.MAX && kept === undefined) this.#rows.clear();
    this.#rows.set(id, { row, columns: Object.keys(row).length, record });
    return record;
  }
}

/** True when `row` has the kept row's columns, each with a `===` value. */
function sameValues(kept: CheckedRow, row: RawOrderRow): boolean {
  let columns = 0;
  for (const column in row) {
    if (!(column in kept.row) || kept.row[column] !== row[column]) return false;
    columns += 1;
  }
  return columns === kept.columns;
}
