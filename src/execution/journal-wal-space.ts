import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';

/** The zeros written per call while preallocating (a reused buffer, not the whole size at once). */
const CHUNK_BYTES = 1 << 20;

/**
 * Makes the journal's WAL file at least `bytes` long, written (zeros) and synced, so that the
 * commits that follow write inside the file instead of growing it.
 *
 * Why: a commit that grows the WAL makes its fsync also commit the file's new size and blocks to
 * the filesystem's journal. On this project's machine (ext4 on a virtual disk) the fsynced commit
 * before each send took 1.03 ms p50 while the WAL grew against 0.61 ms inside a preallocated one,
 * in the same run, alternating order by order; once the WAL has reached its size (after the first
 * checkpoint SQLite writes it again from the start) both take the same time. A bot pays the
 * growth in its first ~700 orders after each start (SQLite deletes the WAL at a clean close).
 *
 * Why it is safe: SQLite takes a WAL frame as committed only when its salt matches the WAL
 * header's and its running checksum holds, and it stops reading at the first frame that does
 * not (a zero frame never does), so zeros after the last frame are never read as data, after a
 * crash either; SQLite truncates a WAL only when `journal_size_limit` is set (the journal leaves
 * it at its default, no limit). Only the zeros beyond the file's current end are written: frames
 * already there are never touched.
 *
 * The caller holds SQLite's write lock meanwhile (no other connection appends frames between the
 * size read here and the zeros written after it). A WAL that does not exist (yet, or beside a
 * symlinked database) is left to SQLite, which creates it on its first write.
 * @returns the bytes written (0 when the WAL was long enough or missing).
 */
export function preallocateJournalWal(walPath: string, bytes: number): number {
  let fd: number;
  try {
    fd = openSync(walPath, 'r+');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw cause;
  }
  try {
    const start = fstatSync(fd).size;
    if (start >= bytes) return 0;
    const zeros = Buffer.alloc(Math.min(CHUNK_BYTES, bytes - start));
    try {
      for (let at = start; at < bytes;) {
        at += writeSync(fd, zeros, 0, Math.min(zeros.length, bytes - at), at);
      }
      fdatasyncSync(fd);
    } catch (error) {
      // (A full disk:) the file as it was, not half grown.
      ftruncateSync(fd, start);
      throw error;
    }
    return bytes - start;
  } finally {
    closeSync(fd);
  }
}
