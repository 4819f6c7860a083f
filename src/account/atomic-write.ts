import {
  closeSync,
  fsyncSync,
  openSync,
  renameSync,
  writeSync,
  mkdirSync,
  unlinkSync,
} from 'node:fs';
import { dirname, join, basename } from 'node:path';

/**
 * Writes `content` to `path` atomically with file mode 0600: a temp file in the same folder,
 * fsync, rename over the target, fsync the folder. A crash leaves the old file or the new one,
 * never half of either.
 */
export function writeFileAtomic(path: string, content: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  renameSync(temp, path);
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
