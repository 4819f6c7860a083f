/**
 * Runs `node bin/quanta.js …` as a child process. Asynchronous on purpose: the venue the child
 * talks to runs in this test process and must keep answering while the child runs.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './bot-run.ts';

/** How a `quanta` child process ended. */
export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Variables that would change how the child behaves, dropped from the inherited environment. */
const DROPPED = [
  'QUANTA_WALLET_KEY',
  'NODE_OPTIONS',
  'VITEST',
  'VITEST_POOL_ID',
  'VITEST_WORKER_ID',
];

/**
 * Runs `quanta <args>` from the repository root with `env` added to a cleaned copy of this
 * process's environment (an `undefined` value removes a variable).
 */
export function quanta(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<CliResult> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of DROPPED) delete childEnv[name];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'bin', 'quanta.js'), ...args],
      { cwd: ROOT, env: childEnv, timeout: 150_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
