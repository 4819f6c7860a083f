/**
 * Candle history benchmark (issue 28): a year of 1-minute candles (525,600 rows, generated here
 * deterministically as a gzip CSV, never committed) imported with `quanta import --kind candles`
 * and backtested end to end with the example strategy (strategies/ema-cross.ts).
 *
 *   npm run bench -- candles
 *
 * Figures:
 * - import rows/s as a ratio to a plain parse of the same file: gunzip, lines, `split(',')` and
 *   `Number` of every field, nothing checked or written (paired rounds, baseline first);
 * - backtest bars/s on the imported year (absolute: no other backtester runs here to compare).
 *
 * Size knobs: BENCH_CANDLES (525600), BENCH_ROUNDS (5 import rounds; the backtest runs
 * max(1, ROUNDS - 2) times).
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
const ROOT = join(import.meta.dirname, '..', '..');
const T0 = CANDLES_T0;
const gc = (globalThis as { gc?: (options?: { type: string }) => void }).gc;

/** The baseline: the same gzip file's lines split and every field read as a Number. */
async function plainParse(path: string): Promise<number> {
  const lines = createInterface({
    input: createReadStream(path).pipe(createGunzip()),
    crlfDelay: Infinity,
  });
  let rows = -1;
  let sum = 0;
  for await (const line of lines) {
    rows += 1;
    if (rows === 0) continue;
    for (const field of line.split(',')) sum += Number(field);
  }
  if (!Number.isFinite(sum)) throw new Error('baseline: a field did not parse');
  return rows;
}

const dir = mkdtempSync(join(tmpdir(), 'quanta-candles-bench-'));
try {
  const csv = join(dir, 'eth-1m.csv.gz');
  writeFileSync(csv, candleCsv(CANDLES));
  const { market } = await readMarketRules(join(ROOT, 'test/fixtures/history/eth-usd.yaml'));
  let out = '';
  const importOnce = async (round: number): Promise<number> => {
    out = join(dir, `candles-${String(round)}`);
    const started = performance.now();
    const summary = await importHistory({
      kind: 'candles',
      market,
      files: [csv],
      out,
      now: () => T0,
    });
    const seconds = (performance.now() - started) / 1000;
    if (summary.snapshots !== CANDLES || summary.timeframe !== '1m')
      throw new Error(
        `import: ${String(summary.snapshots)} candles of ${String(summary.timeframe)}, expected ${String(CANDLES)} of 1m`,
      );
    return CANDLES / seconds;
  };
  const parseOnce = async (): Promise<number> => {
    const started = performance.now();
    const rows = await plainParse(csv);
    const seconds = (performance.now() - started) / 1000;
    if (rows !== CANDLES) throw new Error(`baseline read ${String(rows)} rows`);
    return rows / seconds;
  };
  // Warm-up (module loading, JIT), then paired rounds: the baseline right before the import.
  await parseOnce();
  await importOnce(-1);
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    gc?.({ type: 'major' });
    const baseline = await parseOnce();
    gc?.({ type: 'major' });
    const ours = await importOnce(round);
    ratios.push(ours / baseline);
    console.log(
      `  round ${String(round + 1)}: import ${ours.toFixed(0)} rows/s, plain parse ${baseline.toFixed(0)} rows/s`,
    );
  }
  reportFigure({
    name: 'candle import rows/s / plain split+Number parse',
    measures: `quanta import --kind candles of ${String(CANDLES)} 1m candles (gzip CSV): every row split, read exactly (x18), checked (grid, high/low, time order and grid) and written to a sealed gzip candle file`,
    baseline:
      'the same gzip file through gunzip and readline, each line split on commas and every field read with Number (nothing checked, nothing written)',
    goal: { atLeast: 0.2 },
    unit: 'x',
    rounds: ratios,
  });

  const config = await candleBacktestConfig(
    dir,
    'config.yaml',
    join(ROOT, 'strategies/ema-cross.ts'),
  );
  const barsPerSecond: number[] = [];
  for (let round = 0; round < Math.max(1, ROUNDS - 2); round++) {
    gc?.({ type: 'major' });
    const started = performance.now();
    const trace = await runBacktest({ config, data: out, projectRoot: ROOT });
    const seconds = (performance.now() - started) / 1000;
    if (trace.snapshots !== CANDLES || trace.dataKind !== 'candles')
      throw new Error(`backtest: ${String(trace.snapshots)} ${String(trace.dataKind)} snapshots`);
    if (trace.fills.length === 0)
      throw new Error('backtest: ema-cross never traded on a year of candles');
    barsPerSecond.push(CANDLES / seconds);
    console.log(
      `  backtest round ${String(round + 1)}: ${(CANDLES / seconds).toFixed(0)} bars/s, ${String(trace.fills.length)} fills`,
    );
  }
  reportFigure({
    name: 'candle backtest bars/s (ema-cross, a year of 1m)',
    measures: `quanta backtest of strategies/ema-cross.ts (EMA 9/21 + RSI 14 on 1m bars, framework stop-loss/take-profit) on the ${String(CANDLES)} imported candles, candle fill rule`,
    baseline:
      'none (absolute: bars replayed per second of wall time, reading the candle file included)',
    goal: { atLeast: 20_000 },
    unit: 'bars/s',
    rounds: barsPerSecond,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
