/**
 * Issue 17, item 3: one fsync per order, and still before the order leaves. The trading stack
 * the bot builds (dispatcher → executor → disk journal) runs in a child process under strace,
 * which sees every fsync/fdatasync SQLite makes and, as marks, the moments each order is handed
 * to the transport. Before the fix each order paid three fsynced writes (the PENDING row, its
 * attempt, its outcome): 30 for 10 orders.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runUnderStrace } from '../../helpers/strace-syncs.ts';

const SCRIPT = fileURLToPath(new URL('./fixtures/journal-fsyncs.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MARK = '/nonexistent-quanta-fsync-mark/';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

type TraceEvent = 'fsync' | 'send' | 'start' | 'end' | 'snapshot';

/** Runs `snapshots` snapshots of `perSnapshot` orders under strace; the events between marks. */
async function traced(snapshots: number, perSnapshot: number, pauseMs = 0) {
  const dir = await mkdtemp(join(tmpdir(), 'quanta-fsyncs-'));
  dirs.push(dir);
  const { run, calls } = await runUnderStrace({
    script: SCRIPT,
    args: [join(dir, 'journal.sqlite'), String(snapshots), String(perSnapshot), String(pauseMs)],
    dir,
    cwd: ROOT,
    mark: MARK,
    timeoutMs: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  const events: TraceEvent[] = [];
  let inside = false;
  for (const call of calls) {
    const marked = call.kind === 'mark' ? call.name : '';
    if (marked === 'start') inside = true;
    if (!inside) continue;
    if (call.kind === 'sync') events.push('fsync');
    else if (marked === 'send' || marked === 'end' || marked === 'snapshot') events.push(marked);
    if (marked === 'end') break;
  }
  return { events, states: JSON.parse(run.stdout) as Record<string, number> };
}

describe('the disk journal fsyncs once per order, before the order leaves', () => {
  it('one order per snapshot: one fsync each, each before its send', async () => {
    const { events, states } = await traced(10, 1);
    expect(states).toEqual({ FILLED: 11 });
    expect(events.filter((e) => e === 'send')).toHaveLength(10);
    expect(events.filter((e) => e === 'fsync')).toHaveLength(10);
    // Every send is preceded by its own fsync: fsync, send, fsync, send, …
    expect(events.join(' ')).toBe(`${'fsync send '.repeat(10)}end`);
  });

  it('WAL checkpoints run while the journal is quiet, never in an order', async () => {
    const { events, states } = await traced(4, 1, 400);
    expect(states).toEqual({ FILLED: 5 });
    const text = events.join(' ');
    // From each snapshot's start to its send: the order's one fsync, nothing else.
    expect(text.match(/snapshot fsync send/g)).toHaveLength(4);
    // The pauses between them hold the checkpoints (WAL and file, and the WAL's restart).
    expect(events.filter((e) => e === 'fsync').length).toBeGreaterThanOrEqual(4 + 3 * 3);
  });

  it('the orders of one snapshot share one fsync, made before the first of them leaves', async () => {
    const { events, states } = await traced(4, 5);
    expect(states).toEqual({ FILLED: 25 });
    expect(events.filter((e) => e === 'send')).toHaveLength(20);
    expect(events.join(' ')).toBe(`${`fsync ${'send '.repeat(5)}`.repeat(4)}end`);
  });
});
