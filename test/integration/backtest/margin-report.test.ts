/**
 * Issue 29 in the backtest report: the doubling strategy of margin.test.ts (1000 USDC, ETH-USD
 * IMF 5 %, MMF 2 %) buys 0.5, 0.5, 1 and 2 ETH at 3000.5 (fees 6.001), is refused at the margin
 * limit, and is liquidated at 2800 on the tenth snapshot (mark 2800.25). Its report gives the
 * margin use and leverage at every sample (known answers computed here with bigints), the
 * highest and time-weighted mean leverage, lists the liquidation with the equity before and
 * after, marks the closing fill on the candles as `liquidation` (the same marker mechanism as the
 * protective exits), and report.html shows all of it in headless Chromium.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { buildReport, type BacktestReport } from '../../../src/backtest/report-json.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import type { BacktestTrace } from '../../../src/backtest/trace.ts';
import { writeReport } from '../../../src/backtest/write-report.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { formatX18, parseSignedDecimalToX18 } from '../../../src/money/index.ts';
import { launchChromium } from '../../helpers/chromium.ts';
import { RECORDING_T0, recordSnapshots } from '../../helpers/recordings.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';
import { marginSnapshots } from './margin-prices.ts';

const tempDir = tempDirs('quanta-margin-report-');

const MARGIN_CONFIG = `
venue: { writeUrl: embedded, readUrl: embedded }
risk: { maxOrderNotional: '100000000', maxPositionNotional: '100000000', capital: '1000' }
paper: { balance: '1000' }
backtest: { startingCapital: '1000', latencyMs: 0 }
strategies:
  - module: test/fixtures/strategies/doubler.ts
    markets: [ETH-USD]
    params: { start: '0.5' }
`;

let trace: BacktestTrace;
let report: BacktestReport;
let browser: Browser | undefined;

const X18 = 10n ** 18n;
const x18 = (value: string): bigint => parseSignedDecimalToX18(value, 'test value');
/** `a / b` of two x18 values as an x18 ratio, rounded down (the report's rule). */
const ratio = (a: bigint, b: bigint): string => formatX18((a * X18) / b);

afterAll(async () => {
  await browser?.close();
});

beforeAll(async () => {
  const data = await recordSnapshots({ path: join(tempDir(), 'margin.jsonl') }, marginSnapshots());
  trace = await runBacktest({
    config: parseConfig(MARGIN_CONFIG, 'margin.yaml', ROOT),
    data,
    projectRoot: ROOT,
  });
  report = buildReport(trace, computeMetrics(trace));
}, 60_000);

describe('a liquidation in the backtest report', () => {
  it('marks the closing fill on the candles and names the trip it closed', () => {
    expect(trace.liquidations).toHaveLength(1);
    const chart = report.tearsheet.priceCharts.find((c) => c.symbol === 'ETH-USD');
    expect(chart?.fills.filter((f) => f.exit === 'liquidation')).toEqual([
      {
        t: RECORDING_T0 + 9000,
        side: 'SELL',
        price: '2800',
        exit: 'liquidation',
        role: 'exit',
        tag: null,
      },
    ]);
    // The other fills are the strategy's own buys: no exit named.
    expect(chart?.fills.filter((f) => f.exit !== 'liquidation').map((f) => f.exit)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(
      report.tearsheet.trades.map((t) => [t.direction, t.amount, t.exitPrice, t.exit]),
    ).toEqual([['LONG', '4', '2800', 'liquidation']]);
    expect(report.tearsheet.exits.map((e) => [e.exit, e.closed])).toEqual([['liquidation', 1]]);
  });
});

describe('margin figures in report.json', () => {
  it('margin use and leverage at every sample, from the account model on the equity samples', () => {
    // Equity after each snapshot: 1000 − fees − position × (3000.5 − mark).
    const eq = ['999.124875', '998.24975', '996.4995', '992.999', '392.999', '79.999'].map(x18);
    const [e0, e1, e2, e3, e8, after] = eq as [bigint, bigint, bigint, bigint, bigint, bigint];
    // Notional |position| × mark; initial margin 5 % of it.
    const notional = (amount: string, mark: string): bigint => (x18(amount) * x18(mark)) / X18;
    const n0 = notional('0.5', '3000.25');
    const n1 = notional('1', '3000.25');
    const n2 = notional('2', '3000.25');
    const n3 = notional('4', '3000.25');
    const n8 = notional('4', '2850.25');
    const im = (n: bigint): bigint => (n * 5n) / 100n;
    const flat = Array.from({ length: 4 }, () => ratio(im(n3), e3));
    expect(report.series.equity).toEqual([
      ...[e0, e1, e2, e3, e3, e3, e3, e3, e8, after, after].map(formatX18),
    ]);
    expect(report.series.marginUse).toEqual([
      ratio(im(n0), e0),
      ratio(im(n1), e1),
      ratio(im(n2), e2),
      ratio(im(n3), e3),
      ...flat,
      ratio(im(n8), e8),
      '0',
      '0',
    ]);
    expect(report.series.marginUse?.[3]).toBe('0.604280568258376896'); // 600.05 / 992.999
    const lev = [n0, n1, n2, n3, n3, n3, n3, n3, n8].map((n, i) =>
      ratio(n, [e0, e1, e2, e3, e3, e3, e3, e3, e8][i] ?? 1n),
    );
    expect(report.series.leverage).toEqual([...lev, '0', '0']);
    expect(report.margin?.maxLeverage).toBe(ratio(n8, e8)); // 11401 / 392.999
    expect(report.margin?.maxLeverage).toBe('29.01025193448329385');
    expect(report.margin?.maxMarginUse).toBe(ratio(im(n8), e8));
    // Each sample's leverage held 1 s until the next, over the 10 s from the first to the last.
    const levX18 = lev.map((l) => x18(l));
    const mean = levX18.reduce((a, b) => a + b, 0n) / 10n;
    expect(report.margin?.meanLeverage).toBe(formatX18(mean));
    expect(report.margin?.samplesWithoutEquity).toBe(0);
  });

  it('lists the liquidation with the equity before and after', () => {
    expect(report.margin?.liquidations).toEqual([
      {
        time: new Date(RECORDING_T0 + 9000).toISOString(),
        marketId: 1,
        symbol: 'ETH-USD',
        side: 'SELL',
        amount: '4',
        price: '2800',
        mark: '2800.25',
        fee: '112',
        // 1000 − 6.001 + 4 × (2800.25 − 3000.5)
        equityBefore: '192.999',
        // 192.999 + 4 × (2800 − 2800.25) − 112: the equity curve's value after it.
        equityAfter: '79.999',
        maintenanceMargin: '224.02',
      },
    ]);
    expect(report.series.equity.at(-1)).toBe(report.margin?.liquidations[0]?.equityAfter);
  });
});

// The page script's DOM, declared here: the project compiles without the DOM lib.
interface PageElement {
  readonly textContent: string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  getBoundingClientRect(): { readonly width: number; readonly height: number };
}
declare const document: {
  readonly body: { readonly dataset: Record<string, string | undefined> };
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
};
interface PageCanvas {
  readonly width: number;
  readonly height: number;
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { readonly data: Uint8ClampedArray };
  } | null;
}

describe('report.html in headless Chromium', () => {
  it('draws margin use and leverage, lists the liquidation and marks it on the candles', async () => {
    const { htmlPath } = await writeReport(join(tempDir(), 'report'), report);
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.chartsReady !== undefined, null, {
      timeout: 10_000,
    });
    const seen = await page.evaluate(() => {
      const box = document.querySelector('#chart-margin canvas')?.getBoundingClientRect();
      const legend = [...document.querySelectorAll('#chart-margin .u-legend .u-label')].map(
        (l) => l.textContent,
      );
      const rows = [...document.querySelectorAll('#liquidations tbody tr')].map((row) =>
        [...row.querySelectorAll('td')].map((td) => td.textContent),
      );
      const cards = [...document.querySelectorAll('#margin-cards .card')].map((c) =>
        [...c.querySelectorAll('div')].map((d) => d.textContent),
      );
      // Pure black pixels on the candle chart: only the liquidation marker is drawn in #000000.
      let black = 0;
      for (const element of document.querySelectorAll('[data-candle-chart] canvas')) {
        const canvas = element as unknown as PageCanvas;
        const context = canvas.getContext('2d');
        if (context === null || canvas.width === 0 || canvas.height === 0) continue;
        const px = context.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < px.length; i += 4)
          if (px[i] === 0 && px[i + 1] === 0 && px[i + 2] === 0 && px[i + 3] === 255) black += 1;
      }
      return {
        marginChart: { width: box?.width ?? 0, height: box?.height ?? 0 },
        legend,
        rows,
        cards,
        black,
        markers: document.body.dataset.liquidationMarkers,
      };
    });
    await page.close();
    expect(problems).toEqual([]);
    expect(seen.marginChart.width).toBeGreaterThan(0);
    expect(seen.marginChart.height).toBeGreaterThan(0);
    expect(seen.legend).toEqual(['time (UTC)', 'margin use', 'leverage']);
    expect(seen.rows).toEqual([
      [
        '2026-01-05 09:30:09.000',
        'ETH-USD',
        'SELL',
        '4',
        '2800',
        '2800.25',
        '112.00',
        '193.00',
        '224.02',
        '80.00',
      ],
    ]);
    expect(seen.cards).toEqual([
      ['max leverage', '29.01x'],
      ['mean leverage (time-weighted)', '10.00x'],
      ['max margin use', '145.05%'],
      ['liquidations', '1'],
    ]);
    expect(seen.markers).toBe('1');
    expect(seen.black).toBeGreaterThan(10);
  }, 60_000);
});
