import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';

/** Owner read and write only: the journal holds signed order bytes and signatures. */
const PRIVATE_MODE = 0o600;

/**
 * Makes the journal file at `path` private before SQLite opens it: creates it 0600 when missing
 * and tightens an existing one (and `-wal`/`-shm` files left beside it) to 0600. SQLite creates
 * its `-wal` and `-shm` files with the database file's mode, so they come out 0600 as well,
 * whatever the umask.
 */
export function makeJournalFilesPrivate(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file)) chmodSync(file, PRIVATE_MODE);
  }
}
