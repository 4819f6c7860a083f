import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { renderReportHtml } from '../../../src/backtest/report-html.ts';
import {
  buildReport,
  serializeReport,
  type BacktestReport,
} from '../../../src/backtest/report-json.ts';
import { writeReport } from '../../../src/backtest/write-report.ts';
import type { Sample } from '../../../src/backtest/trace.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { demoTrace, marketSample, trace } from './trace-fixtures.ts';

const require = createRequire(import.meta.url);
const uplotJs = await readFile(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
const uplotCss = await readFile(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');

function demoReport(): BacktestReport {
  const t = demoTrace();
  return buildReport(t, computeMetrics(t));
}

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'quanta-report-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('buildReport', () => {
  it('has the documented sections in a stable order', () => {
    const report = demoReport();
    expect(Object.keys(report)).toEqual([
      'format',
      'version',
      'run',
      'tearsheet',
      'summary',
      'markets',
      'strategies',
      'refusals',
      'finalPositions',
      'series',
      'orders',
      'fills',
    ]);
    expect(report.run).toEqual({
      data: 'test/fixtures/recording.jsonl',
      strategies: ['dca', 'mean-reversion'],
      startedAt: '2023-11-14T22:13:20.000Z',
      endedAt: '2023-11-14T22:14:19.000Z',
      snapshots: 60,
      samples: 60,
      snapshotIntervalMs: 1000,
      periodsPerYear: '31536000.000000',
      startingCapital: '100000',
      fillModel: {
        latencyMs: null,
        slippageBps: '0',
        makerFeeBps: null,
        takerFeeBps: null,
        startingCapital: '100000',
        description:
          "latency: one snapshot later; depth walked level by level (MARKET rest cancelled); slippage 0 bps; fees: the markets' own; starting capital 100000",
      },
      // A hand-built trace names no data kind: quotes.
      dataKind: 'quotes',
      fillRule: 'quotes: orders fill against the recorded best bid and ask and their sizes',
      config: {
        strategies: [
          {
            name: 'dca',
            module: 'strategies/dca.ts',
            markets: ['ETH-USD'],
            params: { quoteAmount: '100' },
          },
          {
            name: 'mean-reversion',
            module: 'strategies/mean-reversion.ts',
            markets: ['BTC-USD'],
            params: { window: 4 },
          },
        ],
      },
      // Only instances that carry what they ran with (a hand-built one may not).
      params: [
        {
          strategy: 'dca',
          params: [
            { name: 'quoteAmount', value: '100', source: 'config' },
            { name: 'everySnapshots', value: 10, source: 'default' },
          ],
        },
      ],
      markets: [
        { marketId: 1, symbol: 'ETH-USD', priceExpo: 2, amountExpo: 4 },
        { marketId: 3, symbol: 'BTC-USD', priceExpo: 1, amountExpo: 5 },
      ],
    });
    expect(report.finalPositions).toEqual([
      {
        marketId: 1,
        symbol: 'ETH-USD',
        position: '0.5',
        avgEntryPrice: '3005.5',
        markPrice: '3031.25',
        unrealizedPnl: '12.875',
      },
      {
        marketId: 3,
        symbol: 'BTC-USD',
        position: '0',
        avgEntryPrice: '0',
        markPrice: '65163.5',
        unrealizedPnl: '0',
      },
    ]);
  });

  it('turns journal rows into table rows: decimal strings, ISO times, no price for MARKET', () => {
    const report = demoReport();
    expect(report.orders[0]).toEqual({
      id: 1,
      time: '2023-11-14T22:13:25.000Z',
      strategy: 'dca',
      tag: null,
      symbol: 'ETH-USD',
      side: 'BUY',
      type: 'MARKET',
      amount: '0.5',
      price: null,
      state: 'FILLED',
      filled: '0.5',
      avgFillPrice: '3005.5',
      estimated: false,
      error: null,
    });
    expect(report.orders[1]?.price).toBe('64900');
    expect(report.orders[2]?.avgFillPrice).toBeNull();
    expect(report.orders[3]?.estimated).toBe(true);
    expect(report.orders.map((o) => o.state)).toEqual([
      'FILLED',
      'FILLED',
      'CANCELLED',
      'FILLED',
      'REJECTED',
    ]);
  });

  it('series start at the first sample, keep equity = start + net and the drawdown from peak', () => {
    const report = demoReport();
    const { series } = report;
    expect(series.sampleCount).toBe(60);
    expect(series.t).toHaveLength(60);
    expect(series.equity[0]).toBe('100000');
    expect(series.equity[59]).toBe(report.summary.finalEquity);
    const maxDrawdown = series.drawdown.reduce((m, d) => (Number(d) > Number(m) ? d : m), '0');
    expect(maxDrawdown).toBe(report.summary.maxDrawdown);
    expect(series.positions.map((p) => [p.symbol, p.position.length])).toEqual([
      ['ETH-USD', 60],
      ['BTC-USD', 60],
    ]);
  });

  it('downsamples long series to at most 2000 points, keeping ends and the worst drawdown', () => {
    const list: Sample[] = [];
    for (let i = 0; i < 10_007; i += 1) {
      // A saw-tooth with one deep dip at sample 7_777.
      const realized = i === 7_777 ? '-5000' : String((i % 50) * 3);
      const markets = [marketSample(1, { realizedPnlX18: realized })];
      list.push({
        seq: i,
        t: i * 1000,
        markets,
        byStrategy: [{ strategy: 'dca', markets }],
        tops: [],
      });
    }
    const t = trace({ samples: list });
    const report = buildReport(t, computeMetrics(t));
    const { series } = report;
    expect(series.sampleCount).toBe(10_007);
    expect(series.t.length).toBeLessThanOrEqual(2000);
    expect(series.t.length).toBeGreaterThan(1000);
    expect(series.seq[0]).toBe(0);
    expect(series.seq[series.seq.length - 1]).toBe(10_006);
    expect(series.seq).toContain(7_777);
    expect(series.drawdown.reduce((m, d) => (Number(d) > m ? Number(d) : m), 0)).toBe(
      Number(report.summary.maxDrawdown),
    );
    expect([...series.seq].sort((a, b) => a - b)).toEqual(series.seq);
    expect(series.positions[0]?.position).toHaveLength(series.t.length);
    expect(serializeReport(buildReport(t, computeMetrics(t)))).toBe(serializeReport(report));
  });

  it('handles a trace without samples or orders', () => {
    const t = trace();
    const report = buildReport(t, computeMetrics(t));
    expect(report.series).toEqual({
      sampleCount: 0,
      t: [],
      seq: [],
      equity: [],
      drawdown: [],
      positions: [],
      benchmark: [],
      strategyEquity: [{ strategy: 'dca', equity: [] }],
    });
    expect(report.tearsheet.trades).toEqual([]);
    expect(report.tearsheet.priceCharts).toEqual([]);
    expect(report.tearsheet.returnsHistogram).toEqual({ edgesBps: [], counts: [], zero: 0 });
    expect(renderReportHtml(report)).toContain('No samples: nothing to draw.');
  });
});

describe('report determinism', () => {
  it('building twice from the same trace gives byte-identical JSON and HTML', () => {
    const a = demoReport();
    const b = demoReport();
    expect(serializeReport(b)).toBe(serializeReport(a));
    expect(renderReportHtml(b)).toBe(renderReportHtml(a));
  });

  it('writeReport writes the same bytes into two folders, creating them', async () => {
    const root = await tempDir();
    const first = await writeReport(join(root, 'a', 'nested'), demoReport());
    const second = await writeReport(join(root, 'b'), demoReport());
    expect(first).toEqual({
      jsonPath: join(root, 'a', 'nested', 'report.json'),
      htmlPath: join(root, 'a', 'nested', 'report.html'),
    });
    expect(await readFile(second.jsonPath)).toEqual(await readFile(first.jsonPath));
    expect(await readFile(second.htmlPath)).toEqual(await readFile(first.htmlPath));
    const json = await readFile(first.jsonPath, 'utf8');
    expect(json).toBe(serializeReport(demoReport()));
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(demoReport())));
  });

  it('names the path when the folder cannot be written', async () => {
    const root = await tempDir();
    const file = join(root, 'not-a-dir');
    await writeFile(file, 'x');
    const failure = await writeReport(join(file, 'report'), demoReport()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(QuantaError);
    expect((failure as QuantaError).code).toBe(ErrorCodes.REPORT_WRITE_FAILED);
    expect((failure as QuantaError).shortMessage).toBe(
      `backtest report ${join(file, 'report')}: cannot write (ENOTDIR)`,
    );
  });
});

describe('renderReportHtml', () => {
  const html = renderReportHtml(demoReport());

  it('is self-contained: no external script, stylesheet or other resource', () => {
    expect(html).not.toMatch(/\b(?:src|href|action|poster|srcset)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/<script[^>]*\bsrc\s*=/i);
    expect(html).not.toMatch(/@import|url\(\s*["']?(?:https?:)?\/\//i);
  });

  it('inlines the uPlot library and its stylesheet', () => {
    expect(html).toContain(uplotJs);
    expect(html).toContain(uplotCss);
    expect(html).toContain('<script type="application/json" id="report-data">');
    expect(html).toContain('document.body.dataset.chartsReady');
  });

  it('has a container for each chart', () => {
    expect(html).toContain('id="chart-equity"');
    expect(html).toContain('id="chart-drawdown"');
    expect(html).toContain('data-position-chart="1"');
    expect(html).toContain('data-position-chart="3"');
  });

  it('escapes text from strategies and the venue, in tables and in the inline data', () => {
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('take &lt;profit&gt; &amp; &quot;run&quot;');
    // The data, uPlot, Lightweight Charts and the page's own script: no element a text opened.
    expect(html.match(/<script\b/g)).toHaveLength(4);
    expect(html.match(/<\/script>/g)).toHaveLength(4);
  });

  it('shows prices to the tick and amounts to the quantum, exact in the tooltip (it printed 18 digits, or 4 and 6 places in the trades)', () => {
    const report = demoReport();
    const page = renderReportHtml({
      ...report,
      finalPositions: report.finalPositions.map((p) =>
        p.symbol === 'ETH-USD'
          ? { ...p, avgEntryPrice: '3005.123456789012345678', position: '0.500049999' }
          : p,
      ),
      orders: report.orders.map((o) =>
        o.symbol === 'BTC-USD' && o.avgFillPrice !== null
          ? { ...o, avgFillPrice: '64900.063333333333333333' }
          : o,
      ),
      tearsheet: {
        ...report.tearsheet,
        trades: report.tearsheet.trades.map((t) =>
          t.symbol === 'BTC-USD'
            ? { ...t, entryPrice: '64899.987654321', amount: '0.012345678' }
            : t,
        ),
      },
    });
    // ETH-USD: 2 price digits, 4 amount digits; BTC-USD: 1 price digit, 5 amount digits.
    expect(page).toContain('<span title="3005.123456789012345678">3005.12</span>');
    expect(page).toContain('<span title="0.500049999">0.5</span>');
    expect(page).toContain('<span title="64900.063333333333333333">64900.1</span>');
    expect(page).toContain('<span title="64899.987654321">64900</span>');
    expect(page).toContain('<span title="0.012345678">0.01235</span>');
    expect(page).not.toContain('>3005.123456789012345678<');
    // The charts read the same precision: the markets ride along in the inline data.
    expect(page).toContain('"markets":[{"marketId":1,"symbol":"ETH-USD","priceExpo":2');
  });

  it('shows the starting capital in the header to the cent and every instance position to the quantum (both were printed as given: 100000.123456, 0.500049999)', () => {
    const report = demoReport();
    const page = renderReportHtml({
      ...report,
      run: { ...report.run, startingCapital: '100000.123456' },
      strategies: report.strategies.map((s) => ({
        ...s,
        markets: s.markets.map((m) =>
          m.symbol === 'ETH-USD' ? { ...m, finalPosition: '0.500049999' } : m,
        ),
      })),
    });
    expect(page).toContain('starting capital <span title="100000.123456">100000.12</span>');
    const perMarket = page.slice(
      page.indexOf('<h2>Strategies</h2>'),
      page.indexOf('<h2>Trades</h2>'),
    );
    expect(perMarket).toContain('<span title="0.500049999">0.5</span>');
    expect(perMarket).not.toContain('>0.500049999<');
  });

  it('shows the orders table, outcomes and refusals', () => {
    for (const text of [
      '<th>avg fill</th>',
      '2023-11-14 22:13:25.000',
      'state-rejected',
      'BELOW_MIN_AMOUNT',
      'ABOVE_MAX_ORDER_NOTIONAL',
      'CANCELLED',
    ]) {
      expect(html).toContain(text);
    }
  });
});
