// Opens report.html in headless Chromium (/usr/bin/chromium if present, else the one bundled in
// the dev dependency @sparticuz/chromium: see test/helpers/chromium.ts) and checks that the charts
// were drawn, with no console error, no page error and no network request. Never skipped: when no
// browser starts, beforeAll fails and says why.
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
import { launchChromium } from '../helpers/chromium.ts';
import { demoTrace, marketSample, samples, trace } from '../unit/backtest/trace-fixtures.ts';

// The few DOM shapes the page callbacks use: the project compiles without the DOM lib, and
// adding it for everyone would let browser globals slip into Node code unnoticed.
interface PageElement {
  readonly id: string;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  getBoundingClientRect(): { readonly width: number; readonly height: number };
}
declare const document: {
  readonly body: { readonly dataset: Record<string, string | undefined> };
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
  readonly problems: readonly string[];
}

async function openReport(name: string, t: BacktestTrace): Promise<PageResult> {
  const { htmlPath } = await writeReport(join(root, name), buildReport(t, computeMetrics(t)));
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
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
        return {
          chart: chart.id || `position ${chart.getAttribute('data-position-chart') ?? '?'}`,
          width: box?.width ?? 0,
          height: box?.height ?? 0,
        };
      }),
    );
    return { chartsReady, canvases, problems };
  } finally {
    await page.close();
  }
}

describe('report.html in headless chromium', () => {
  it('draws the equity, drawdown and per-market position charts without errors', async () => {
    const result = await openReport('demo', demoTrace());
    expect(result.problems).toEqual([]);
    expect(result.chartsReady).toBe('4');
    expect(result.canvases.map((c) => c.chart)).toEqual([
      'chart-equity',
      'chart-drawdown',
      'position 1',
      'position 3',
    ]);
    for (const canvas of result.canvases) {
      expect(canvas.width, canvas.chart).toBeGreaterThan(0);
      expect(canvas.height, canvas.chart).toBeGreaterThan(0);
    }
  });

  it('draws a run of one snapshot and one market without errors', async () => {
    const one = trace({
      samples: samples([
        [marketSample(5, { positionX18: '2', markPriceX18: '150', avgEntryPriceX18: '149' })],
      ]),
      snapshotIntervalMs: 0,
    });
    const result = await openReport('one', one);
    expect(result.problems).toEqual([]);
    expect(result.chartsReady).toBe('3');
    expect(result.canvases.every((c) => c.width > 0 && c.height > 0)).toBe(true);
  });

  it('opens a run without samples, drawing nothing and reporting 0 charts', async () => {
    const result = await openReport('empty', trace());
    expect(result.problems).toEqual([]);
    expect(result.chartsReady).toBe('0');
  });
});
