/**
 * Runs a TypeScript script in a child Node under strace and reads back its fsync/fdatasync calls
 * and its marks: a script marks a moment by calling `access()` on `MARK + name` (a path that
 * does not exist), which strace records in order with the syncs. Shared by the tests that count
 * the journal's fsyncs.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One traced call: `sync` for fsync/fdatasync, or the name of a mark; `line` is strace's. */
export interface TracedCall {
  readonly kind: 'sync' | 'mark';
  readonly name: string;
  readonly line: string;
}

export interface StraceRun {
  readonly run: SpawnSyncReturns<string>;
  readonly calls: readonly TracedCall[];
}

/** Runs `node [--conditions] --import tsx SCRIPT ...args` under strace; trace file in `dir`. */
export async function runUnderStrace(options: {
  readonly script: string;
  readonly args: readonly string[];
  readonly dir: string;
  readonly cwd: string;
  readonly mark: string;
  readonly timeoutMs: number;
  readonly conditions?: string;
}): Promise<StraceRun> {
  const trace = join(options.dir, 'trace');
  const conditions = options.conditions === undefined ? [] : [`--conditions=${options.conditions}`];
  const run = spawnSync(
    'strace',
    [
      '-f',
      '-qq',
      // Stops the child only at the traced syscalls, not at every one.
      '--seccomp-bpf',
      '-e',
      'trace=fsync,fdatasync,access,faccessat,faccessat2',
      '-o',
      trace,
      process.execPath,
      ...conditions,
      '--import',
      'tsx',
      options.script,
      ...options.args,
    ],
    { cwd: options.cwd, encoding: 'utf8', timeout: options.timeoutMs },
  );
  if (run.error !== undefined) throw run.error;
  if (run.status !== 0) return { run, calls: [] };
  const calls: TracedCall[] = [];
  for (const line of (await readFile(trace, 'utf8')).split('\n')) {
    // "<pid> fsync(27) = 0" or "<pid> access("/nonexistent-…/send", F_OK) = -1 ENOENT …"
    const call = /^\d+\s+(\w+)\((.*)$/.exec(line);
    if (call === null) continue;
    const [, name = '', rest = ''] = call;
    if (name === 'fsync' || name === 'fdatasync') calls.push({ kind: 'sync', name, line });
    else if (rest.startsWith(`"${options.mark}`))
      calls.push({
        kind: 'mark',
        name: rest.slice(options.mark.length + 1).split('"')[0] ?? '',
        line,
      });
  }
  return { run, calls };
}
