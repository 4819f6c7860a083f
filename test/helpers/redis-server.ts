/**
 * Debian's `redis-server`, started by a test on a free loopback port with its own temporary
 * folder (no persistence), for the shared rate budget (issue 15) and the BullMQ sweep queue
 * (issue 16). `npm test`'s pretest installs the binary when it is missing; without it the test
 * fails and says how to get it, it is never skipped.
 *
 * @example
 *   const redis = await startRedisServer();
 *   afterEach(() => redis.stop());
 *   // redis.url === 'redis://127.0.0.1:PORT'
 *   await redis.stop();    // like a crash of the machine: SIGKILL, port closed
 *   await redis.restart(); // the same port again, empty
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

const INSTALL_HINT =
  'the redis-server binary is missing: run `npm test` (its pretest installs it as root) or `sudo apt-get install -y redis-server`';

export interface RedisServer {
  /** `redis://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  /** Whether the server process is running now. */
  readonly running: boolean;
  /** SIGKILL the server (the port closes at once); a later `restart` brings it back. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  restart(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing is answered (a hung server), until `thaw`. */
  freeze(): void;
  /** SIGCONT after `freeze`. */
  thaw(): void;
  /** Stops it for good and removes its folder. */
  dispose(): Promise<void>;
}

/** The redis-server binary on PATH, or a failure that says how to get it. */
export function redisServerBinary(): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  if (found.status !== 0 || path === '') throw new Error(INSTALL_HINT);
  return path;
}

/**
 * Resolves once the redis-server on the port is the process `pid` (its `INFO server` says so),
 * or rejects after `timeoutMs`, or at once when another process answers there: the free port
 * was free when looked at, but a test file running beside this one can take it before our
 * server binds it, and a PONG from that server would have passed for ours.
 */
async function waitForOwnServer(
  port: number,
  server: ChildProcess,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null)
      throw new Error(`redis-server on port ${String(port)} exited before answering`);
    const answeredBy = await new Promise<number | undefined>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.setTimeout(500, () => {
        socket.destroy();
        resolve(undefined);
      });
      socket.once('error', () => resolve(undefined));
      socket.on('data', (chunk) => {
        answer += chunk.toString('utf8');
        const pid = /\r\nprocess_id:(\d+)\r\n/.exec(answer);
        if (pid !== null || answer.startsWith('-')) {
          socket.destroy();
          resolve(pid === null ? undefined : Number(pid[1]));
        }
      });
      socket.once('connect', () => socket.write('INFO server\r\n'));
    });
    if (answeredBy === server.pid) return;
    if (answeredBy !== undefined)
      throw new Error(
        `port ${String(port)} is answered by another redis-server (pid ${String(answeredBy)})`,
      );
    if (Date.now() > deadline)
      throw new Error(`redis-server on port ${String(port)} did not answer INFO`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts a fresh redis-server; call `dispose()` when the test is done. */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = redisServerBinary();
  const dir = mkdtempSync(join(tmpdir(), 'quanta-redis-'));
  let port = await freePort();
  let child: ChildProcess | undefined;
  let stderr = '';

  const launch = async (): Promise<void> => {
    stderr = '';
    const started = spawn(
      binary,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    started.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child = started;
    try {
      await waitForOwnServer(port, started, 10_000);
    } catch (error) {
      started.kill('SIGKILL');
      throw new Error(`${(error as Error).message}${stderr === '' ? '' : `: ${stderr.trim()}`}`);
    }
  };

  const kill = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };

  // A port taken between freePort and the server's bind (by a test file running beside this
  // one) is given up for another; later restarts keep the port the clients were given.
  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt === 3) throw error;
      port = await freePort();
    }
  }
  return {
    url: `redis://127.0.0.1:${String(port)}`,
    port,
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    stop: kill,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    restart: async () => {
      await kill();
      await launch();
    },
    dispose: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
