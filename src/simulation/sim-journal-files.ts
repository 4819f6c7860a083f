import Database from 'better-sqlite3';
import { linkSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { markPathOf } from '../execution/journal-mark.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { DamageKind } from './fault-plan.ts';
import type { SimRandom } from './sim-random.ts';

/**
 * The journal's files as a crash leaves them, and the damage done to them while the bot is down
 * (issue 25: a `-wal` deleted after a crash, bytes flipped, a file cut short).
 */

/**
 * A journal's files at one moment (SQLite writes synchronously: no write in flight): the main
 * file's and the mark's bytes, and the `-wal` file as a second name of the very file SQLite
 * wrote. A live bot's WAL is preallocated to 16 MB (execution/journal-wal-space.ts; a simulated
 * one's to 64 KB, sim-bot.ts): copying 16 MB in and out took some 80 ms a crash on /dev/shm
 * under load, renaming takes none. Closing the handle
 * only reads the WAL (its checkpoint copies frames into the main file) and then deletes its
 * name, so the second name keeps every byte as the crash left it. An image's WAL is put back at
 * most once (by rename): {@link putImage} consumes it.
 */
export interface JournalImage {
  readonly main: Buffer;
  /** The second name of the `-wal` file; undefined when there was none or once it was put back. */
  wal: string | undefined;
  readonly mark: Buffer | undefined;
}

function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function putOrRemove(path: string, bytes: Buffer | undefined): void {
  if (bytes === undefined) rmSync(path, { force: true });
  else writeFileSync(path, bytes);
}

/** Where the image taken at a crash keeps its WAL (the state dir's name for it, plus a suffix). */
function imageWalPath(path: string): string {
  return `${path}-wal.crash-image`;
}

/** The journal at `path` as it is on disk now, open or not. */
export function takeImage(path: string): JournalImage {
  const main = readFileSync(path);
  const imageWal = imageWalPath(path);
  rmSync(imageWal, { force: true });
  let wal: string | undefined = imageWal;
  try {
    linkSync(`${path}-wal`, imageWal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    wal = undefined;
  }
  return { main, wal, mark: readIfThere(markPathOf(path)) };
}

/**
 * Puts `image` back in place of the journal's files (closed: no connection has them open).
 * The `-shm` index is removed: SQLite rebuilds it from the WAL, as after a reboot.
 * @param withMark - false: the mark is deleted, as an operator does after restoring a backup
 *   on purpose (docs/journal.md, "What an operator does", step 4).
 * @param withWal - false: the `-wal` file is left out (deleted), and the image keeps it.
 */
export function putImage(
  path: string,
  image: JournalImage,
  withMark: boolean,
  withWal = true,
): void {
  writeFileSync(path, image.main);
  rmSync(`${path}-wal`, { force: true });
  if (withWal && image.wal !== undefined) {
    renameSync(image.wal, `${path}-wal`);
    image.wal = undefined;
  }
  putOrRemove(markPathOf(path), withMark ? image.mark : undefined);
  rmSync(`${path}-shm`, { force: true });
}

/**
 * Damages the journal at `path` (closed) and says how, in words that do not depend on the file's
 * bytes (the trace of a seed must not change with them):
 * - `wal-lost`: its `-wal` file deleted (the journal as the crash left it, mark still open);
 * - `page-flip`: the page-type byte and cell count of one table's or index's root page flipped,
 *   in the file SQLite has folded its WAL into (a root page: always read, never a free page,
 *   whose stale bytes nobody reads);
 * - `truncated`: that file cut to half its size.
 */
export function damageJournal(path: string, kind: DamageKind, random: SimRandom): string {
  if (kind === 'wal-lost') {
    rmSync(`${path}-wal`, { force: true });
    return 'its -wal file deleted';
  }
  const file = readFileSync(path);
  if (kind === 'truncated') {
    truncateSync(path, file.length >> 1);
    return 'the file cut to half its size';
  }
  const roots = rootPages(path);
  const root = roots[random.int(0, roots.length - 1)]!;
  const stored = file.readUInt16BE(16);
  const pageSize = stored === 1 ? 65_536 : stored;
  // Page 1 starts with the file's 100-byte header; its b-tree header follows.
  const at = (root.page - 1) * pageSize + (root.page === 1 ? 100 : 0);
  for (const offset of [0, 3, 4]) file[at + offset] = file[at + offset]! ^ 0xff;
  writeFileSync(path, file);
  return `bytes flipped in the root page of ${root.name}`;
}

/** Every table's and index's root page, in page order. */
function rootPages(path: string): { name: string; page: number }[] {
  const db = new Database(path, { fileMustExist: true });
  try {
    const rows = db
      .prepare('SELECT name, rootpage AS page FROM sqlite_schema WHERE rootpage > 1 ORDER BY 2')
      .all() as { name: string; page: number }[];
    return rows;
  } finally {
    db.close();
  }
}

/**
 * The journal's files at a crash: as a SIGKILL leaves them (the WAL not folded in, the mark
 * still open), then damaged when `damage` says so. The handle is closed on the way (closing folds
 * the WAL in and deletes it: the files are put back as they were before).
 * @returns how the journal was damaged and the image an operator restores, or undefined.
 */
export function crashJournal(
  path: string,
  journal: OrderJournal,
  damage: DamageKind | undefined,
  random: SimRandom,
): { readonly how: string; readonly image: JournalImage } | undefined {
  const image = takeImage(path);
  journal.close();
  // A damaged page or a cut file is damage to the file SQLite folded its WAL into.
  // A lost WAL is the image without it (kept in the image for the operator's restore).
  if (damage !== 'page-flip' && damage !== 'truncated')
    putImage(path, image, true, damage !== 'wal-lost');
  if (damage === undefined) return undefined;
  return { how: damageJournal(path, damage, random), image };
}
