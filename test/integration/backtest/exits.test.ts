// Protective exits in the backtest (issue 27) on hand-built recordings: a stop fires on the
// first snapshot whose bid crosses it and a gap through it fills at the gap price (the book the
// exit order meets), never at the stop level; a trailing stop follows the best bid; a reduce-only
// exit racing the strategy's own close never opens the opposite position.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { renderReportHtml } from '../../../src/backtest/report-html.ts';
import { buildReport } from '../../../src/backtest/report-json.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import type { BacktestTrace } from '../../../src/backtest/trace.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { RecordingWriter } from '../../../src/market/recording/index.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import { formatX18 } from '../../../src/money/index.ts';
import { testMarket } from '../../helpers/markets.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

const T0 = Date.parse('2026-03-02T10:00:00Z');
const STEP = 1000;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A recording of one snapshot per second, each with one level a side: `[bid, ask]`. */
async function recordingOf(books: readonly (readonly [string, string])[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'quanta-exits-bt-'));
  dirs.push(dir);
  const writer = await RecordingWriter.open({ dir: join(dir, 'rec'), source: 'exits test' });
  books.forEach(([bid, ask], i) => {
    writer.write(
      createSnapshot({
        seq: i + 1,
        takenAt: T0 + i * STEP,
        markets: [testMarket()],
        quotes: [
          {
            marketId: 1,
            timestamp: T0 + i * STEP,
            bids: [{ price: bid, quantity: '50' }],
            asks: [{ price: ask, quantity: '50' }],
          },
        ],
      }),
    );
  });
  await writer.close();
  return join(dir, 'rec');
}

/** Backtests the guarded strategy (one entry of 1 ETH with `exits`) on `recording`. */
async function run(
  recording: string,
  params: Record<string, unknown>,
  backtest = '',
): Promise<BacktestTrace> {
  const yaml = `
venue: { writeUrl: embedded, readUrl: embedded }
risk: { maxOrderNotional: '100000', maxPositionNotional: '1000000' }
${backtest === '' ? '' : `backtest: ${backtest}`}
strategies:
  - module: test/fixtures/strategies/guarded.ts
    markets: [ETH-USD]
    params: ${JSON.stringify({ amount: '1', ...params })}
`;
  return runBacktest({
    config: parseConfig(yaml, 'exits.yaml', ROOT),
    data: recording,
    projectRoot: ROOT,
  });
}

/** Each order: its tag, the snapshot (1-based) it was created at, side, filled and fill price. */
function orders(trace: BacktestTrace) {
  return trace.orders.map((order) => ({
    tag: order.tag,
    at: (order.createdAt - T0) / STEP + 1,
    side: order.side,
    filled: formatX18(order.filledX18),
    price: order.avgFillPriceX18 === null ? null : formatX18(order.avgFillPriceX18),
  }));
}

/** The strategy's position after the last snapshot. */
function finalPosition(trace: BacktestTrace): string {
  const last = trace.samples.at(-1)?.markets.find((m) => m.marketId === 1);
  return last === undefined ? '0' : formatX18(last.positionX18);
}

describe('a stop in the backtest', () => {
  // Entry at snapshot 1 (meets the ask 100.1 of snapshot 2); 96 and 95.01 hold above the stop
  // 95; snapshot 5 gaps to 90 and stays there.
  const books = [
    ['100', '100.1'],
    ['100', '100.1'],
    ['96', '96.1'],
    ['95.01', '95.1'],
    ['90', '90.1'],
    ['90', '90.1'],
    ['89', '89.1'],
  ] as const;

  it('fires on the first snapshot whose bid crosses it and fills at the gap price, not the stop', async () => {
    const recording = await recordingOf(books);
    for (const latency of ['', '{ latencyMs: 0 }']) {
      const trace = await run(recording, { exits: { stopLoss: '95' } }, latency);
      expect(orders(trace)).toEqual([
        {
          tag: 'entry',
          at: 1,
          side: 'BUY',
          filled: '1',
          price: '100.1',
        },
        // Sent at snapshot 5 (bid 90), the first at or below 95; it meets the bid 90 of the
        // snapshot it is sent at (latency 0, as live) or of the next one (default latency).
        { tag: 'exit:stop-loss', at: 5, side: 'SELL', filled: '1', price: '90' },
      ]);
      expect(finalPosition(trace)).toBe('0');
    }
  });

  it('a trailing stop follows the best bid and fires on the fall back from it', async () => {
    // Best bid 110 at snapshot 4: the 5 % trailing stop is 104.5; 105 holds, 104 fires.
    const recording = await recordingOf([
      ['100', '100.1'],
      ['100', '100.1'],
      ['106', '106.1'],
      ['110', '110.1'],
      ['105', '105.1'],
      ['104', '104.1'],
      ['104', '104.1'],
      ['103', '103.1'],
    ]);
    const trace = await run(recording, { exits: { trailingStop: '5%' } }, '{ latencyMs: 0 }');
    expect(orders(trace)).toEqual([
      { tag: 'entry', at: 1, side: 'BUY', filled: '1', price: '100.1' },
      { tag: 'exit:trailing-stop', at: 6, side: 'SELL', filled: '1', price: '104' },
    ]);
  });
});

describe('a reduce-only exit', () => {
  it('racing the strategy’s own close never opens the opposite position', async () => {
    // Orders meet the book 2 snapshots after they are sent: the entry fills at snapshot 3, where
    // the strategy closes at once (closeAfter 1); the stop fires at snapshot 4 while that close
    // is still in flight, so both sells of the whole position are out at once. The close fills
    // at snapshot 5. The exit, reduce-only, is refused by the pre-trade checks (the position
    // with the pending close is already flat); sent as a plain sell it would open a short.
    const recording = await recordingOf([
      ['100', '100.1'],
      ['100', '100.1'],
      ['100', '100.1'],
      ['90', '90.1'],
      ['90', '90.1'],
      ['90', '90.1'],
      ['90', '90.1'],
    ]);
    const trace = await run(
      recording,
      { closeAfter: 1, exits: { stopLoss: '95' } },
      '{ latencyMs: 1500 }',
    );
    expect(orders(trace)).toEqual([
      { tag: 'entry', at: 1, side: 'BUY', filled: '1', price: '100.1' },
      { tag: 'strategy-close', at: 3, side: 'SELL', filled: '1', price: '90' },
    ]);
    expect(trace.refusals).toEqual({ REDUCE_ONLY_WITHOUT_POSITION: 1 });
    expect(finalPosition(trace)).toBe('0');
    for (const sample of trace.samples)
      for (const market of sample.markets) expect(market.positionX18 >= 0n).toBe(true);
  });
});

describe('the report', () => {
  it('names what closed each round trip (report.json and HTML) with figures per exit', async () => {
    // Levels from each entry: 1 at 100.1 takes profit (110.11) at 111; 2 at 111.1 is stopped
    // (105.545) at 105; 3 at 104.1 is closed by the strategy itself 3 snapshots later.
    const recording = await recordingOf([
      ['100', '100.1'],
      ['111', '111.1'],
      ['111', '111.1'],
      ['105', '105.1'],
      ['104', '104.1'],
      ['104', '104.1'],
      ['104', '104.1'],
      ['104', '104.1'],
      ['104', '104.1'],
    ]);
    const trace = await run(
      recording,
      { entries: 3, closeAfter: 3, exits: { stopLoss: '5%', takeProfit: '10%' } },
      '{ latencyMs: 0 }',
    );
    const report = buildReport(trace, computeMetrics(trace));
    expect(
      report.tearsheet.trades.map((t) => [t.entryPrice, t.exitPrice, t.exit, t.netPnl]),
    ).toEqual([
      ['100.1', '111', 'take-profit', '10.79445'],
      ['111.1', '105', 'stop-loss', '-6.20805'],
      ['104.1', '104', 'strategy', '-0.20405'],
    ]);
    expect(report.tearsheet.exits).toEqual([
      { exit: 'stop-loss', closed: 1, wins: 0, winRate: '0.000000', netPnl: '-6.20805' },
      { exit: 'take-profit', closed: 1, wins: 1, winRate: '1.000000', netPnl: '10.79445' },
      { exit: 'strategy', closed: 1, wins: 0, winRate: '0.000000', netPnl: '-0.20405' },
    ]);
    const html = renderReportHtml(report);
    const exitsTable = /<table class="num narrow exits">.*?<\/table>/s.exec(html)?.[0] ?? '';
    expect(
      exitsTable
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ).toBe(
      'closed by trades wins win rate net stop-loss 1 0 0.00% -6.21 take-profit 1 1 100.00% 10.79 strategy 1 0 0.00% -0.20',
    );
    const tradeRows = /<table class="num trades">.*?<\/table>/s.exec(html)?.[0] ?? '';
    expect(tradeRows).toContain('<th>exit</th>');
    for (const exit of ['take-profit', 'stop-loss', 'strategy'])
      expect(tradeRows).toContain(`<td>${exit}</td>`);
  });
});
