/**
 * The simulator finds the journal row of each order the venue accepted (invariant I1) through
 * `JournalRows`: the same answer as searching every row, for rows written before and after a
 * look-up, unfinished and finished ones, on a file and in memory, and anew for the journal of a
 * restarted process.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { JournalRows } from '../../../src/simulation/journal-rows.ts';
import { newOrder } from '../../helpers/journal-orders.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-journal-rows-');

/** The order of row `id` sent and filled: a final row, which the journal reads from the file. */
function fill(journal: OrderJournal, id: number): void {
  journal.markAttempt(id, 2000);
  journal.recordOutcome(id, { event: 'filled', filledX18: 10n ** 16n }, 2001);
}

function bySearch(journal: OrderJournal, signature: string): number | undefined {
  return journal.all().find((row) => row.signature === signature)?.id;
}

it.each([
  ['on a file', () => OrderJournal.open(join(tempDir(), 'journal.sqlite'), { bootId: null })],
  ['in memory', () => OrderJournal.inMemory()],
])('answers as a search of every row, %s', (_, open) => {
  const journal = open();
  const rows = new JournalRows();
  const asked = ['0x01', '0x02', '0x03', '0x04', '0x05', '0x06', '0x07'];
  expect(rows.rowIdOf(journal, '0x01')).toBeUndefined();
  journal.insertPending(newOrder('0x01'), 1000);
  journal.insertPendingMany([newOrder('0x02'), newOrder('0x03')], 1001);
  fill(journal, 2);
  for (const signature of asked)
    expect(rows.rowIdOf(journal, signature)).toBe(bySearch(journal, signature));
  journal.insertPendingMany([newOrder('0x04'), newOrder('0x05'), newOrder('0x06')], 1002);
  fill(journal, 5);
  fill(journal, 1);
  for (const signature of [...asked].reverse())
    expect(rows.rowIdOf(journal, signature)).toBe(bySearch(journal, signature));
  expect(rows.rowIdOf(journal, '0x05')).toBe(5);
  journal.close();
});

it('starts again for another journal (a restarted process)', () => {
  const rows = new JournalRows();
  const first = OrderJournal.inMemory();
  first.insertPendingMany([newOrder('0x0a'), newOrder('0x0b')], 1000);
  expect(rows.rowIdOf(first, '0x0b')).toBe(2);
  const second = OrderJournal.inMemory();
  second.insertPending(newOrder('0x0b'), 1000);
  expect(rows.rowIdOf(second, '0x0b')).toBe(1);
  expect(rows.rowIdOf(second, '0x0a')).toBeUndefined();
});
