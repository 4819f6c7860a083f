/**
 * Issue 12, item 9: the journal holds signed order bytes and signatures: `journal.sqlite` and
 * SQLite's `-wal` and `-shm` files beside it are readable by the owner only (0600), whatever the
 * umask, and a journal left readable by an older version is tightened when opened.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { newOrder } from '../../helpers/journal-orders.ts';

let dir: string;
let umask: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quanta-journal-mode-'));
  umask = process.umask(0o022); // the usual umask: new files 0644 unless created otherwise
});
afterEach(() => {
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

function writeOne(journal: OrderJournal): void {
  journal.insertPending(newOrder('0x01'), 1000);
}

describe('journal file modes', () => {
  it('a new journal and its -wal/-shm files are 0600', () => {
    const path = join(dir, 'state', 'journal.sqlite');
    const journal = OrderJournal.open(path);
    try {
      writeOne(journal);
      for (const file of [path, `${path}-wal`, `${path}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect(modeOf(file), file).toBe('600');
      }
    } finally {
      journal.close();
    }
  });

  it('an existing journal readable by others is tightened, -wal and -shm included', () => {
    const path = join(dir, 'journal.sqlite');
    OrderJournal.open(path).close();
    chmodSync(path, 0o644);
    // Left behind by a crash of an older version (empty files are what SQLite starts from).
    writeFileSync(`${path}-wal`, '', { mode: 0o644 });
    writeFileSync(`${path}-shm`, '', { mode: 0o644 });
    const journal = OrderJournal.open(path);
    try {
      writeOne(journal);
      for (const file of [path, `${path}-wal`, `${path}-shm`])
        expect(modeOf(file), file).toBe('600');
    } finally {
      journal.close();
    }
  });
});
