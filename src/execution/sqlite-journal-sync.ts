import type Database from 'better-sqlite3';
import { systemClock } from '../clock/clock.ts';
import { systemBackgroundTimer, type StartTimer } from '../clock/timers.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { BOOT_SCOPE, KV_SET } from './sqlite-journal-kv.ts';
import { kvRowSum } from './journal-row-sum.ts';
import { preallocateJournalWal } from './journal-wal-space.ts';

/** How long a disk journal must be quiet (no commit for a whole tick) before it checkpoints. */
const CHECKPOINT_IDLE_TICK_MS = 100;
/**
 * The WAL's bound when the journal is never quiet: some 330 orders, about 12 MB of WAL (measured:
 * 24 MB after 2000 commits of insert, sent and outcome). A checkpoint costs two fsyncs and copies
 * the few pages those commits keep rewriting, so a tighter bound costs little and keeps the
 * preallocated WAL small.
 */
const CHECKPOINT_AFTER_COMMITS = 1000;
/** What a disk journal's WAL is preallocated to at open (see `preallocateJournalWal`): the bound above with room. */
export const WAL_PREALLOCATED_BYTES = 16 * 1024 * 1024;

/** Options of {@link JournalSync}. */
export interface JournalSyncOptions {
  readonly onDisk: boolean;
  readonly startTimer?: StartTimer | undefined;
  readonly now?: (() => number) | undefined;
  readonly idleCheckpointCommits?: number | undefined;
}

/**
 * The durability policy of a journal file written by this process (see `SqliteJournalStore`):
 * a write that must survive power loss commits at synchronous FULL, so it is fsynced (an order's
 * row before its send); a write after the send commits at synchronous NORMAL (it survives the
 * process dying, and becomes durable against power loss with the next fsynced commit). The
 * connection is switched only when the next write needs the other setting (a PRAGMA statement
 * each way was two more statements per write), so it may rest at NORMAL between writes; every
 * write on it goes through here. A checkpoint syncs the same at either setting.
 *
 * WAL checkpoints (two fsyncs each) are kept off the order path: SQLite's automatic ones are
 * off, and this runs a PASSIVE checkpoint when the journal has been quiet for a tick (100-200
 * ms; `idleCheckpointCommits` may ask the WAL to hold more commits first), or after a post-answer write once the WAL holds 1000 commits; closing checkpoints the
 * rest. The tick is a one-shot timer armed by a commit and re-armed while commits keep coming,
 * so an idle journal starts no timer at all, and a simulation on virtual time (which injects
 * `startTimer`) checkpoints at the same virtual instants on every replay of a seed. A journal that is not a writable file (`:memory:`, read-only) has no policy: its writes
 * run as they come.
 */
export class JournalSync {
  readonly #db: Database.Database;
  readonly #onDisk: boolean;
  readonly #syncNormal: Database.Statement | undefined;
  readonly #syncFull: Database.Statement | undefined;
  readonly #checkpoint: Database.Statement | undefined;
  readonly #restartWal: Database.Statement | undefined;
  /** Commits since the last checkpoint, and their count at the last idle check. */
  #commits = 0;
  #commitsSeen = 0;
  readonly #startTimer: StartTimer;
  readonly #now: () => number;
  readonly #idleCheckpointCommits: number;
  /** The connection is at synchronous NORMAL now (else FULL, as the file was opened). */
  #atNormal = false;
  /** Cancels the armed quiet-tick timer; undefined when none is armed. */
  #cancelTick: (() => void) | undefined;

  /**
   * @param options.onDisk - a writable file (the policy applies), not `:memory:` or read-only.
   * @param options.startTimer - the quiet tick's timer; default a real one that does not hold
   *   the process open.
   * @param options.now - the wall clock stamped on the WAL restart row; default the system's.
   * @param options.idleCheckpointCommits - the fewest commits the WAL must hold for a quiet
   *   tick to checkpoint it; default 1 (every quiet tick after a write). The ticks themselves
   *   are armed and run the same whatever it is.
   */
  constructor(db: Database.Database, options: JournalSyncOptions) {
    this.#db = db;
    this.#onDisk = options.onDisk;
    this.#startTimer = options.startTimer ?? systemBackgroundTimer;
    this.#now = options.now ?? systemClock.now;
    this.#idleCheckpointCommits = options.idleCheckpointCommits ?? 1;
    if (!options.onDisk) return;
    this.#syncNormal = db.prepare('PRAGMA synchronous = NORMAL');
    this.#syncFull = db.prepare('PRAGMA synchronous = FULL');
    // Checkpoints are ours, not SQLite's: an automatic one runs inside whichever commit fills
    // the WAL past 1000 pages (two more fsyncs, often the insert an order waits for). We run
    // a PASSIVE one when the journal has been quiet for a tick, and after a write that follows
    // an answer once the WAL holds CHECKPOINT_AFTER_COMMITS commits (never before a send).
    db.pragma('wal_autocheckpoint = 0');
    this.#checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
    this.#restartWal = db.prepare(KV_SET);
  }

  /** Runs a write that must survive power loss: a commit at synchronous FULL (fsynced). */
  durable<T>(write: () => T): T {
    if (this.#atNormal) {
      this.#syncFull!.run();
      this.#atNormal = false;
    }
    const result = write();
    this.#counted();
    return result;
  }

  /** Runs a write after a send: committed without an fsync (see the class doc). */
  afterSend(write: () => void): void {
    if (!this.#onDisk) {
      write();
      return;
    }
    this.#toNormal();
    write();
    this.#counted();
  }

  /** Puts the connection at synchronous NORMAL (for writes after a send). */
  #toNormal(): void {
    if (this.#atNormal) return;
    this.#syncNormal!.run();
    this.#atNormal = true;
  }

  /** Checkpoints once the WAL holds its bound of commits (call after a write that follows a send). */
  checkpointIfDue(): void {
    if (this.#commits >= CHECKPOINT_AFTER_COMMITS) this.#checkpointNow();
  }

  /** Stops the idle checkpoints (closing the file checkpoints the rest). */
  stop(): void {
    this.#cancelTick?.();
    this.#cancelTick = undefined;
  }

  /** Counts a commit and, on a file, makes sure a quiet tick is armed to notice the quiet after it. */
  #counted(): void {
    this.#commits += 1;
    if (this.#onDisk && this.#cancelTick === undefined) this.#armTick();
  }

  #armTick(): void {
    this.#cancelTick = this.#startTimer(CHECKPOINT_IDLE_TICK_MS, () => {
      this.#cancelTick = undefined;
      this.#checkpointIfIdle();
    });
  }

  /** A PASSIVE checkpoint of the WAL (it never waits for readers); no-op when nothing was written. */
  #checkpointNow(): void {
    if (this.#checkpoint === undefined || this.#commits === 0 || !this.#db.open) return;
    try {
      this.#checkpoint.get();
    } catch {
      // Only a copy of committed pages: the WAL keeps them and the next checkpoint retries.
      return;
    }
    this.#commits = 0;
    this.#commitsSeen = 0;
    // The next write starts the WAL over, and with synchronous FULL SQLite fsyncs the new WAL
    // header first: a second fsync for the next order's insert. This write takes that restart
    // now, while the journal is quiet (one row of its own; not counted, so it calls for no checkpoint).
    try {
      this.#toNormal();
      // (A changed value: SQLite writes nothing for an unchanged one.)
      const at = String(this.#now());
      this.#restartWal!.run(
        BOOT_SCOPE,
        'walRestartedAt',
        at,
        kvRowSum(BOOT_SCOPE, 'walRestartedAt', at),
      );
    } catch {
      // Then the next commit restarts the WAL, as SQLite would anyway.
    }
  }

  /**
   * A tick passed: checkpoint if it saw no commit (and the WAL holds enough of them), else look
   * again a tick later.
   */
  #checkpointIfIdle(): void {
    if (this.#commits !== this.#commitsSeen) {
      this.#commitsSeen = this.#commits;
      this.#armTick();
    } else if (this.#commits >= this.#idleCheckpointCommits) this.#checkpointNow();
  }
}

/**
 * Writes the WAL's space (`preallocateJournalWal`, `bytes`: default {@link WAL_PREALLOCATED_BYTES})
 * under SQLite's write lock, so that no other
 * connection (a `quanta compare` opening the same journal) appends frames between the size read
 * and the zeros written after it. A disk without the room refuses the journal with a clear
 * error, the file left at its size: the commit before each send would soon fail there anyway.
 */
export function preallocateWal(
  db: Database.Database,
  walPath: string,
  bytes = WAL_PREALLOCATED_BYTES,
): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    preallocateJournalWal(walPath, bytes);
  } catch (cause) {
    throw new QuantaError(
      ErrorCodes.JOURNAL,
      `cannot write the ${bytes / 1024 / 1024} MB of the order journal's WAL at ${walPath}`,
      {
        cause,
        details: [
          'Free disk space where state.dir is: the journal needs it before the first order.',
        ],
      },
    );
  } finally {
    db.exec('COMMIT');
  }
}
