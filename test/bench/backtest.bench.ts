/**
 * Backtest benchmark: market-rows per second of whole backtests and of the recording reader,
 * each against a plain `JSON.parse` of the same quotes measured right before it in the same round
 * (paired, interleaved). See README.md in this folder.
 *
 *   npm run bench -- backtest.bench
 *
 * Size knobs (environment): BENCH_MARKETS (20), BENCH_SNAPSHOTS (5000), BENCH_DEPTH (10 levels a
 * side), BENCH_ROUNDS (5).
 */
import { rmSync } from 'node:fs';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { loadConfig, type Config } from '../../src/config/index.ts';
import { readRecording } from '../../src/market/recording/index.ts';
import { buildBenchData, envInt, plainDecode, writeConfig } from './backtest-data.ts';
import { reportFigure, summarize } from './figures.ts';

const MARKETS = envInt('BENCH_MARKETS', 20);
const SNAPSHOTS = envInt('BENCH_SNAPSHOTS', 5000);
const DEPTH = envInt('BENCH_DEPTH', 10);
const ROUNDS = envInt('BENCH_ROUNDS', 5);
const ROOT = process.cwd();
const ROWS = MARKETS * SNAPSHOTS;

const gc = (globalThis as { gc?: (options?: { type: 'major' | 'minor' }) => void }).gc;
const counter = globalThis as { __quantaBenchLevels?: number };

async function seconds(run: () => Promise<unknown>): Promise<number> {
  // Each case starts from a collected heap (with --expose-gc, as run.ts gives): otherwise a case
  // pays for collecting the garbage of the one before it. A major collection, not a bare gc():
  // that one also drops optimized code, and the next case would run colder code.
  gc?.({ type: 'major' });
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

interface Case {
  readonly key: string;
  /** What it does, printed before the rounds. */
  readonly does: string;
  readonly figure: string;
  readonly goal: number;
  readonly run: () => Promise<void>;
}

async function main(): Promise<void> {
  console.log(
    `backtest benchmark: ${MARKETS} markets × ${SNAPSHOTS} snapshots, depth ${DEPTH}, ${ROUNDS} paired rounds`,
  );
  const data = await buildBenchData({
    markets: MARKETS,
    snapshots: SNAPSHOTS,
    depth: DEPTH,
    plain: true,
  });
  try {
    const all = Array.from({ length: MARKETS }, (_, i) => `M${i + 1}-USD`);
    const two = all.slice(0, 2);
    const config = (name: string, module: string, symbols: readonly string[], params = {}) =>
      loadConfig(writeConfig(data.dir, name, module, symbols, params));
    const bookReader = 'test/bench/book-readers.strategy.ts';
    const configs = {
      top: await config('top', bookReader, all, { depth: 'top' }),
      every: await config('every', bookReader, all, { depth: 'all' }),
      // The shipped strategy with its default parameters, on two of the markets.
      meanReversion: await config('mean-reversion', 'strategies/mean-reversion.ts', two),
      doNothing: await config('do-nothing', 'test/bench/do-nothing.strategy.ts', all),
    };
    let orders = 0;
    const backtest = async (cfg: Config, levels: number | undefined): Promise<void> => {
      counter.__quantaBenchLevels = 0;
      const trace = await runBacktest({ config: cfg, data: data.ours, projectRoot: ROOT });
      if (trace.snapshots !== SNAPSHOTS) throw new Error(`replayed ${trace.snapshots} snapshots`);
      if (levels !== undefined && counter.__quantaBenchLevels !== levels)
        throw new Error(`the strategy read ${counter.__quantaBenchLevels} levels, not ${levels}`);
      if (cfg === configs.meanReversion) {
        orders = trace.orders.length;
        if (orders === 0) throw new Error('mean-reversion placed no orders');
      }
    };
    const readerAlone = async (): Promise<void> => {
      let levels = 0;
      let chars = 0;
      for await (const snapshot of readRecording(data.ours)) {
        for (const quote of snapshot.quotes?.values() ?? []) {
          for (const level of quote.bids) chars += level.price.length + level.quantity.length;
          for (const level of quote.asks) chars += level.price.length + level.quantity.length;
          levels += quote.bids.length + quote.asks.length;
        }
      }
      if (levels !== ROWS * 2 * DEPTH || chars === 0)
        throw new Error(`the reader built ${levels} levels, not ${ROWS * 2 * DEPTH}`);
    };
    const plain = async (): Promise<void> => {
      const quotes = await plainDecode(data.plain as string);
      if (quotes !== ROWS) throw new Error(`plain decode saw ${quotes} quotes, not ${ROWS}`);
    };
    const cases: Case[] = [
      {
        key: 'top of book',
        does: `backtest of a strategy reading the best bid and ask (price and quantity, with bestBid/bestAsk) of all ${MARKETS} markets every snapshot`,
        figure: `backtest reading best bid+ask of all ${MARKETS} markets / plain JSON.parse`,
        goal: 10,
        run: () => backtest(configs.top, ROWS * 2),
      },
      {
        key: 'every level',
        does: `backtest of a strategy reading every level of both sides of all ${MARKETS} markets every snapshot`,
        figure: `backtest reading every level of all ${MARKETS} markets / plain JSON.parse`,
        goal: 3,
        run: () => backtest(configs.every, ROWS * 2 * DEPTH),
      },
      {
        key: 'reader alone',
        does: `readRecording alone (no backtest), every level of every market's quote read`,
        figure: `recording reader building every level of ${MARKETS} markets / plain JSON.parse`,
        goal: 3,
        run: readerAlone,
      },
      {
        key: 'mean-reversion',
        does: 'backtest of the shipped strategies/mean-reversion.ts, default params, on 2 markets (it trades)',
        figure: 'backtest of shipped mean-reversion on 2 markets / plain JSON.parse',
        goal: 4,
        run: () => backtest(configs.meanReversion, undefined),
      },
      {
        key: 'do-nothing',
        does: `backtest of a strategy naming all ${MARKETS} markets that reads nothing and never trades (the loop's own cost)`,
        figure: `backtest do-nothing on ${MARKETS} markets / plain JSON.parse`,
        goal: 10,
        run: () => backtest(configs.doNothing, undefined),
      },
    ];
    const baseline =
      `JSON.parse of each line of a plain JSONL file of the same ${SNAPSHOTS} snapshots ` +
      `(every quote's levels as {price, quantity} objects; market rows only on the line where they ` +
      `change, as our recorder writes them), timed right before the case in each round`;
    console.log(`baseline (plain): ${baseline}`);
    for (const c of cases) console.log(`${c.key}: ${c.does}`);
    // Warm-up (module loading, JIT) outside the rounds: the rounds' own sequence, twice (after one
    // run of each, the first measured backtest still ran colder code).
    for (let warm = 0; warm < 2; warm++) {
      for (const c of cases) {
        await plain();
        await c.run();
      }
    }
    const ratios = new Map<string, number[]>(cases.map((c) => [c.key, []]));
    const times = new Map<string, number[]>(cases.map((c) => [c.key, []]));
    const plainTimes: number[] = [];
    console.log(
      `\n${'round'.padEnd(6)}${cases.map((c) => `${'plain s'.padStart(8)}${`${c.key} s`.padStart(18)}${'ratio'.padStart(7)}`).join('')}`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      let line = String(round).padEnd(6);
      for (const c of cases) {
        const base = await seconds(plain);
        const ours = await seconds(c.run);
        plainTimes.push(base);
        ratios.get(c.key)?.push(base / ours);
        times.get(c.key)?.push(ours);
        line += `${base.toFixed(2).padStart(8)}${ours.toFixed(2).padStart(18)}${(base / ours).toFixed(2).padStart(7)}`;
      }
      console.log(line);
    }
    const rate = (values: readonly number[]): string =>
      `${Math.round(ROWS / summarize(values).median / 1000)}k market-rows/s`;
    console.log(`\nmedians: plain JSON.parse ${rate(plainTimes)}`);
    for (const c of cases) console.log(`  ${c.key}: ${rate(times.get(c.key) ?? [])}`);
    console.log(`mean-reversion placed ${orders} orders per run`);
    for (const c of cases) {
      reportFigure({
        name: c.figure,
        measures: `${c.does}; ${MARKETS} markets × ${SNAPSHOTS} snapshots, ${DEPTH} levels a side, market-rows/s`,
        baseline,
        goal: { atLeast: c.goal },
        unit: 'x',
        rounds: ratios.get(c.key) ?? [],
      });
    }
  } finally {
    rmSync(data.dir, { recursive: true, force: true });
  }
}

await main();
