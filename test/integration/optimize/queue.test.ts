/**
 * `quanta optimize --queue` with two `quanta worker` processes against a real redis-server:
 * the same 200 sets give the same `--json` bytes as the local worker-thread pool.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.ts';
import { runQuanta, startQuanta, type Running } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'quanta-optimize-queue-'));
const space = join(dir, 'space.yaml');
writeFileSync(
  space,
  `objective: pnl - 10 * maxDrawdownPct
constraints: { maxDrawdownPct: 0.05 }
params:
  everySnapshots: { from: 11, to: 30, step: 1 }
  quoteAmount: { values: ['10', '20', '50', '100', '200', '300', '400', '500', '700', '1000'] }
`,
);
let redis: RedisServer;
const workers: Running[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  for (let i = 0; i < 2; i++)
    workers.push(startQuanta(['worker', '--queue', redis.url, '--threads', '1']));
  await Promise.all(workers.map((worker) => worker.until(/worker: ready/)));
}, 60_000);

afterAll(async () => {
  for (const worker of workers) worker.child.kill('SIGKILL');
  await Promise.all(workers.map((worker) => worker.finished));
  await redis.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const sweep = (out: string, extra: readonly string[]): string[] => [
  'optimize',
  '--config',
  'test/fixtures/configs/dca.yaml',
  '--data',
  'test/fixtures/recording',
  '--space',
  space,
  '--out',
  out,
  '--reports',
  '0',
  '--json',
  ...extra,
];

describe('quanta optimize --queue', () => {
  it('gives the local pool’s bytes with two quanta worker processes', async () => {
    const [queued, local] = await Promise.all([
      runQuanta(sweep(join(dir, 'queue'), ['--queue', redis.url])),
      runQuanta(sweep(join(dir, 'local'), ['--threads', '1'])),
    ]);
    expect(queued.code).toBe(0);
    expect(local.code).toBe(0);
    expect(JSON.parse(queued.stdout)).toMatchObject({ sets: 200, failed: [] });
    expect(queued.stdout).toBe(local.stdout);
    // Both workers ran sets.
    for (const worker of workers)
      expect(worker.stderr().match(/worker: running /g)?.length ?? 0).toBeGreaterThan(0);
  }, 90_000);
});
