/**
 * Issue 12, item 5: one bot per `state.dir`. The lock is a file holding the owner's pid (and
 * host), created atomically, released on shutdown and on process exit; a lock whose pid is dead
 * is stale and taken over. A second bot is refused with exit 2 naming the owner's pid. A
 * `state.dir` that cannot be written is a clear error that keeps its cause.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../src/cli/exit-codes.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { lockStateDir, STATE_LOCK_FILE } from '../../../src/runtime/state-lock.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

let dir: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quanta-state-lock-'));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function caught(run: () => unknown): QuantaError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    return error as QuantaError;
  }
  return expect.fail('expected a QuantaError');
}

function lockFile(): string {
  return join(dir, STATE_LOCK_FILE);
}

/** A process that only waits, to stand for another bot; resolves once it runs. */
async function otherProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); console.log("up")'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(child);
  await new Promise<void>((done) => child.stdout?.once('data', () => done()));
  return child;
}

function ownerLine(pid: number, host = hostname()): string {
  return `${JSON.stringify({ pid, host, startedAt: '2025-01-01T00:00:00.000Z' })}\n`;
}

describe('lockStateDir', () => {
  it('creates state.dir and a lock holding this pid; a second lock is refused (exit 2) until release', () => {
    const stateDir = join(dir, 'nested', 'state');
    const lock = lockStateDir(stateDir);
    const file = join(stateDir, STATE_LOCK_FILE);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      pid: process.pid,
      host: hostname(),
    });

    const error = caught(() => lockStateDir(stateDir));
    expect(error.code).toBe(ErrorCodes.STATE_DIR_LOCKED);
    expect(exitCodeFor(error)).toBe(2);
    expect(error.message).toContain(`pid ${process.pid}`);

    lock.release();
    expect(existsSync(file)).toBe(false);
    lock.release(); // twice is harmless
    lockStateDir(stateDir).release();
  });

  it('refuses while another live process holds it, naming its pid; takes it over once that pid is dead', async () => {
    const other = await otherProcess();
    const pid = other.pid ?? expect.fail('no pid');
    writeFileSync(lockFile(), ownerLine(pid));

    const error = caught(() => lockStateDir(dir));
    expect(error.code).toBe(ErrorCodes.STATE_DIR_LOCKED);
    expect(exitCodeFor(error)).toBe(2);
    expect(error.message).toContain(`in use by another bot (pid ${pid})`);
    expect(error.message).toContain(lockFile());

    const exited = new Promise((done) => other.once('exit', done));
    other.kill('SIGKILL');
    await exited;
    const lock = lockStateDir(dir);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('a lock left by an earlier process with this same pid (a container restarted as pid 1) is stale', () => {
    writeFileSync(lockFile(), ownerLine(process.pid));
    const lock = lockStateDir(dir);
    // Taken over: the file is this lock's now (its own start time), and this lock releases it.
    const owner = JSON.parse(readFileSync(lockFile(), 'utf8')) as { startedAt: string };
    expect(owner.startedAt).not.toBe('2025-01-01T00:00:00.000Z');
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('an unreadable lock file is stale: it is taken over, and released like any other', () => {
    writeFileSync(lockFile(), 'garbage');
    const lock = lockStateDir(dir);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({
      pid: process.pid,
      host: hostname(),
    });
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('a lock from another host cannot be checked, so it holds; the error says what to delete', () => {
    writeFileSync(lockFile(), ownerLine(1, 'other-host'));
    const error = caught(() => lockStateDir(dir));
    expect(error.code).toBe(ErrorCodes.STATE_DIR_LOCKED);
    expect(error.message).toContain('pid 1 on other-host');
    expect(error.message).toContain(`delete ${lockFile()}`);
  });

  it('release does not remove a lock that is no longer this one', () => {
    const lock = lockStateDir(dir);
    writeFileSync(lockFile(), ownerLine(1, 'other-host'));
    lock.release();
    expect(readFileSync(lockFile(), 'utf8')).toBe(ownerLine(1, 'other-host'));
  });

  it('is released when the process exits without releasing it', async () => {
    const script = `import(${JSON.stringify(join(ROOT, 'src/runtime/state-lock.ts'))}).then((m) => {
      m.lockStateDir(${JSON.stringify(dir)});
      process.exit(0);
    });`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((done) => child.once('exit', done));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(existsSync(lockFile())).toBe(false);
  }, 60_000);

  it('a state.dir that cannot be created or written is a clear error keeping the cause', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const error = caught(() => lockStateDir(join(file, 'state')));
    expect(error.code).toBe(ErrorCodes.STATE_DIR_UNWRITABLE);
    expect(exitCodeFor(error)).toBe(2);
    expect(error.message).toContain(`state.dir ${join(file, 'state')} is not writable (ENOTDIR)`);
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ENOTDIR');
  });
});
