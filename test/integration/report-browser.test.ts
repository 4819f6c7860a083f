// Opens report.html in headless Chromium (/usr/bin/chromium if present, else the one bundled in
// the dev dependency @sparticuz/chromium: see test/helpers/chromium.ts) at 1280x800 and 1920x1080
// and checks that every chart was drawn, with no console error, no page error, no network request
// and nothing wider than the screen (the page or any table). Never skipped: when no browser
// starts, beforeAll fails and says why.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeMetrics } from '../../src/backtest/metrics.ts';
import { buildReport } from '../../src/backtest/report-json.ts';
import { writeReport } from '../../src/backtest/write-report.ts';
import type { BacktestTrace } from '../../src/backtest/trace.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../src/config/index.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { ROOT } from '../helpers/strategy-harness.ts';
import { demoTrace, marketSample, samples, trace } from '../unit/backtest/trace-fixtures.ts';

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
  getBoundingClientRect(): { readonly width: number; readonly height: number };
}
declare const document: {
  readonly body: { readonly dataset: Record<string, string | undefined> };
  readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number };
  querySelectorAll(selector: string): Iterable<PageElement>;
};

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

async function openReport(
  htmlPath: string,
  viewport: { readonly width: number; readonly height: number } = VIEWPORTS[0],
): Promise<PageResult> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (!request.url().startsWith('file:')) problems.push(`network request: ${request.url()}`);
  });
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
          chart.getAttribute('data-position-chart') ?? chart.getAttribute('data-price-chart');
        const kind = chart.getAttribute('data-position-chart') === null ? 'price' : 'position';
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
    return { chartsReady, canvases, pageOverflow, wideTables, problems };
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
        'price 1',
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
