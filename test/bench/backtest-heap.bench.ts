/**
 * Backtest memory benchmark: how much the heap grows over a long backtest of a strategy that
 * trades (`round-trip.strategy.ts`: a MARKET order every BENCH_HEAP_TRADE_EVERY snapshots, buying
 * when flat and selling back when long, so 10,000 orders, fills and position changes over the
 * default run), its orders journaled in a SQLite file on disk as live trading journals them
 * (`journalPath`: every write a full-sync commit), not in the backtest's default in-memory
 * journal. Retained state must grow with orders and trades, not snapshots. See README.md.
 *
 *   npm run bench -- backtest-heap
 *
 * Knobs: BENCH_HEAP_SNAPSHOTS (1,000,000), BENCH_HEAP_MARKETS (2), BENCH_HEAP_TRADE_EVERY (100).
 * Needs --expose-gc (run.ts).
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../src/config/index.ts';
import { buildBenchData, envInt, writeConfig } from './backtest-data.ts';
import { reportFigure } from './figures.ts';

const SNAPSHOTS = envInt('BENCH_HEAP_SNAPSHOTS', 1_000_000);
const MARKETS = envInt('BENCH_HEAP_MARKETS', 2);
const TRADE_EVERY = envInt('BENCH_HEAP_TRADE_EVERY', 100);
const gc = (globalThis as { gc?: () => void }).gc;
const MB = 1024 * 1024;

function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench does)');
  console.log(
    `backtest heap benchmark: a strategy trading every ${TRADE_EVERY} snapshots over ${SNAPSHOTS} snapshots of ${MARKETS} markets`,
  );
  const built = Date.now();
  const data = await buildBenchData({
    markets: MARKETS,
    snapshots: SNAPSHOTS,
    depth: 5,
    plain: false,
    gzip: true,
  });
  console.log(`recording built in ${((Date.now() - built) / 1000).toFixed(0)} s`);
  try {
    const config = await loadConfig(
      writeConfig(data.dir, 'round-trip', 'test/bench/round-trip.strategy.ts', ['M1-USD'], {
        every: TRADE_EVERY,
      }),
    );
    // Warm-up on a short recording: modules, strategy and engine code loaded once.
    const warm = await buildBenchData({
      markets: MARKETS,
      snapshots: 2000,
      depth: 5,
      plain: false,
    });
    await runBacktest({ config, data: warm.ours, projectRoot: process.cwd() });
    rmSync(warm.dir, { recursive: true, force: true });
    const journalPath = join(data.dir, 'journal.sqlite');
    const before = heapAfterGc();
    const step = Math.max(1, Math.floor(SNAPSHOTS / 10));
    const started = Date.now();
    const trace = await runBacktest({
      config,
      data: data.ours,
      projectRoot: process.cwd(),
      journalPath,
      onProgress: (done) => {
        if (done % step !== 0) return;
        const growth = (heapAfterGc() - before) / MB;
        const rate = done / ((Date.now() - started) / 1000);
        console.log(
          `  ${String(done).padStart(9)} snapshots: heap +${growth.toFixed(2)} MB (${rate.toFixed(0)}/s)`,
        );
      },
    });
    // The finished trace is held: what a run retains is measured, not collected.
    const growth = (heapAfterGc() - before) / MB;
    if (trace.snapshots !== SNAPSHOTS) throw new Error(`replayed ${trace.snapshots} snapshots`);
    const seconds = (Date.now() - started) / 1000;
    const fills = trace.fills.length;
    if (trace.orders.length < Math.floor(SNAPSHOTS / TRADE_EVERY) - 1 || fills === 0)
      throw new Error(
        `expected ${Math.floor(SNAPSHOTS / TRADE_EVERY)} orders, the run placed ${trace.orders.length} (${fills} fills)`,
      );
    const journalBytes = statSync(journalPath).size;
    if (journalBytes === 0) throw new Error(`the journal ${journalPath} is empty`);
    console.log(
      `${trace.orders.length} orders journaled on disk (${(journalBytes / MB).toFixed(1)} MB SQLite file), ` +
        `${fills} fills in ${seconds.toFixed(0)} s; kept ${trace.samples.length} of ` +
        `${trace.sampleCount ?? 0} samples; heap growth ${growth.toFixed(2)} MB ` +
        `(${((growth * MB) / trace.orders.length).toFixed(0)} B per order)`,
    );
    reportFigure({
      name: `backtest heap growth over ${SNAPSHOTS.toLocaleString('en-US')} snapshots, trading strategy`,
      measures:
        `heap after GC at the end of a backtest of ${SNAPSHOTS.toLocaleString('en-US')} snapshots (${MARKETS} markets, ` +
        `depth 5, gzip) of a strategy placing a MARKET order every ${TRADE_EVERY} snapshots ` +
        `(${trace.orders.length} orders and ${fills} fills with their positions, the orders journaled ` +
        `in a SQLite file on disk as live trading does, ${(journalBytes / MB).toFixed(1)} MB), the finished ` +
        `trace held; ${seconds.toFixed(0)} s`,
      baseline: 'heap after GC just before the run, modules warmed up on a short recording',
      goal: { atMost: 16 },
      unit: 'MB',
      rounds: [growth],
    });
  } finally {
    rmSync(data.dir, { recursive: true, force: true });
  }
}

await main();
