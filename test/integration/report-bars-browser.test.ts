// Issue 27, the report for bar strategies: a backtest of the shipped ema-cross example
// (strategies/ema-cross.ts: EMA 9/21 on the price, RSI 14) on imported 1-minute candles, its
// report.html opened in headless Debian Chromium. The candle chart draws the strategy's own bars
// (one candle each), the EMAs over the candles on the price scale and the RSI in a pane of its
// own, as Lightweight Charts itself reports each series' pane.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { computeMetrics } from '../../src/backtest/metrics.ts';
import { buildReport } from '../../src/backtest/report-json.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { writeReport } from '../../src/backtest/write-report.ts';
import { loadConfig } from '../../src/config/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { ROOT } from '../helpers/strategy-harness.ts';
import { importEthCandles } from '../helpers/eth-candles.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';

// The DOM shapes the page callbacks use (the project compiles without the DOM lib).
declare const document: {
  readonly body: { readonly dataset: Record<string, string | undefined> };
  querySelector(selector: string): {
    readonly dataset: Record<string, string | undefined>;
    readonly parentElement: { readonly textContent: string | null } | null;
  } | null;
};

const tempDir = tempDirs('quanta-report-bars-');
const T0 = Date.UTC(2026, 0, 5);
const MIN = 60_000;
const CANDLES = 240;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** Four hours of 1m candles around 3000 in slow waves: the EMAs cross both ways. */
function candleCsv(): string {
  const rows = ['timestamp,open,high,low,close,volume'];
  let previous = 3000;
  for (let i = 0; i < CANDLES; i++) {
    const close = 3000 + 40 * Math.sin(i / 15) + 5 * Math.sin(i / 2.3);
    const open = previous;
    const high = Math.max(open, close) + 1.5;
    const low = Math.min(open, close) - 1.5;
    const prices = [open, high, low, close, 2].map((v) => v.toFixed(2));
    rows.push([String(T0 + i * MIN), ...prices].join(','));
    previous = close;
  }
  return `${rows.join('\n')}\n`;
}

it('draws the strategy’s bars with its EMAs over the candles and its RSI in its own pane', async () => {
  const dir = tempDir();
  const data = await importEthCandles(dir, candleCsv(), T0);
  const configPath = join(dir, 'config.yaml');
  writeFileSync(
    configPath,
    [
      'venue: { writeUrl: embedded, readUrl: embedded }',
      "risk: { maxOrderNotional: '5000', maxPositionNotional: '20000', capital: '100000' }",
      'execution: { orderTtlMs: 3600000 }',
      'strategies:',
      `  - module: ${join(ROOT, 'strategies/ema-cross.ts')}`,
      '    markets: [ETH-USD]',
      '',
    ].join('\n'),
  );
  const config = await loadConfig(configPath, { env: {} });
  const trace = await runBacktest({ config, data, projectRoot: ROOT, log: silentLogger });
  const report = buildReport(trace, computeMetrics(trace));
  const chart = report.tearsheet.priceCharts[0];
  expect(chart?.bars?.t).toHaveLength(CANDLES);
  expect(chart?.bars?.indicators.map((i) => i.name)).toEqual(['fast', 'slow', 'rsi']);
  // The example traded on these waves: its fills are marked on the bars.
  expect(chart?.fills.length).toBeGreaterThan(0);
  const { htmlPath } = await writeReport(join(dir, 'report'), report);

  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  try {
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.chartsReady !== undefined, null, {
      timeout: 10_000,
    });
    const drawn = await page.evaluate(() => {
      const el = document.querySelector('[data-candle-chart]');
      return {
        candles: document.body.dataset.candles,
        panes: el?.dataset.indicatorPanes,
        caption: el?.parentElement?.textContent ?? '',
      };
    });
    expect(problems).toEqual([]);
    // One candle per bar of the strategy, not the mid's downsampled candles.
    expect(drawn.candles).toBe(String(CANDLES));
    // Where the chart put each series: the EMAs on the candles' pane, the RSI below.
    expect(JSON.parse(drawn.panes ?? '{}')).toEqual({ fast: 0, slow: 0, rsi: 1 });
    expect(drawn.caption).toContain("ema-cross's 1m bars, with its indicators");
  } finally {
    await page.close();
  }
}, 120_000);
