/**
 * A journal row read again with the same values is not checked again (journal-checked-rows.ts);
 * a row whose values changed in any way is, so damage written after a read is still refused.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ErrorCodes, isQuantaError } from '../../../src/errors/index.ts';
import { CheckedRows } from '../../../src/execution/journal-checked-rows.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import type { RawOrderRow } from '../../../src/execution/journal-row.ts';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import { writeJournal } from '../../helpers/journal-orders.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-journal-checked-rows-');

/** A check that counts its calls and makes a distinct (fake) record each time. */
function countingCheck(): { check: (row: RawOrderRow) => OrderRecord; calls: () => number } {
  let calls = 0;
  return {
    check: (row) => {
      calls += 1;
      return { id: row['id'], call: calls } as unknown as OrderRecord;
    },
    calls: () => calls,
  };
}

it('a row read again with the same values gives the record its first check made', () => {
  const rows = new CheckedRows();
  const { check, calls } = countingCheck();
  const first = rows.record({ id: 1, body: '{"a":1}', n: 5 }, check);
  // Another object with equal values, as SQLite gives for each read.
  expect(rows.record({ id: 1, body: `{"a":${'1'}}`, n: 5 }, check)).toBe(first);
  expect(calls()).toBe(1);
});

it('a row whose value, or set of columns, differs is checked again', () => {
  const rows = new CheckedRows();
  const { check, calls } = countingCheck();
  rows.record({ id: 1, body: 'x', n: 5 }, check);
  rows.record({ id: 1, body: 'x', n: 6 }, check);
  rows.record({ id: 1, body: 'x', n: 6, extra: null }, check);
  rows.record({ id: 1, body: 'x' }, check);
  rows.record({ id: 1, body: 'x', m: 6 }, check);
  // A BLOB is compared by identity: never taken for the same value.
  rows.record({ id: 1, body: new Uint8Array([1]) }, check);
  rows.record({ id: 1, body: new Uint8Array([1]) }, check);
  expect(calls()).toBe(7);
});

it('a row whose check threw is checked again when read again', () => {
  const rows = new CheckedRows();
  let calls = 0;
  const failing = (): OrderRecord => {
    calls += 1;
    throw new Error('damaged');
  };
  expect(() => rows.record({ id: 1 }, failing)).toThrow('damaged');
  expect(() => rows.record({ id: 1 }, failing)).toThrow('damaged');
  expect(calls).toBe(2);
});

it('a row damaged after it was read and checked is refused at the next read', () => {
  const path = join(tempDir(), 'journal.sqlite');
  writeJournal(path, 3);
  const journal = OrderJournal.openReadOnly(path);
  try {
    expect(journal.all()).toHaveLength(3);
    expect(journal.all()).toHaveLength(3);
    // Another connection changes one column of a row already checked (its checksum unchanged).
    const db = new Database(path);
    db.prepare("UPDATE orders SET error = 'changed' WHERE id = 2").run();
    db.close();
    let refused: unknown;
    try {
      journal.all();
    } catch (error) {
      refused = error;
    }
    expect(isQuantaError(refused, ErrorCodes.JOURNAL_DAMAGED), String(refused)).toBe(true);
    expect(String(refused)).toContain('order 2: row_sum');
  } finally {
    journal.close();
  }
});
