/** Runs `quanta optimize` / `quanta worker` as real processes for the sweep tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from '../../helpers/strategy-harness.ts';

export { ROOT };

export interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A `quanta` process with its output collected; `until` resolves once stderr matches. */
export interface Running {
  readonly child: ChildProcess;
  readonly finished: Promise<Finished>;
  stderr(): string;
  until(pattern: RegExp): Promise<void>;
}

export function startQuanta(args: readonly string[]): Running {
  const child = spawn(process.execPath, ['bin/quanta.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, QUANTA_LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const waiter of [...waiters])
      if (waiter.pattern.test(stderr)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  });
  const finished = new Promise<Finished>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    child,
    finished,
    stderr: () => stderr,
    until: (pattern) =>
      new Promise<void>((resolve, reject) => {
        if (pattern.test(stderr)) return resolve();
        waiters.push({ pattern, resolve });
        void finished.then(() =>
          reject(new Error(`process ended before stderr matched ${pattern}:\n${stderr}`)),
        );
      }),
  };
}

export async function runQuanta(args: readonly string[]): Promise<Finished> {
  return startQuanta(args).finished;
}
