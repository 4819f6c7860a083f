/**
 * Issue 24: monitoring writes nothing. Readiness was a probe row written to the order journal
 * (`kvSet`, a commit with synchronous FULL: an fsync) on every `GET /readyz`, every `GET /status`
 * and every Prometheus scrape (the `quanta_ready` gauge), on the disk the order path waits on.
 * A running bot that has traded is scraped 100 times on each path in a child process under
 * strace, which sees every fsync/fdatasync; between the marks around the scrapes there must be
 * none. Before the fix: 300 probe commits, each fsynced, plus the checkpoints they caused.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { runUnderStrace } from '../../../helpers/strace-syncs.ts';
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
  const { run, calls } = await runUnderStrace({
    script: SCRIPT,
    args: [dir, '100'],
    dir,
    cwd: ROOT,
    mark: MARK,
    timeoutMs: 120_000,
    // `import … from 'quanta'` in the strategy resolves to src/, as under vitest.
    conditions: 'quanta-source',
  });
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
  for (const call of calls) {
    const marked = call.kind === 'mark' ? call.name : '';
    if (marked === 'start' || marked === 'end') marks += 1;
    if (marked === 'start') inside = true;
    if (marked === 'end') break;
    if (inside && call.kind === 'sync') syncs.push(call.line);
  }
  expect(marks).toBe(2);
  expect(syncs.length, syncs.slice(0, 5).join('\n')).toBe(0);
});
