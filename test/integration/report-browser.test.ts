// Opens report.html (and optimize.html and compare.html) in headless Debian Chromium
// (/usr/bin/chromium: see test/helpers/chromium.ts) at 1280x800 and 1920x1080
// and checks that every chart was drawn, with no console error, no page error, no network request
// and nothing wider than the screen (the page or any table). Never skipped: when no browser
// starts, beforeAll fails and says why.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeMetrics } from '../../src/backtest/metrics.ts';
import { buildReport } from '../../src/backtest/report-json.ts';
import { writeReport } from '../../src/backtest/write-report.ts';
import { compareRuns } from '../../src/backtest/compare.ts';
import { writeCompareReport } from '../../src/backtest/compare-report.ts';
import type { OptimizeResult } from '../../src/optimize/optimize.ts';
import { renderOptimizeHtml } from '../../src/optimize/optimize-html.ts';
import type { BacktestTrace } from '../../src/backtest/trace.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../src/config/index.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { setMetrics, sweepResult, SWEEP_WINDOW } from '../helpers/optimize-result.ts';
import { ROOT } from '../helpers/strategy-harness.ts';
import {
  demoTrace,
  marketSample,
  order,
  samples,
  trace,
  x18,
} from '../unit/backtest/trace-fixtures.ts';

// The few DOM shapes the page callbacks use: the project compiles without the DOM lib, and
// adding it for everyone would let browser globals slip into Node code unnoticed.
interface PageElement {
  readonly id: string;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly textContent: string | null;
  readonly parentElement: PageElement | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  getBoundingClientRect(): { readonly width: number; readonly height: number };
}
declare const document: {
  readonly body: { readonly dataset: Record<string, string | undefined> };
  readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number };
  querySelectorAll(selector: string): Iterable<PageElement>;
};
declare function getComputedStyle(element: PageElement): { readonly overflowX: string };
/** A canvas as the candle check reads it. */
interface PageCanvas {
  readonly width: number;
  readonly height: number;
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { readonly data: Uint8ClampedArray };
  } | null;
}

let browser: Browser;
let root: string;

// The first run on a machine unpacks the bundled browser (about 200 MB): ~2 s idle, ~15 s on two
// busy cores, hence more time than the default hook timeout.
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'quanta-report-browser-'));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

interface PageResult {
  readonly chartsReady: string | undefined;
  /** Candles the page handed to Lightweight Charts, over all markets. */
  readonly candles: number;
  /** Per candle chart, the pixels painted in the candle colours (up #26a69a, down #ef5350). */
  readonly candlePixels: readonly number[];
  readonly canvases: readonly {
    readonly chart: string;
    readonly width: number;
    readonly height: number;
  }[];
  /** Page width beyond the viewport (0 when nothing overflows sideways). */
  readonly pageOverflow: number;
  /** Tables wider than their box (each would need sideways scrolling). */
  readonly wideTables: readonly string[];
  readonly problems: readonly string[];
}

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

async function writeHtml(name: string, t: BacktestTrace): Promise<string> {
  const { htmlPath } = await writeReport(join(root, name), buildReport(t, computeMetrics(t)));
  return htmlPath;
}

/** A new page that collects console errors, page errors and any request off the file. */
async function watchedPage(viewport: {
  readonly width: number;
  readonly height: number;
}): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (!request.url().startsWith('file:')) problems.push(`network request: ${request.url()}`);
  });
  return { page, problems };
}

/** Per candlestick chart, its canvases' pixels in the candle colours (run in the page). */
function paintedCandlePixels(): number[] {
  return [...document.querySelectorAll('[data-candle-chart]')].map((chart) => {
    let painted = 0;
    for (const element of chart.querySelectorAll('canvas')) {
      const canvas = element as unknown as PageCanvas;
      const context = canvas.getContext('2d');
      if (context === null || canvas.width === 0 || canvas.height === 0) continue;
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < pixels.length; i += 4) {
        const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
        if ((r === 0x26 && g === 0xa6 && b === 0x9a) || (r === 0xef && g === 0x53 && b === 0x50))
          painted += 1;
      }
    }
    return painted;
  });
}

async function openReport(
  htmlPath: string,
  viewport: { readonly width: number; readonly height: number } = VIEWPORTS[0],
): Promise<PageResult> {
  const { page, problems } = await watchedPage(viewport);
  try {
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.chartsReady !== undefined, null, {
      timeout: 10_000,
    });
    const chartsReady = await page.evaluate(() => document.body.dataset.chartsReady);
    const canvases = await page.evaluate(() =>
      [...document.querySelectorAll('.chart')].map((chart) => {
        const canvas = chart.querySelector('canvas');
        const box = canvas?.getBoundingClientRect();
        const marketId =
          chart.getAttribute('data-position-chart') ??
          chart.getAttribute('data-candle-chart') ??
          chart.getAttribute('data-price-chart');
        const kind =
          chart.getAttribute('data-position-chart') !== null
            ? 'position'
            : chart.getAttribute('data-candle-chart') !== null
              ? 'candles'
              : 'price';
        return {
          chart: chart.id || `${kind} ${marketId ?? '?'}`,
          width: box?.width ?? 0,
          height: box?.height ?? 0,
        };
      }),
    );
    const pageOverflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    const wideTables = await page.evaluate(() =>
      [...document.querySelectorAll('table')]
        .filter((table) => {
          const box = table.parentElement;
          return box !== null && table.scrollWidth > box.clientWidth + 1;
        })
        .map((table) => table.querySelector('th')?.textContent ?? '?'),
    );
    const candles = Number(await page.evaluate(() => document.body.dataset.candles ?? '0'));
    // Lightweight Charts paints on an animation frame after its data is set, which on a busy
    // machine can come after chartsReady: wait (at most 10 s) until every candlestick chart shows
    // the candle colours; if one never does, the count below says so.
    await page
      .waitForFunction(`(${paintedCandlePixels.toString()})().every((n) => n > 20)`, null, {
        timeout: 10_000,
      })
      .catch(() => undefined);
    const candlePixels = await page.evaluate(paintedCandlePixels);
    return { chartsReady, candles, candlePixels, canvases, pageOverflow, wideTables, problems };
  } finally {
    await page.close();
  }
}

describe('report.html in headless chromium', () => {
  it.each(VIEWPORTS)(
    'at $width x $height: every chart drawn, no console error, nothing wider than the screen',
    async (viewport) => {
      const result = await openReport(
        await writeHtml(`demo-${viewport.width}`, demoTrace()),
        viewport,
      );
      expect(result.problems).toEqual([]);
      expect(result.canvases.map((c) => c.chart)).toEqual([
        'chart-equity',
        'chart-drawdown',
        'candles 1',
        'price 1',
        'candles 3',
        'price 3',
        'chart-returns',
        'position 1',
        'position 3',
      ]);
      expect(result.chartsReady).toBe(String(result.canvases.length));
      for (const canvas of result.canvases) {
        expect(canvas.width, canvas.chart).toBeGreaterThan(0);
        expect(canvas.height, canvas.chart).toBeGreaterThan(0);
      }
      expect(result.pageOverflow).toBe(0);
      expect(result.wideTables).toEqual([]);
      // The candlestick charts drew candles (canvas pixels in the candle colours), not only axes.
      expect(result.candles).toBeGreaterThan(0);
      expect(result.candlePixels).toHaveLength(2);
      for (const painted of result.candlePixels) expect(painted).toBeGreaterThan(20);
    },
  );

  it.each(VIEWPORTS)(
    'a real backtest (mean reversion on the fixture recording) at $width x $height',
    async (viewport) => {
      const config = await loadConfig(join(ROOT, 'test/fixtures/configs/mean-reversion.yaml'));
      const t = await runBacktest({
        config,
        data: join(ROOT, 'test/fixtures/recording'),
        projectRoot: ROOT,
      });
      const result = await openReport(await writeHtml(`real-${viewport.width}`, t), viewport);
      expect(result.problems).toEqual([]);
      expect(result.candles).toBeGreaterThan(0);
      expect(result.candlePixels.length).toBeGreaterThan(0);
      for (const painted of result.candlePixels) expect(painted).toBeGreaterThan(20);
      expect(result.canvases.length).toBeGreaterThanOrEqual(5);
      expect(result.chartsReady).toBe(String(result.canvases.length));
      for (const canvas of result.canvases) {
        expect(canvas.width, canvas.chart).toBeGreaterThan(0);
        expect(canvas.height, canvas.chart).toBeGreaterThan(0);
      }
      expect(result.pageOverflow).toBe(0);
      expect(result.wideTables).toEqual([]);
    },
    60_000,
  );

  it('reads a strategy plot under the cursor to its market tick, like the mid (it showed 4 places whatever the market)', async () => {
    const demo = demoTrace();
    // BTC-USD has a tick of 0.1 (priceExpo 1); the plotted mean carries 6 fraction digits.
    const t = {
      ...demo,
      plots: demo.plots.map((p) => ({ ...p, value: `${p.value}.123456` })),
    };
    const { page, problems } = await watchedPage(VIEWPORTS[0]);
    try {
      await page.goto(pathToFileURL(await writeHtml('plot-tick', t)).href, { waitUntil: 'load' });
      await page.waitForFunction(() => document.body.dataset.chartsReady !== undefined);
      // Under the cursor, in the middle of the BTC-USD price chart: the legend shows its values.
      await page.locator('[data-price-chart="3"] .u-over').hover();
      await page.waitForFunction(() =>
        [...document.querySelectorAll('[data-price-chart="3"] .u-legend .u-value')].some((cell) =>
          (cell.textContent ?? '').includes(','),
        ),
      );
      const legend = await page.evaluate(() =>
        [...document.querySelectorAll('[data-price-chart="3"] .u-legend .u-series')].map((row) => [
          row.querySelector('.u-label')?.textContent ?? '',
          row.querySelector('.u-value')?.textContent ?? '',
        ]),
      );
      const value = (label: string): string => legend.find(([l]) => l === label)?.[1] ?? '';
      expect(problems).toEqual([]);
      expect(value('mid')).toMatch(/^\d{2},\d{3}(\.\d)?$/);
      expect(value('mean-reversion: mean')).toMatch(/^\d{2},\d{3}\.1$/);
    } finally {
      await page.close();
    }
  });

  it('draws a run of one snapshot and one market without errors', async () => {
    const one = trace({
      samples: samples([
        [marketSample(5, { positionX18: '2', markPriceX18: '150', avgEntryPriceX18: '149' })],
      ]),
      snapshotIntervalMs: 0,
    });
    const result = await openReport(await writeHtml('one', one));
    expect(result.problems).toEqual([]);
    // Equity, drawdown, the returns histogram (one return) and the position.
    expect(result.chartsReady).toBe('4');
    expect(result.canvases.filter((c) => c.width > 0 && c.height > 0)).toHaveLength(4);
  });

  it('opens a run without samples, drawing nothing and reporting 0 charts', async () => {
    const result = await openReport(await writeHtml('empty', trace()));
    expect(result.problems).toEqual([]);
    expect(result.chartsReady).toBe('0');
    expect(result.pageOverflow).toBe(0);
  });
});

/** A page without charts (optimize.html, compare.html): what a reader sees, and any error. */
async function openPage<T>(
  htmlPath: string,
  read: () => T,
  viewport: { readonly width: number; readonly height: number } = VIEWPORTS[0],
): Promise<{ readonly seen: T; readonly pageOverflow: number; readonly problems: string[] }> {
  const { page, problems } = await watchedPage(viewport);
  try {
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });
    const seen = await page.evaluate(read);
    const pageOverflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    return { seen, pageOverflow, problems };
  } finally {
    await page.close();
  }
}

/** A 3 x 3 sweep with two folds and a holdout, money figures with 18 fraction digits. */
function optimizeResult(): OptimizeResult {
  const ranking = [1, 2, 3].flatMap((amount) =>
    [10, 20, 30].map((lookback) => ({ amount, lookback })),
  );
  const score = (i: number): string => `${(i * 0.137 - 0.6).toFixed(6)}`;
  const window = SWEEP_WINDOW;
  const fold = (n: number, inSample: string, outOfSample: string) => ({
    fold: n,
    train: window,
    test: window,
    winner: { id: 'set-1', params: { amount: 1, lookback: 10 } },
    inSample: { score: inSample, metrics: null },
    outOfSample: { score: outOfSample, metrics: null },
  });
  return sweepResult({
    ranking: ranking.map((params, i) => ({
      rank: i + 1,
      id: `set-${i + 1}`,
      params,
      score: score(ranking.length - i),
      passed: true,
      violations: [],
      metrics: setMetrics(`-0.7296700398939020${i}2`, score(ranking.length - i)),
    })),
    walkForward: {
      folds: [fold(1, '0.812345', '-0.213456'), fold(2, '1.402000', '0.351234')],
      stitched: { t: [1, 2], equity: ['100000', '99999.270329960106097918'] },
    },
    holdout: {
      window,
      winner: { id: 'set-1', params: { amount: 1, lookback: 10 } },
      inSample: { score: '1.100000', metrics: null },
      outOfSample: { score: '-0.450000', metrics: null },
    },
  });
}

describe('optimize.html in headless chromium', () => {
  it('shows money to the cent, a heatmap with a colour scale and its values, a scatter with axis ticks', async () => {
    const path = join(root, 'optimize.html');
    await writeFile(path, renderOptimizeHtml(optimizeResult()), 'utf8');
    const { seen, pageOverflow, problems } = await openPage(path, () => {
      const texts = (selector: string): string[] =>
        [...document.querySelectorAll(selector)].map((e) => e.textContent ?? '');
      const rows = [...document.querySelectorAll('table.ranking tr')].slice(1);
      return {
        // The ranking's pnl column (after rank, set, the two params and score).
        pnl: rows.map((row) => row.querySelector('td:nth-child(6)')?.textContent ?? ''),
        cells: texts('svg.heatmap rect.cell').length,
        cellValues: texts('svg.heatmap text.cell-value'),
        scale: texts('svg.heatmap rect.scale').length,
        scaleValues: texts('svg.heatmap text.scale-value'),
        ticksX: texts('svg.scatter text.tick-x'),
        ticksY: texts('svg.scatter text.tick-y'),
        points: texts('svg.scatter circle').length,
        stitched: texts('p span[title]'),
      };
    });
    expect(problems).toEqual([]);
    expect(pageOverflow).toBe(0);
    expect(seen.pnl).toHaveLength(9);
    for (const pnl of seen.pnl) expect(pnl).toBe('-0.73');
    expect(seen.cells).toBe(9);
    expect(seen.cellValues).toHaveLength(9);
    for (const value of seen.cellValues) expect(value).toMatch(/^-?\d+(\.\d{1,4})?$/);
    expect(seen.scale).toBe(1);
    // Best at the top, middle, worst at the bottom: the best and worst sets' scores.
    expect(seen.scaleValues).toEqual(['0.633', '0.085', '-0.463']);
    expect(seen.points).toBe(3);
    expect(seen.ticksX.length).toBeGreaterThanOrEqual(3);
    expect(seen.ticksY).toEqual(seen.ticksX);
    expect(seen.ticksX).toContain('0');
    expect(seen.stitched).toContain('99999.27');
  });
});

describe('compare.html in headless chromium', () => {
  it.each(VIEWPORTS)(
    'at $width x $height: nothing cut off at the page edge; figures rounded for reading',
    async (viewport) => {
      const T = 1_700_000_000_000;
      const list = samples(Array.from({ length: 12 }, () => []));
      const make = (id: number, live: boolean) =>
        order({
          id,
          strategy: 'mean-reversion-with-a-long-instance-name',
          tag: 'entry-long-window-48',
          amountX18: x18('0.123456'),
          createdAt: T + id * 1000 + (live ? 30 : 0),
          updatedAt: T + id * 1000 + (live ? 52 : 1000),
          filledX18: x18('0.123456'),
          avgFillPriceX18: x18(live ? '3012.345678901234567891' : '3012.3'),
          feesX18: x18('0.001234567890123456'),
        });
      const live = Array.from({ length: 10 }, (_, i) => make(i + 1, true));
      const backtest = Array.from({ length: 10 }, (_, i) => make(i + 1, false));
      const t = trace({ samples: list, orders: backtest, finalMarks: new Map([[1, x18('3013')]]) });
      const report = compareRuns(live, t, x18('-0.729670039893902082'), 'journal.sqlite');
      const { htmlPath } = await writeCompareReport(
        join(root, `compare-${viewport.width}`),
        report,
      );
      const { seen, pageOverflow, problems } = await openPage(
        htmlPath,
        () => {
          const tables = [...document.querySelectorAll('table')];
          return {
            // A table wider than its box must sit in a box that scrolls sideways.
            clipped: tables
              .filter((table) => {
                const box = table.parentElement;
                if (box === null || table.scrollWidth <= box.clientWidth + 1) return false;
                const overflow = getComputedStyle(box).overflowX;
                return overflow !== 'auto' && overflow !== 'scroll';
              })
              .map((table) => table.querySelector('th')?.textContent ?? '?'),
            prices: [...document.querySelectorAll('tbody tr')]
              .map((row) => row.querySelector('td:nth-child(9)')?.textContent ?? '')
              .filter((text) => text !== ''),
          };
        },
        viewport,
      );
      expect(problems).toEqual([]);
      expect(pageOverflow).toBe(0);
      expect(seen.clipped).toEqual([]);
      expect(seen.prices.length).toBeGreaterThan(0);
      // To the tick of the fixture's ETH-USD (2 fraction digits); it showed 6 digits whatever
      // the market (3012.345679).
      for (const price of seen.prices) expect(price).toBe('3012.35');
    },
  );
});
