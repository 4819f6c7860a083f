/**
 * Issue 28, backtests on candles: imported candles reach `onBar` as the bars themselves (and
 * longer bars as whole candles), and orders fill by the documented candle fill rule
 * (src/backtest/data-kind.ts): a MARKET order at the next candle's open, a LIMIT the open
 * crosses at the open, a resting LIMIT at its limit when a later candle's range reaches it
 * (low first in a rising candle, high first in a falling one), a stop-loss exit checked at the
 * close and filled at the next open (gapping). The trace names the data kind.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { CANDLE_FILL_RULE } from '../../../src/backtest/data-kind.ts';
import { formatSummary } from '../../../src/backtest/format-summary.ts';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { buildReport } from '../../../src/backtest/report-json.ts';
import { renderReportHtml } from '../../../src/backtest/report-html.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { formatX18 } from '../../../src/money/index.ts';
import { captureLogs } from '../runtime/harness.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { importEthCandles } from '../../helpers/eth-candles.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const tempDir = tempDirs('quanta-candles-backtest-');
const T0 = Date.UTC(2026, 0, 5);
const MIN = 60_000;

// Minute 4 is missing: its 1m bar is flat at the last close, with no ticks.
const CANDLES: [number, string, string, string, string, string][] = [
  [0, '100', '101', '99', '100.5', '1'],
  [1, '100.6', '102', '100', '101', '2'],
  [2, '101', '103.5', '100.8', '103', '3'],
  [3, '103', '104', '98', '99', '4'],
  [5, '99', '99.5', '97', '97.5', '5'],
  [6, '96', '97', '95', '96.5', '6'],
  [7, '96.5', '97', '96', '96.8', '7'],
];

const PLAN = [
  // After bar 1 (minute 0): a MARKET buy fills at minute 1's open; a LIMIT sell at 103 rests
  // until minute 2's high (rising candle: the low, then the high) reaches it.
  { afterBar: 1, side: 'BUY', type: 'MARKET', amount: '0.01' },
  { afterBar: 1, side: 'SELL', type: 'LIMIT', amount: '0.01', price: '103' },
  // After bar 2: a LIMIT buy at 102 that minute 2's open (101) crosses fills at the open.
  { afterBar: 2, side: 'BUY', type: 'LIMIT', amount: '0.01', price: '102' },
  // After bar 3: a LIMIT buy at 99 rests, minute 3 (falling: the high, then the low) fills it.
  { afterBar: 3, side: 'BUY', type: 'LIMIT', amount: '0.01', price: '99' },
  // After bar 4: a MARKET buy with a stop at 98; minute 5 closes at 97.5, under it: the exit
  // sells the whole position at minute 6's open, 96 (the stop gaps at the open).
  { afterBar: 4, side: 'BUY', type: 'MARKET', amount: '0.01', stopLoss: '98' },
];

async function setUp(): Promise<{ data: string; config: string }> {
  const dir = tempDir();
  const csv = ['timestamp,open,high,low,close,volume'];
  for (const [minute, ...ohlcv] of CANDLES) csv.push([T0 + minute * MIN, ...ohlcv].join(','));
  const data = await importEthCandles(dir, `${csv.join('\n')}\n`, T0);
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      'venue: { writeUrl: embedded, readUrl: embedded }',
      "risk: { maxOrderNotional: '5000', maxPositionNotional: '20000' }",
      'execution: { orderTtlMs: 3600000 }',
      'strategies:',
      `  - module: ${join(ROOT, 'test/fixtures/strategies/candle-plan.ts')}`,
      '    markets: [ETH-USD]',
      `    params: { plan: ${JSON.stringify(PLAN)} }`,
      '',
    ].join('\n'),
  );
  return { data, config };
}

describe('a backtest on imported candles', () => {
  it('gives onBar the candles as bars and fills by the candle rule', async () => {
    const { data, config: configPath } = await setUp();
    const config = await loadConfig(configPath, { env: {} });
    const logs = captureLogs();
    const trace = await runBacktest({ config, data, projectRoot: ROOT, log: logs.log });
    expect(trace.dataKind).toBe('candles');
    expect(trace.timeframe).toBe('1m');
    expect(trace.snapshots).toBe(CANDLES.length);
    // The report and the summary name the data kind and the candle rule with its caveat.
    const report = buildReport(trace, computeMetrics(trace));
    expect(report.run.dataKind).toBe('candles');
    expect(report.run.fillRule).toBe(`candles (1m): ${CANDLE_FILL_RULE}`);
    expect(CANDLE_FILL_RULE).toContain('Caveat: a candle has no depth and no path');
    expect(formatSummary(computeMetrics(trace), trace)).toContain(
      `\nData: candles (1m): ${CANDLE_FILL_RULE}\n`,
    );
    expect(renderReportHtml(report)).toContain(
      '<p class="meta" id="data-kind">Data: candles (1m): ',
    );

    const bars = logs.records
      .filter((r) => r.msg === 'bar closed')
      .map((r) => r.bar as Record<string, unknown>)
      .map((b) => [
        b.timeframe,
        (Number(b.start) - T0) / MIN,
        b.open,
        b.high,
        b.low,
        b.close,
        b.volume,
        b.ticks,
      ]);
    expect(bars).toEqual([
      ['1m', 0, '100', '101', '99', '100.5', '1', 1],
      ['1m', 1, '100.6', '102', '100', '101', '2', 1],
      ['2m', 0, '100', '102', '99', '101', '3', 2],
      ['1m', 2, '101', '103.5', '100.8', '103', '3', 1],
      ['1m', 3, '103', '104', '98', '99', '4', 1],
      ['2m', 2, '101', '104', '98', '99', '7', 2],
      ['1m', 4, '99', '99', '99', '99', '0', 0],
      ['1m', 5, '99', '99.5', '97', '97.5', '5', 1],
      // A bar's data is its candles: minute 4 had none, minute 5 opens the 2m bar.
      ['2m', 4, '99', '99.5', '97', '97.5', '5', 1],
      ['1m', 6, '96', '97', '95', '96.5', '6', 1],
      ['1m', 7, '96.5', '97', '96', '96.8', '7', 1],
      ['2m', 6, '96', '97', '95', '96.8', '13', 2],
    ]);

    const fills = trace.fills.map((f) => [
      (f.t - T0) / MIN,
      f.side,
      formatX18(f.amountX18),
      formatX18(f.priceX18),
      formatX18(f.feeX18),
    ]);
    expect(fills).toEqual([
      [1, 'BUY', '0.01', '100.6', '0.000503'], // MARKET at the next open (taker 0.05 %)
      [2, 'BUY', '0.01', '101', '0.000505'], // LIMIT 102 crossed by the open: at the open
      // Resting orders' fills are booked when the bot learns of them: at the candle's close.
      [3, 'SELL', '0.01', '103', '0.000206'], // resting LIMIT reached by the range (maker 0.02 %)
      [4, 'BUY', '0.01', '99', '0.000198'], // resting LIMIT reached by the falling candle's low
      [5, 'BUY', '0.01', '99', '0.000495'], // MARKET at the open after the gap
      [6, 'SELL', '0.03', '96', '0.00144'], // stop 98 seen at the 97.5 close: gaps to the open
    ]);
  });

  it('refuses bars that are not whole candles', async () => {
    const { data, config: configPath } = await setUp();
    const config = await loadConfig(configPath, { env: {} });
    const strategy = config.strategies[0];
    if (strategy === undefined) throw new Error('no strategy');
    // Inside the project so that `import ... from 'quanta'` resolves; .quanta is git-ignored.
    const dir = join(ROOT, '.quanta', 'candles-test');
    mkdirSync(dir, { recursive: true });
    const bad = join(dir, 'half.ts');
    writeFileSync(
      bad,
      "import { defineStrategy } from 'quanta';\nexport default defineStrategy({ name: 'half', bars: { '30s': 5 }, onBar: () => [] });\n",
    );
    await expect(
      runBacktest({
        config: { ...config, strategies: [{ ...strategy, module: bad, params: {} }] },
        data,
        projectRoot: ROOT,
      }),
    ).rejects.toThrow(
      "strategy half declares 30s bars, which cannot be made of the data's 1m candles (a bar must be a whole number of candles)",
    );
  });
});
