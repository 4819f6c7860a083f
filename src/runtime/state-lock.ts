import { systemClock } from '../clock/clock.ts';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { ErrorCodes, QuantaError } from '../errors/index.ts';

/** The lock file's name inside `state.dir`. */
export const STATE_LOCK_FILE = 'quanta.lock';

/** An exclusive hold on a `state.dir`. */
export interface StateLock {
  /** The lock file. */
  readonly file: string;
  /** Removes the lock file if it is still this one. Safe to call twice. */
  release(): void;
}

/** Who holds a lock, as written in its file. */
interface LockOwner {
  readonly pid: number;
  readonly host: string;
}

// Lock files this process holds: a second bot in the same process is refused like one in
// another process, while a file naming this pid that is not among them was left by an earlier
// process that had the same pid (a container restarted as pid 1).
const held = new Set<string>();

// How often a lock found stale is taken over before giving up: each round can only lose to
// another process that took it in between, which the next round sees.
const ATTEMPTS = 5;

/**
 * Takes the exclusive lock on `stateDir` (one bot per state dir: its journal and position book
 * belong to that bot). Creates the directory if needed, so this is also the check that it can be
 * written, made before anything is registered or sent. The lock file holds the owner's pid and
 * host; a lock whose pid is no longer running on this host is stale and taken over. The lock is
 * released by `release()` and, failing that, when the process exits.
 *
 * @throws QuantaError `QUANTA_STATE_DIR_LOCKED` naming the other bot's pid (and host) and the lock
 *   file; `QUANTA_STATE_DIR_UNWRITABLE` when the directory cannot be created or written (the
 *   cause, e.g. EROFS or EACCES, is kept).
 */
export function lockStateDir(stateDir: string): StateLock {
  const dir = resolve(stateDir);
  const file = join(dir, STATE_LOCK_FILE);
  const host = hostname();
  const content = `${JSON.stringify({ pid: process.pid, host, startedAt: new Date(systemClock.now()).toISOString() })}\n`;
  if (held.has(file)) throw locked(dir, file, { pid: process.pid, host });
  attempt(dir, () => mkdirSync(dir, { recursive: true }));

  for (let round = 0; round < ATTEMPTS; round++) {
    if (create(dir, file, content)) return hold(file, content);
    const seen = readOwner(file);
    if (seen === 'gone') continue;
    if (seen.owner !== undefined && isLive(seen.owner, host)) throw locked(dir, file, seen.owner);
    takeOver(dir, file, seen.text);
  }
  const last = readOwner(file);
  throw locked(dir, file, last === 'gone' ? undefined : last.owner);
}

/** Creates the lock file with its full content in one step; false if it exists. */
function create(dir: string, file: string, content: string): boolean {
  // Written beside it, then linked into place: the lock file never exists half-written, so a
  // reader never mistakes a lock being taken for a broken one.
  const temp = `${file}.${process.pid}.tmp`;
  attempt(dir, () => {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  });
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if (errnoOf(error) === 'EEXIST') return false;
    throw unwritable(dir, error);
  } finally {
    unlinkSync(temp);
  }
}

/**
 * Removes a stale lock without removing a fresh one another process took in between: the file
 * is first moved aside, and put back if it is not the stale one read before.
 */
function takeOver(dir: string, file: string, staleText: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return;
    throw unwritable(dir, error);
  }
  let movedText: string | undefined;
  try {
    movedText = readFileSync(aside, 'utf8');
  } catch {
    movedText = undefined;
  }
  if (movedText !== staleText) {
    try {
      linkSync(aside, file);
    } catch {
      // Someone created a lock meanwhile: theirs stands.
    }
  }
  unlinkSync(aside);
}

function readOwner(file: string): 'gone' | { text: string; owner: LockOwner | undefined } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return 'gone';
    throw error;
  }
  return { text, owner: parseOwner(text) };
}

// A file that is not a lock of ours (empty, edited, another format) holds nothing: the lock is
// always written whole, so a live bot's lock always parses.
function parseOwner(text: string): LockOwner | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { pid, host } = value as Record<string, unknown>;
    if (!Number.isSafeInteger(pid) || (pid as number) <= 0 || typeof host !== 'string') {
      return undefined;
    }
    return { pid: pid as number, host };
  } catch {
    return undefined;
  }
}

/** Whether `owner` may still be running. Another host's process cannot be checked: it holds. */
function isLive(owner: LockOwner, host: string): boolean {
  if (owner.host !== host) return true;
  if (owner.pid === process.pid) return false; // not in `held`: an earlier process's lock
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists under another user.
    return errnoOf(error) !== 'ESRCH';
  }
}

function hold(file: string, content: string): StateLock {
  held.add(file);
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    held.delete(file);
    process.off('exit', release);
    try {
      if (readFileSync(file, 'utf8') === content) unlinkSync(file);
    } catch {
      // Already gone, or the directory went read-only: the pid check makes it stale anyway.
    }
  };
  // A process that exits without shutting the bot down (process.exit, an uncaught error) still
  // leaves no lock behind; after a SIGKILL the dead pid makes it stale.
  process.on('exit', release);
  return { file, release };
}

function attempt(dir: string, run: () => void): void {
  try {
    run();
  } catch (error) {
    throw unwritable(dir, error);
  }
}

function unwritable(dir: string, cause: unknown): QuantaError {
  const code = errnoOf(cause) ?? (cause instanceof Error ? cause.message : String(cause));
  return new QuantaError(
    ErrorCodes.STATE_DIR_UNWRITABLE,
    `state.dir ${dir} is not writable (${code})`,
    {
      cause,
      details: [
        'The bot keeps its lock, journal and credentials there. Make it writable or point state.dir elsewhere; nothing was sent to the venue.',
      ],
    },
  );
}

function locked(dir: string, file: string, owner: LockOwner | undefined): QuantaError {
  const who =
    owner === undefined
      ? 'another bot'
      : `another bot (pid ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`})`;
  return new QuantaError(ErrorCodes.STATE_DIR_LOCKED, `state.dir ${dir} is in use by ${who}`, {
    details: [
      'One bot per state.dir: its journal and positions belong to that bot. Stop it or give this bot another state.dir.',
      `If no such bot is running, delete ${file}.`,
    ],
  });
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
