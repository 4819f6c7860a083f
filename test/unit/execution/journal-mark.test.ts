/**
 * Issue 25: a journal that lost its newest commits is refused, not trusted. The journal's mark
 * (src/execution/journal-mark.ts) says whether a writer had it open, how long its WAL was, and
 * what it committed; a crash copy whose WAL is missing or cut short, or an older copy of the
 * file, is refused as damaged (both for trading and for `quanta status`), while a sound crash
 * copy and a clean reopen open as they were. Deleting the mark accepts the journal as it is
 * (an operator who restored a backup on purpose).
 */
import { copyFileSync, existsSync, rmSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ErrorCodes, isQuantaError } from '../../../src/errors/index.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { newOrder } from '../../helpers/journal-orders.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-journal-mark-');

/** What opening `path` for trading and for reading throws (undefined where it opened). */
function refusals(path: string): unknown[] {
  return [
    () => OrderJournal.open(path, { bootId: null }),
    () => OrderJournal.openReadOnly(path),
  ].map((open) => {
    try {
      open().close();
      return undefined;
    } catch (error) {
      return error;
    }
  });
}

function expectRefused(path: string, words: string): void {
  for (const error of refusals(path)) {
    expect(isQuantaError(error, ErrorCodes.JOURNAL_DAMAGED), String(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(words);
    expect(message).toContain('quanta journal backup');
    expect(message).toContain(`delete ${path}-mark`);
  }
}

/** A journal left open with `count` orders, copied as a SIGKILL leaves it (file, WAL, mark). */
function crashCopy(count: number): { path: string; close: () => void } {
  const dir = tempDir();
  const live = join(dir, 'live.sqlite');
  const journal = OrderJournal.open(live, { bootId: null });
  for (let i = 1; i <= count; i += 1)
    journal.insertPending(newOrder(`0x${i.toString(16)}`), 1000 + i);
  journal.kvSet('quanta:mode', 'mode', 'halt');
  const path = join(dir, 'crashed.sqlite');
  for (const suffix of ['', '-wal', '-mark']) copyFileSync(`${live}${suffix}`, `${path}${suffix}`);
  return { path, close: () => journal.close() };
}

it('a crash copy with its WAL opens with every commit; the same copy without its WAL is refused', () => {
  const sound = crashCopy(10);
  const journal = OrderJournal.open(sound.path, { bootId: null });
  expect(journal.all()).toHaveLength(10);
  expect(journal.kvGet('quanta:mode', 'mode')).toBe('halt');
  journal.close();

  const cut = crashCopy(10);
  rmSync(`${cut.path}-wal`);
  expectRefused(
    cut.path,
    `the bot that wrote it stopped without closing it (killed or crashed) and its WAL ${cut.path}-wal, which holds its newest commits, is missing`,
  );
  sound.close();
  cut.close();
});

it('a crash copy whose WAL was cut short is refused, naming both sizes', () => {
  const { path, close } = crashCopy(10);
  const bytes = statSync(`${path}-wal`).size;
  truncateSync(`${path}-wal`, 3 * 4096);
  expectRefused(path, `is ${3 * 4096} bytes, shorter than the ${bytes} it had`);
  close();
});

it('an older copy of a cleanly closed journal is refused (orders and stored values missing); without its mark it opens', () => {
  const path = join(tempDir(), 'journal.sqlite');
  const first = OrderJournal.open(path, { bootId: null });
  for (let i = 1; i <= 3; i += 1) first.insertPending(newOrder(`0x${i.toString(16)}`), 1000 + i);
  first.close();
  copyFileSync(path, `${path}.backup`);
  const second = OrderJournal.open(path, { bootId: null });
  for (let i = 4; i <= 5; i += 1) second.insertPending(newOrder(`0x${i.toString(16)}`), 1000 + i);
  second.kvSet('quanta:mode', 'mode', 'halt');
  second.close();
  // Closed cleanly: no WAL, and reopening is no problem.
  expect(existsSync(`${path}-wal`)).toBe(false);
  expect(refusals(path)).toEqual([undefined, undefined]);

  copyFileSync(`${path}.backup`, path);
  expectRefused(
    path,
    'it holds orders up to id 3, but orders up to id 5 were committed: the newest 2 are missing',
  );
  expectRefused(path, 'it counts 0 stored-value writes, but 1 were committed');

  // The operator restored it on purpose: the mark deleted, the journal taken as it is.
  rmSync(`${path}-mark`);
  const restored = OrderJournal.open(path, { bootId: null });
  expect(restored.all()).toHaveLength(3);
  restored.close();
});

it('a mark that is no mark is refused, saying which file', () => {
  const { path, close } = crashCopy(1);
  copyFileSync(`${path}`, `${path}-mark`);
  expectRefused(path, `its mark ${path}-mark is not one this quanta writes`);
  close();
});
