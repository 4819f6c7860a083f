/**
 * Bars benchmark (issue 27): backtests on a year of imported 1-minute candles (525,600 bars, made
 * by candle-data.ts and imported once with `quanta import --kind candles`), each strategy's
 * bars/s held against a plain loop that only parses the same imported file once.
 *
 *   npm run bench -- bars
 *
 * Figures (paired rounds, baseline first, each round's ratio = backtest bars/s ÷ plain rows/s):
 * - do-nothing onBar (do-nothing-bars.strategy.ts): the cost of building and delivering bars;
 * - the example strategy (strategies/ema-cross.ts): EMA 9/21 + RSI 14 on 1m bars, with
 *   framework stop-loss/take-profit, trading.
 * Each round's bars/s is printed too.
 *
 * Size knobs: BENCH_CANDLES (525600), BENCH_ROUNDS (5).
 */
import { createReadStream, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { importHistory, readMarketRules } from '../../src/market/history/index.ts';
import { envInt } from './backtest-data.ts';
import { candleBacktestConfig, candleCsv, CANDLES_T0 } from './candle-data.ts';
import { reportFigure } from './figures.ts';

const CANDLES = envInt('BENCH_CANDLES', 525_600);
const ROUNDS = envInt('BENCH_ROUNDS', 5);
/** Candles of the warm-up run (JIT, module loading) before the timed rounds. */
const WARM_UP = 20_000;
const ROOT = join(import.meta.dirname, '..', '..');
const gc = (globalThis as { gc?: (options?: { type: string }) => void }).gc;
const counter = globalThis as { __quantaBenchBars?: number };

/** Characters of a candle line's seal (a tab and 8 hex digits), cut before JSON.parse. */
const SEAL = 9;

/**
 * The baseline: the imported candle file read once, plainly: gunzip, lines, each candle line's
 * seal cut off, JSON.parse, and its open, high, low and close read with Number (no seal check, no
 * exact decimals, no snapshot, no bar). Returns the candles read.
 */
async function plainParse(file: string): Promise<number> {
  const lines = createInterface({
    input: createReadStream(file).pipe(createGunzip()),
    crlfDelay: Infinity,
  });
  let line = 0;
  let candles = 0;
  let sum = 0;
  for await (const text of lines) {
    line += 1;
    if (line <= 2) continue; // the header and the market
    const row = JSON.parse(text.slice(0, text.length - SEAL)) as unknown[];
    if (row[0] === 'e') continue;
    sum += Number(row[1]) + Number(row[2]) + Number(row[3]) + Number(row[4]);
    candles += 1;
  }
  if (!Number.isFinite(sum)) throw new Error('baseline: a price did not parse');
  return candles;
}

const dir = mkdtempSync(join(tmpdir(), 'quanta-bars-bench-'));
try {
  const { market } = await readMarketRules(join(ROOT, 'test/fixtures/history/eth-usd.yaml'));
  const importCandles = async (count: number, out: string): Promise<string> => {
    const file = join(dir, `eth-1m-${String(count)}.csv.gz`);
    writeFileSync(file, candleCsv(count));
    const imported = await importHistory({
      kind: 'candles',
      market,
      files: [file],
      out,
      now: () => CANDLES_T0,
    });
    if (imported.snapshots !== count)
      throw new Error(
        `import gave ${String(imported.snapshots)} candles, expected ${String(count)}`,
      );
    return join(
      out,
      readdirSync(out).find((name) => name.endsWith('.candles.gz'))!,
    );
  };
  const data = join(dir, 'candles');
  const candleFile = await importCandles(CANDLES, data);
  // JIT warm-up on a short import: a warm-up round on the whole year would cost as much as a round.
  const warmData = join(dir, 'warm-up');
  const warmFile = await importCandles(Math.min(CANDLES, WARM_UP), warmData);

  const parseOnce = async (file = candleFile, count = CANDLES): Promise<number> => {
    const started = performance.now();
    const rows = await plainParse(file);
    const seconds = (performance.now() - started) / 1000;
    if (rows !== count) throw new Error(`baseline read ${String(rows)} candles`);
    return rows / seconds;
  };
  const cases = [
    {
      label: 'do-nothing onBar',
      config: await candleBacktestConfig(
        dir,
        'do-nothing-bars.yaml',
        join(ROOT, 'test/bench/do-nothing-bars.strategy.ts'),
      ),
      check: (fills: number, count: number): void => {
        if (counter.__quantaBenchBars !== count)
          throw new Error(
            `do-nothing onBar saw ${String(counter.__quantaBenchBars)} bars, expected ${String(count)}`,
          );
        if (fills !== 0) throw new Error('do-nothing traded');
      },
      name: 'bars backtest do-nothing onBar / plain parse',
      measures: `quanta backtest of test/bench/do-nothing-bars.strategy.ts (1m bars, an onBar that returns no intent) on ${String(CANDLES)} imported 1m candles: each line's seal checked, the candle read exactly (x18), a snapshot and a bar built and delivered, the portfolio valued`,
      goal: 0.25,
    },
    {
      label: 'ema-cross',
      config: await candleBacktestConfig(
        dir,
        'ema-cross.yaml',
        join(ROOT, 'strategies/ema-cross.ts'),
      ),
      check: (fills: number): void => {
        if (fills === 0) throw new Error('ema-cross never traded on the candles');
      },
      name: 'bars backtest ema-cross / plain parse',
      measures: `quanta backtest of strategies/ema-cross.ts (EMA 9/21 + RSI 14 on 1m bars, framework stop-loss/take-profit, trading) on the same ${String(CANDLES)} imported candles, candle fill rule`,
      goal: 0.1,
    },
  ];
  const backtestOnce = async (
    one: (typeof cases)[number],
    from = data,
    count = CANDLES,
  ): Promise<number> => {
    counter.__quantaBenchBars = 0;
    const started = performance.now();
    const trace = await runBacktest({ config: one.config, data: from, projectRoot: ROOT });
    const seconds = (performance.now() - started) / 1000;
    if (trace.snapshots !== count || trace.dataKind !== 'candles')
      throw new Error(`backtest: ${String(trace.snapshots)} ${String(trace.dataKind)} snapshots`);
    one.check(trace.fills.length, count);
    return count / seconds;
  };

  // Warm-up (module loading, JIT) on everything timed below.
  await parseOnce(warmFile, Math.min(CANDLES, WARM_UP));
  for (const one of cases) await backtestOnce(one, warmData, Math.min(CANDLES, WARM_UP));
  for (const one of cases) {
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      gc?.({ type: 'major' });
      const baseline = await parseOnce();
      gc?.({ type: 'major' });
      const ours = await backtestOnce(one);
      ratios.push(ours / baseline);
      console.log(
        `  ${one.label} round ${String(round + 1)}: ${ours.toFixed(0)} bars/s, plain parse ${baseline.toFixed(0)} rows/s`,
      );
    }
    reportFigure({
      name: one.name,
      measures: one.measures,
      baseline:
        "the same imported candle file read once: gunzip, readline, each line's seal cut off, JSON.parse, open/high/low/close read with Number (no seal check, nothing exact, no snapshot, no bar); timed right before the backtest in every round",
      goal: { atLeast: one.goal },
      unit: 'x',
      rounds: ratios,
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
