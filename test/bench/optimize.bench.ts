/**
 * Sweep benchmark (issue 16): how well `quanta optimize`'s worker-thread pool scales, and what
 * the pool adds to a parameter set, as ratios measured in the same run (docs/style.md §17).
 *
 *   npm run bench -- optimize
 *
 * Builds a synthetic recording (BENCH_SNAPSHOTS, default 600, one market, a random walk), then
 * per round, interleaved: S sets on a pool of one thread, S × cores sets on a pool of one thread
 * per core (both warmed up first: each thread has decoded the recording and loaded the strategy),
 * and the same S sets run one after the other by `runSet` in this process (the function each
 * pool thread runs, on the recording decoded once in this process too, no equity curve on either
 * side). Figures:
 *
 * - pool sets/s ÷ one thread's sets/s: goal at least 0.8 × cores;
 * - per-set time on a one-thread pool ÷ per-set time of the same sets run in process: what the
 *   pool adds (handing the task to a thread, the answer back), goal at most 1.1.
 */
import { availableParallelism } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingWriter } from '../../src/market/recording/index.ts';
import { createSnapshot } from '../../src/market/snapshot.ts';
import { createLocalPool, type SetRunner } from '../../src/optimize/local-pool.ts';
import { runSet, type SetTask } from '../../src/optimize/run-set.ts';
import { testMarket } from '../helpers/markets.ts';
import { reportFigure } from './figures.ts';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`${name}: expected a positive integer`);
  return value;
}

const SNAPSHOTS = envInt('BENCH_SNAPSHOTS', 600);
const ROUNDS = envInt('BENCH_ROUNDS', 5);
const SETS = envInt('BENCH_SETS', 24);
const CORES = availableParallelism();
const ROOT = join(import.meta.dirname, '..', '..');
const T0 = Date.UTC(2026, 0, 5);

const dir = mkdtempSync(join(tmpdir(), 'quanta-optimize-bench-'));
const data = join(dir, 'rec');
const configFile = join(dir, 'config.yaml');

async function writeRecording(): Promise<void> {
  let seed = 0x9e3779b9;
  const random = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const writer = await RecordingWriter.open({ dir: data, source: 'optimize bench' });
  let mid = 300_000; // cents
  for (let i = 0; i < SNAPSHOTS; i++) {
    mid += Math.round((random() - 0.5) * 200);
    const price = (cents: number): string => (cents / 100).toFixed(2);
    writer.write(
      createSnapshot({
        seq: i + 1,
        takenAt: T0 + i * 1000,
        markets: [testMarket()],
        quotes: [
          {
            marketId: 1,
            timestamp: T0 + i * 1000,
            bids: [1, 2, 3].map((k) => ({ price: price(mid - 5 * k), quantity: '50' })),
            asks: [1, 2, 3].map((k) => ({ price: price(mid + 5 * k), quantity: '50' })),
          },
        ],
      }),
    );
  }
  await writer.close();
  writeFileSync(
    configFile,
    `venue: { writeUrl: embedded, readUrl: embedded }
risk: { maxOrderNotional: '100000', maxPositionNotional: '10000000' }
strategies:
  - module: ${join(ROOT, 'strategies/mean-reversion.ts')}
    markets: [ETH-USD]
    params: { window: 10, entryZ: 1.5, exitZ: 0.3, orderAmount: '0.01', maxPosition: '0.05' }
`,
  );
}

let serial = 0;
function task(): SetTask {
  serial += 1;
  // Distinct sets (the window varies), the same work each.
  return {
    key: `bench/${serial}`,
    sweep: 'bench',
    setId: String(serial),
    configFile,
    data,
    projectRoot: ROOT,
    strategyIndex: 0,
    params: { window: 10 + (serial % 5), entryZ: 1.5 },
    window: null,
    curve: false,
  };
}

/** Sets per second of `count` sets on `runner` (all queued at once; the pool keeps them). */
async function rate(runner: SetRunner, count: number): Promise<number> {
  const started = performance.now();
  const outcomes = await Promise.all(Array.from({ length: count }, () => runner.run(task())));
  const seconds = (performance.now() - started) / 1000;
  for (const outcome of outcomes)
    if (outcome.metrics === null) throw new Error(`a set failed: ${outcome.error ?? ''}`);
  return count / seconds;
}

/** Sets per second of `count` sets run one after the other by `runSet` in this process. */
async function inProcessRate(count: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const outcome = await runSet(task());
    if (outcome.metrics === null) throw new Error(`a set failed: ${outcome.error ?? ''}`);
  }
  return count / ((performance.now() - started) / 1000);
}

await writeRecording();

const one = createLocalPool(1);
const all = createLocalPool(CORES);
try {
  // Warm-up, not counted: every thread decodes the recording, loads the strategy and runs a
  // round's sets, and so does this process. With 8 sets a thread, the first measured round
  // still ran colder code: the pool of CORES threads at about the rate of one thread (1.02-1.23x
  // against 1.4-1.9x in the rounds after it, five runs). A 600-snapshot backtest keeps getting
  // faster for about a dozen runs, so this process runs its sets twice over first.
  await rate(one, SETS);
  await rate(all, SETS * CORES);
  await inProcessRate(SETS);
  await inProcessRate(SETS);
  console.log(
    `${SETS} sets per round on one thread and in process, ${SETS * CORES} on ${CORES} threads; ` +
      `mean-reversion on ${SNAPSHOTS} snapshots of one market, windows 10-14, no equity curve`,
  );
  const scaling: number[] = [];
  const perSet: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const single = await rate(one, SETS);
    const pooled = await rate(all, SETS * CORES);
    const inProcess = await inProcessRate(SETS);
    scaling.push(pooled / single);
    perSet.push(inProcess / single);
    console.log(
      `round ${round + 1}: one thread ${single.toFixed(1)} sets/s, ${CORES} threads ${pooled.toFixed(1)} sets/s, ` +
        `in process ${inProcess.toFixed(1)} sets/s (one set ${(1000 / single).toFixed(1)} ms on the pool, ` +
        `${(1000 / inProcess).toFixed(1)} ms in process)`,
    );
  }
  reportFigure({
    name: `optimize pool sets/s (${CORES} threads) / one thread's sets/s`,
    measures: `${SETS * CORES} sets of mean-reversion (${SNAPSHOTS} snapshots, one market, no equity curve) queued at once on a pool of ${CORES} worker threads, sets/s`,
    baseline: `${SETS} of the same sets on a pool of one worker thread, sets/s, in the same round`,
    goal: { atLeast: 0.8 * CORES },
    unit: 'x',
    rounds: scaling,
  });
  reportFigure({
    name: 'optimize per-set time on a 1-thread pool / the same sets run in process',
    measures: `${SETS} sets queued on a pool of one worker thread (runSet in the thread on its cached decoded recording), time per set`,
    baseline: `the same ${SETS} sets run one after the other by runSet in the bench's own process, on the recording decoded once there too (no file decode on either side, no equity curve on either side)`,
    goal: { atMost: 1.1 },
    unit: 'x',
    rounds: perSet,
  });
} finally {
  await Promise.all([one.close(), all.close()]);
  rmSync(dir, { recursive: true, force: true });
}
