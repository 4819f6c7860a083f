/**
 * `quanta optimize` on the local worker-thread pool: 200 parameter sets over the fixture
 * recording give the same `--json` bytes on every run, and a sweep killed mid-run (SIGKILL)
 * resumes from its results.jsonl without running a finished set again.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runQuanta, startQuanta } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'quanta-optimize-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// 20 × 10 = 200 sets of the dca example.
const SPACE = `objective: pnl - 10 * maxDrawdownPct
constraints: { maxDrawdownPct: 0.05 }
params:
  everySnapshots: { from: 11, to: 30, step: 1 }
  quoteAmount: { values: ['10', '20', '50', '100', '200', '300', '400', '500', '700', '1000'] }
`;
const space = join(dir, 'space.yaml');
writeFileSync(space, SPACE);

const args = (out: string, threads = 2): string[] => [
  'optimize',
  '--config',
  'test/fixtures/configs/dca.yaml',
  '--data',
  'test/fixtures/recording',
  '--space',
  space,
  '--out',
  out,
  '--threads',
  String(threads),
  '--reports',
  '0',
  '--json',
];

function resultLines(out: string): { key: string }[] {
  const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').slice(1);
  return lines
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { key: string });
}

describe('quanta optimize on the local pool', () => {
  it('ranks 200 sets the same way twice, byte for byte, even when killed and resumed', async () => {
    const first = await runQuanta(args(join(dir, 'a')));
    expect(first.stderr).toContain('200/200 sets');
    expect(first.code).toBe(0);
    const result = JSON.parse(first.stdout) as {
      sets: number;
      ranking: { rank: number; score: string | null; passed: boolean }[];
    };
    expect(result.sets).toBe(200);
    expect(result.ranking).toHaveLength(200);
    expect(result.ranking.some((row) => !row.passed)).toBe(true);
    expect(readFileSync(join(dir, 'a', 'optimize.json'), 'utf8')).toBe(first.stdout);
    expect(readFileSync(join(dir, 'a', 'optimize.html'), 'utf8')).toContain('<svg');

    // The second run, on one thread, is killed once 30% of its sets are in, then started again.
    const out = join(dir, 'b');
    const killed = startQuanta(args(out, 1));
    await killed.until(/ 3\d% \d+\/200 sets/);
    killed.child.kill('SIGKILL');
    expect((await killed.finished).signal).toBe('SIGKILL');
    const before = resultLines(out).length;
    expect(before).toBeGreaterThanOrEqual(60);
    expect(before).toBeLessThan(200);

    const resumed = await runQuanta(args(out, 1));
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`resuming, ${before} of 200 sets done`);
    const after = resultLines(out);
    // Every set once: a set run again would have appended a second line for its key.
    expect(after).toHaveLength(200);
    expect(new Set(after.map((line) => line.key)).size).toBe(200);
    expect(resumed.stdout).toBe(first.stdout);
  }, 120_000);
});
