/**
 * `quanta journal check|salvage|backup` (issue 25): check reports SQLite's findings and every
 * invalid row and exits 4 on damage; salvage copies every readable valid row into a new journal
 * and lists what was lost, leaving the original as it was; backup copies a journal a running
 * writer keeps committing to, as one consistent snapshot.
 */
import Database from 'better-sqlite3';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { newOrder, writeJournal } from '../../helpers/journal-orders.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';
import { spawnQuanta } from './harness.ts';

const tempDir = tempDirs('quanta-journal-command-');

async function quanta(args: readonly string[]) {
  const child = spawnQuanta(args, process.env);
  const { code } = await child.exited;
  return {
    code,
    stdout: child.stdout.map((l) => l.line).join('\n'),
    stderr: child.stderr.map((l) => l.line).join('\n'),
  };
}

it('check says ok on a sound journal, and names the damaged row and column otherwise (exit 4)', async () => {
  const path = join(tempDir(), 'journal.sqlite');
  writeJournal(path, 20);
  const sound = await quanta(['journal', 'check', '--journal', path]);
  expect(sound.code, sound.stderr).toBe(0);
  // (Three: the risk baseline, the boot id, and the count of stored-value writes the mark checks.)
  expect(sound.stdout).toContain(`journal ${path}: 20 valid orders, 3 stored values`);
  expect(sound.stdout).toContain('ok: SQLite finds every page sound');

  const db = new Database(path);
  db.prepare('UPDATE orders SET expiry_ts = 100751768123447 WHERE id = 7').run();
  db.close();
  const damaged = await quanta(['journal', 'check', '--journal', path, '--json']);
  expect(damaged.code, damaged.stderr).toBe(4);
  expect(JSON.parse(damaged.stdout)).toMatchObject({
    sound: false,
    orders: 19,
    pageProblems: [],
    rowProblems: [
      'order 7: expiry_ts 100751768123447 is not a time quanta writes (ms since 1970, before 2100)',
    ],
    lostOrderIds: [7],
  });
}, 60_000);

it('salvage copies what can be read into a new journal that opens, lists the lost, never touches the original', async () => {
  const dir = tempDir();
  const path = join(dir, 'journal.sqlite');
  writeJournal(path, 20);
  const db = new Database(path);
  db.prepare("UPDATE orders SET amount_x18 = 'kjkbjjjjjjjjjjjj' WHERE id = 3").run();
  db.close();
  const before = readFileSync(path);
  const out = join(dir, 'salvaged.sqlite');
  const salvaged = await quanta(['journal', 'salvage', '--journal', path, '--out', out]);
  expect(salvaged.code, salvaged.stderr).toBe(0);
  expect(salvaged.stdout).toContain(
    `salvaged 19 orders and 3 stored values from ${path} into ${out}`,
  );
  expect(salvaged.stdout).toContain('order 3: amount_x18 "kjkbjjjjjjjjjjjj" is not an integer');
  expect(salvaged.stdout).toContain('orders not readable or not valid: 3');
  expect(readFileSync(path).equals(before)).toBe(true);
  expect(statSync(out).mode & 0o777).toBe(0o600);
  const journal = OrderJournal.open(out);
  expect(journal.all().map((record) => record.id)).toEqual([
    1,
    2,
    ...Array.from({ length: 17 }, (_, i) => i + 4),
  ]);
  expect(journal.kvGet('quanta:risk', 'baseline')).toBe('{"day":"2026-11-23","equity":"1000"}');
  journal.close();
  // It never overwrites.
  const again = await quanta(['journal', 'salvage', '--journal', path, '--out', out]);
  expect(again.code).toBe(2);
  expect(again.stderr).toContain(`${out} exists`);
}, 60_000);

it('backup copies a journal that a writer keeps committing to, consistent and whole', async () => {
  const dir = tempDir();
  const path = join(dir, 'journal.sqlite');
  writeJournal(path, 50);
  // A "running bot": the journal open, commits in its WAL not yet checkpointed into the file.
  const writer = OrderJournal.open(path);
  writer.insertPending(newOrder('0xfeed', { expiryTs: 1_795_435_300_000 }), 1_795_435_299_000);
  const out = join(dir, 'backup.sqlite');
  const backup = await quanta(['journal', 'backup', '--journal', path, '--out', out]);
  writer.close();
  expect(backup.code, backup.stderr).toBe(0);
  expect(backup.stdout).toContain(`backed up ${path} to ${out}`);
  expect(statSync(out).mode & 0o777).toBe(0o600);
  const check = await quanta(['journal', 'check', '--journal', out]);
  expect(check.code, check.stdout).toBe(0);
  // The commit still in the writer's WAL is in the backup.
  expect(check.stdout).toContain('51 valid orders');
}, 60_000);
