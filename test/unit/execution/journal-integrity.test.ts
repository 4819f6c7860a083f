/**
 * Issue 25, "the journal is trusted blindly": a damaged journal is refused with
 * QUANTA_JOURNAL_DAMAGED naming what is wrong (SQLite's finding, or the row and column of a value
 * no quanta writes), never traded on, never a raw SqliteError or SyntaxError.
 */
import Database from 'better-sqlite3';
import { closeSync, openSync, readSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ErrorCodes, isQuantaError } from '../../../src/errors/index.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { writeJournal } from '../../helpers/journal-orders.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-journal-integrity-');

/** What opening `path` for trading and for reading throws (both must refuse). */
function refusals(path: string): unknown[] {
  const errors: unknown[] = [];
  for (const open of [() => OrderJournal.open(path), () => OrderJournal.openReadOnly(path)]) {
    try {
      const journal = open();
      journal.all();
      journal.close();
      errors.push(undefined);
    } catch (error) {
      errors.push(error);
    }
  }
  return errors;
}

function expectDamaged(errors: unknown[], ...words: string[]): void {
  for (const error of errors) {
    expect(isQuantaError(error, ErrorCodes.JOURNAL_DAMAGED), String(error)).toBe(true);
    const message = (error as Error).message;
    for (const word of words) expect(message).toContain(word);
    expect(message).toContain('quanta journal check');
    expect(message).toContain('quanta journal salvage');
    expect(message).not.toContain('writable');
  }
}

it('a journal cut to half its size is refused as damaged, not "check that state.dir is writable"', () => {
  const path = join(tempDir(), 'journal.sqlite');
  writeJournal(path, 200);
  truncateSync(path, Math.floor(statSync(path).size / 2));
  expectDamaged(refusals(path), 'is damaged', 'SQLite:');
});

it('an expiry_ts of the year 5162 is damage, named with its row and column, not a floor for new orders', () => {
  const path = join(tempDir(), 'journal.sqlite');
  writeJournal(path, 3);
  const db = new Database(path);
  db.prepare('UPDATE orders SET expiry_ts = ? WHERE id = 2').run(100751768123447);
  db.close();
  expectDamaged(refusals(path), 'order 2: expiry_ts 100751768123447 is not a time quanta writes');
});

it('an amount that is no number is damage, not "SyntaxError: Cannot convert … to a BigInt"', () => {
  const path = join(tempDir(), 'journal.sqlite');
  writeJournal(path, 3);
  const db = new Database(path);
  db.prepare("UPDATE orders SET filled_x18 = 'kjkbjjjjjjjjjjjj' WHERE id = 3").run();
  db.close();
  const errors = refusals(path);
  expectDamaged(errors, 'order 3: filled_x18 "kjkbjjjjjjjjjjjj" is not an integer');
  for (const error of errors) expect(String(error)).not.toContain('SyntaxError');
});

it('bytes flipped inside a page that SQLite finds damaged are refused before anything is read', () => {
  const path = join(tempDir(), 'journal.sqlite');
  writeJournal(path, 200);
  // 64 bytes of the second page (the first leaf of the orders table: its cell pointers).
  const fd = openSync(path, 'r+');
  const page = Buffer.alloc(64);
  readSync(fd, page, 0, 64, 4096 + 8);
  for (let i = 0; i < page.length; i += 1) page[i] = page[i]! ^ 0x5a;
  writeSync(fd, page, 0, 64, 4096 + 8);
  closeSync(fd);
  expectDamaged(refusals(path), 'is damaged');
});

it('a sound journal opens as it was written', () => {
  const path = join(tempDir(), 'journal.sqlite');
  writeJournal(path, 5);
  const journal = OrderJournal.open(path);
  expect(journal.all().map((record) => record.state)).toEqual(Array(5).fill('FILLED'));
  expect(journal.countByState()).toEqual({ FILLED: 5 });
  journal.close();
});
