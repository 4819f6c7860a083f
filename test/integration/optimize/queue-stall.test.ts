/**
 * A `quanta worker` killed (SIGKILL) in the middle of a set loses nothing: its job's lock
 * expires, BullMQ's stalled-job check of the other worker puts the job back, and the other worker
 * runs it. Short locks (`--lock-ms 1000`) keep the test quick.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OptimizeResult } from '../../../src/optimize/optimize.ts';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.ts';
import { ROOT, runQuanta, startQuanta, type Running } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'quanta-optimize-stall-'));
let redis: RedisServer;
let doomed: Running;
let survivor: Running;

beforeAll(async () => {
  writeFileSync(
    join(dir, 'config.yaml'),
    `venue: { writeUrl: embedded, readUrl: embedded }
strategies:
  - module: ${join(ROOT, 'test/fixtures/strategies/slow.ts')}
    markets: [ETH-USD]
    params: { spinMs: 1500 }
`,
  );
  // Four sets of 1.5 s each: a worker is always in the middle of one.
  writeFileSync(
    join(dir, 'space.yaml'),
    'objective: pnl\nparams:\n  variant: { values: [1, 2, 3, 4] }\n',
  );
  redis = await startRedisServer();
  const worker = (): Running =>
    startQuanta(['worker', '--queue', redis.url, '--threads', '1', '--lock-ms', '1000']);
  doomed = worker();
  survivor = worker();
  await Promise.all([doomed.until(/worker: ready/), survivor.until(/worker: ready/)]);
}, 60_000);

afterAll(async () => {
  for (const worker of [doomed, survivor]) worker.child.kill('SIGKILL');
  await Promise.all([doomed.finished, survivor.finished]);
  await redis.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('quanta worker killed mid-set', () => {
  it('loses no set: the other worker takes its job over', async () => {
    const optimize = runQuanta([
      'optimize',
      '--config',
      join(dir, 'config.yaml'),
      '--data',
      'test/fixtures/recording',
      '--space',
      join(dir, 'space.yaml'),
      '--out',
      join(dir, 'out'),
      '--reports',
      '0',
      '--json',
      '--queue',
      redis.url,
    ]);
    // Killed as soon as it starts a set: it is 1.5 s from finishing it.
    await doomed.until(/worker: running \S+\n/);
    doomed.child.kill('SIGKILL');
    const jobId = /worker: running (\S+)\n/.exec(doomed.stderr())?.[1];
    expect((await doomed.finished).signal).toBe('SIGKILL');

    const finished = await optimize;
    expect(finished.code).toBe(0);
    const result = JSON.parse(finished.stdout) as OptimizeResult;
    expect(result.failed).toEqual([]);
    expect(result.ranking.map((row) => row.params['variant']).sort()).toEqual([1, 2, 3, 4]);
    // The set the killed worker held was run by the survivor.
    expect(survivor.stderr()).toContain(`worker: running ${jobId}\n`);
  }, 60_000);
});
