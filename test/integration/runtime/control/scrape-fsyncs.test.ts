/**
 * Issue 24: monitoring writes nothing. Readiness was a probe row written to the order journal
 * (`kvSet`, a commit with synchronous FULL: an fsync) on every `GET /readyz`, every `GET /status`
 * and every Prometheus scrape (the `quanta_ready` gauge), on the disk the order path waits on.
 * A running bot that has traded is scraped 100 times on each path in a child process under
 * strace, which sees every fsync/fdatasync; between the marks around the scrapes there must be
 * none. Before the fix: 300 probe commits, each fsynced, plus the checkpoints they caused.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { tempDir } from '../harness.ts';

const SCRIPT = fileURLToPath(new URL('./fixtures/scrape-fsyncs.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const MARK = '/nonexistent-quanta-scrape-mark/';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

it('100 scrapes each of /metrics, /readyz and /status make no fsync or fdatasync', async () => {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const trace = join(dir, 'trace');
  const run = spawnSync(
    'strace',
    [
      '-f',
      '-qq',
      '--seccomp-bpf',
      '-e',
      'trace=fsync,fdatasync,access,faccessat,faccessat2',
      '-o',
      trace,
      process.execPath,
      // `import … from 'quanta'` in the strategy resolves to src/, as under vitest.
      '--conditions=quanta-source',
      '--import',
      'tsx',
      SCRIPT,
      dir,
      '100',
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
  );
  if (run.error !== undefined) throw run.error;
  expect(run.status, run.stderr).toBe(0);
  // Every scrape answered, and the bot was ready throughout (so readiness was computed).
  expect(JSON.parse(run.stdout)).toEqual({
    ok200: { '/metrics': 100, '/readyz': 100, '/status': 100 },
    readyGauge: 100,
    readyInStatus: 100,
  });
  let inside = false;
  let marks = 0;
  const syncs: string[] = [];
  for (const line of (await readFile(trace, 'utf8')).split('\n')) {
    // "<pid> fsync(27) = 0" or "<pid> access("/nonexistent-…/start", F_OK) = -1 ENOENT …"
    const call = /^\d+\s+(\w+)\((.*)$/.exec(line);
    if (call === null) continue;
    const [, name = '', rest = ''] = call;
    const marked = rest.startsWith(`"${MARK}`) ? rest.slice(MARK.length + 1).split('"')[0] : '';
    if (marked === 'start' || marked === 'end') marks += 1;
    if (marked === 'start') inside = true;
    if (marked === 'end') break;
    if (inside && (name === 'fsync' || name === 'fdatasync')) syncs.push(line);
  }
  expect(marks).toBe(2);
  expect(syncs.length, syncs.slice(0, 5).join('\n')).toBe(0);
});
