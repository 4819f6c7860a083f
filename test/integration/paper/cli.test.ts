/**
 * `quanta paper` as a user runs it: a real process (node bin/quanta.js), its one JSON line, a
 * request to the URL it prints, and a clean exit on SIGTERM or SIGINT. Waits on process events,
 * never on timers.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// Generous: each spawn transpiles TypeScript on start, slow on a loaded machine.
const SPAWN_TIMEOUT_MS = 120_000;

type Child = ChildProcessByStdio<null, Readable, Readable>;
const children: Child[] = [];

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

function quanta(args: readonly string[]): Child {
  const child = spawn(process.execPath, ['bin/quanta.js', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Collects the whole output and resolves when the process has exited. */
function ended(child: Child): Promise<Ended> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Resolves with the first stdout line; rejects if the process ends first. */
function firstLine(child: Child): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end !== -1) resolve(text.slice(0, end));
    });
    child.once('exit', (code) => reject(new Error(`quanta exited (${code}) first: ${errors}`)));
  });
}

describe('quanta paper', () => {
  it(
    'prints one JSON line with the URL, serves the API there, and exits 0 on SIGTERM',
    async () => {
      const child = quanta(['paper', '--port', '0', '--seed', '3']);
      const exit = ended(child);
      const line = await firstLine(child);
      const info = JSON.parse(line) as { url: string; host: string; port: number };
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(info).toStrictEqual({ url: info.url, host: '127.0.0.1', port: info.port });
      expect(info.port).toBeGreaterThan(0);

      const res = await fetch(`${info.url}/api/v1/market`);
      expect(res.status).toBe(200);
      const envelope = (await res.json()) as { body: { markets: { Symbol: string }[] } };
      expect(envelope.body.markets.map((market) => market.Symbol)).toContain('ETH-USD');

      child.kill('SIGTERM');
      const result = await exit;
      expect(result).toMatchObject({ code: 0, signal: null, stderr: '' });
      // Exactly one line was printed.
      expect(result.stdout).toBe(`${line}\n`);
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'exits 0 on SIGINT too (a requested stop of the server), and closes the port',
    async () => {
      const child = quanta(['paper', '--rate-limit', '100']);
      const exit = ended(child);
      const { url } = JSON.parse(await firstLine(child)) as { url: string };
      expect((await fetch(`${url}/api/v1/quotes`)).status).toBe(200);
      child.kill('SIGINT');
      expect(await exit).toMatchObject({ code: 0, signal: null });
      await expect(fetch(`${url}/api/v1/quotes`)).rejects.toThrow();
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'answers an unknown flag or a bad value with the usage and exit code 2',
    async () => {
      const unknown = await ended(quanta(['paper', '--bogus']));
      expect(unknown.code).toBe(2);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr).toMatch(/^quanta paper: Unknown option '--bogus'/);
      expect(unknown.stderr).toContain(
        'usage: quanta paper [--host HOST] [--port N] [--seed N] [--rate-limit N]',
      );
      const badPort = await ended(quanta(['paper', '--port', '70000']));
      expect(badPort.code).toBe(2);
      expect(badPort.stderr).toMatch(
        /^quanta paper: --port: expected an integer from 0 to 65535, got "70000"/,
      );
      const badLimit = await ended(quanta(['paper', '--rate-limit', '0']));
      expect(badLimit.code).toBe(2);
      const positional = await ended(quanta(['paper', 'extra']));
      expect(positional.code).toBe(2);
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'exits 1 with a message when the port is taken',
    async () => {
      const blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      const address = blocker.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      try {
        const result = await ended(quanta(['paper', '--port', String(port)]));
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toBe(
          `quanta paper: paper venue: cannot listen on 127.0.0.1:${port} (EADDRINUSE)\n`,
        );
      } finally {
        await new Promise<void>((resolve) => blocker.close(() => resolve()));
      }
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'prints its usage for --help, and quanta lists it',
    async () => {
      const help = await ended(quanta(['paper', '--help']));
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: quanta paper /);
      const main = await ended(quanta(['help']));
      expect(main.code).toBe(0);
      expect(main.stdout).toContain(
        'quanta paper [--host HOST] [--port N] [--seed N] [--rate-limit N]',
      );
      const unknown = await ended(quanta(['nope']));
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/^quanta: unknown command "nope"/);
    },
    SPAWN_TIMEOUT_MS,
  );
});
