/**
 * Backtest benchmark (issue 17, item 1): market-rows per second of whole backtests, against a
 * naive JSONL decoder of the same snapshots measured in the same rounds (paired, interleaved).
 * See README.md in this folder.
 *
 *   npm run bench -- backtest.bench
 *
 * Size knobs (environment): BENCH_MARKETS (20), BENCH_SNAPSHOTS (5000), BENCH_DEPTH (10 levels a
 * side), BENCH_ROUNDS (3).
 */
import { rmSync } from 'node:fs';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../src/config/index.ts';
import { buildBenchData, envInt, naiveDecode, writeConfig } from './backtest-data.ts';
import { reportFigure } from './figures.ts';

const MARKETS = envInt('BENCH_MARKETS', 20);
const SNAPSHOTS = envInt('BENCH_SNAPSHOTS', 5000);
const DEPTH = envInt('BENCH_DEPTH', 10);
const ROUNDS = envInt('BENCH_ROUNDS', 3);
const ROOT = process.cwd();
const ROWS = MARKETS * SNAPSHOTS;

const gc = (globalThis as { gc?: (options?: { type: 'major' | 'minor' }) => void }).gc;

async function seconds(run: () => Promise<unknown>): Promise<number> {
  // Each case starts from a collected heap (with --expose-gc, as run.ts gives): otherwise a case
  // pays for collecting the garbage of the one before it (the naive decode leaves ~100 MB). A
  // major collection, not a bare gc(): that one also reduces memory by dropping optimized code
  // (--trace-opt: 50-90 functions optimized again in the next backtest, about 60-80 ms).
  gc?.({ type: 'major' });
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function main(): Promise<void> {
  console.log(
    `backtest benchmark: ${MARKETS} markets × ${SNAPSHOTS} snapshots, depth ${DEPTH}, ${ROUNDS} paired rounds`,
  );
  const data = await buildBenchData({
    markets: MARKETS,
    snapshots: SNAPSHOTS,
    depth: DEPTH,
    naive: true,
  });
  try {
    const symbols = ['M1-USD', 'M2-USD'];
    const doNothing = await loadConfig(
      writeConfig(data.dir, 'do-nothing', 'test/bench/do-nothing.strategy.ts', symbols),
    );
    // The shipped strategy with its default parameters, on two of the markets.
    const meanReversion = await loadConfig(
      writeConfig(data.dir, 'mean-reversion', 'strategies/mean-reversion.ts', symbols),
    );
    const backtest = (config: typeof doNothing) => async () => {
      const trace = await runBacktest({ config, data: data.ours, projectRoot: ROOT });
      if (trace.snapshots !== SNAPSHOTS) throw new Error(`replayed ${trace.snapshots} snapshots`);
      return trace;
    };
    const naive = async () => {
      const check = await naiveDecode(data.naive as string);
      if (check !== ROWS) throw new Error(`naive decode saw ${check} market rows`);
    };
    // Warm-up (module loading, JIT) outside the rounds: the rounds' own sequence, twice. One run
    // of each was not enough: the first measured do-nothing run still ran colder code (0.3 s
    // against 0.11-0.16 s after), its code reshaped by the mean-reversion run between them.
    for (let warm = 0; warm < 2; warm++) {
      await naive();
      await backtest(doNothing)();
      await naive();
      await backtest(meanReversion)();
    }
    let orders = 0;
    const quiet: number[] = [];
    const trading: number[] = [];
    console.log(
      `${'round'.padEnd(6)}${'naive s'.padStart(9)}${'do-nothing s'.padStart(14)}${'ratio'.padStart(7)}` +
        `${'naive s'.padStart(9)}${'mean-rev s'.padStart(12)}${'ratio'.padStart(7)}`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      const baseA = await seconds(naive);
      const idle = await seconds(backtest(doNothing));
      const baseB = await seconds(naive);
      let trace: Awaited<ReturnType<ReturnType<typeof backtest>>> | undefined;
      const busy = await seconds(async () => {
        trace = await backtest(meanReversion)();
      });
      orders = trace?.orders.length ?? 0;
      quiet.push(baseA / idle);
      trading.push(baseB / busy);
      console.log(
        `${String(round).padEnd(6)}${baseA.toFixed(2).padStart(9)}${idle.toFixed(2).padStart(14)}` +
          `${(baseA / idle).toFixed(2).padStart(7)}${baseB.toFixed(2).padStart(9)}` +
          `${busy.toFixed(2).padStart(12)}${(baseB / busy).toFixed(2).padStart(7)}`,
      );
    }
    console.log(`mean-reversion placed ${orders} orders per run`);
    reportFigure({
      name: 'backtest do-nothing market-rows/s / naive JSONL decode',
      goal: { atLeast: 10 },
      unit: 'x',
      rounds: quiet,
    });
    reportFigure({
      name: 'backtest mean-reversion / naive decode',
      goal: { atLeast: 3 },
      unit: 'x',
      rounds: trading,
    });
  } finally {
    rmSync(data.dir, { recursive: true, force: true });
  }
}

await main();
