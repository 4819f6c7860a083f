import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/backtest/metrics.ts';
import { renderReportHtml } from '../../../src/backtest/report-html.ts';
import { buildReport } from '../../../src/backtest/report-json.ts';
import { DayCloses, periodReturns } from '../../../src/backtest/period-returns.ts';
import { roundTrips, streaksOf, tradeStats } from '../../../src/backtest/round-trips.ts';
import { buildTearsheet } from '../../../src/backtest/tearsheet.ts';
import type { FillEvent, Sample } from '../../../src/backtest/trace.ts';
import { fill, marketSample, order, trace, x18 } from './trace-fixtures.ts';

const T = 1_700_000_000_000;
const s = (n: number): number => T + n * 1000;

// Strategy a, market 1, one unit at a time (fees 0 but for one); b's one trade is entered
// before a's first and closed between a's second and third exits.
//   order  tag               trip                      net   closed at
//   1→2    breakout→stop     LONG  100→98              −2    s1
//   3→4    breakout→(none)   LONG  100→99              −1    s3
//   21→22  dip→(none) (b)    LONG  100→101             +1    s3.5
//   5→6    dip→take-profit   SHORT 100→95              +5    s5
//   7→8    dip→trailing      SHORT 100→97, fee 0.5     +2.5  s7
//   9→10   (none)→time-limit LONG  100→104             +4    s9
//   11→12  breakout→stop     LONG  100→100              0    s11
//   13→0   breakout→liq.     LONG  2 @ 100→90          −20   s13
//   15     dip               SHORT open
const FILLS: FillEvent[] = [
  fill(21, 'b', 1, 'BUY', '1', '100', '0', s(-1)),
  fill(1, 'a', 1, 'BUY', '1', '100', '0', s(0)),
  fill(2, 'a', 1, 'SELL', '1', '98', '0', s(1)),
  fill(3, 'a', 1, 'BUY', '1', '100', '0', s(2)),
  fill(4, 'a', 1, 'SELL', '1', '99', '0', s(3)),
  fill(22, 'b', 1, 'SELL', '1', '101', '0', s(3.5)),
  fill(5, 'a', 1, 'SELL', '1', '100', '0', s(4)),
  fill(6, 'a', 1, 'BUY', '1', '95', '0', s(5)),
  fill(7, 'a', 1, 'SELL', '1', '100', '0.25', s(6)),
  fill(8, 'a', 1, 'BUY', '1', '97', '0.25', s(7)),
  fill(9, 'a', 1, 'BUY', '1', '100', '0', s(8)),
  fill(10, 'a', 1, 'SELL', '1', '104', '0', s(9)),
  fill(11, 'a', 1, 'BUY', '1', '100', '0', s(10)),
  fill(12, 'a', 1, 'SELL', '1', '100', '0', s(11)),
  fill(13, 'a', 1, 'BUY', '2', '100', '0', s(12)),
  fill(0, 'a', 1, 'SELL', '2', '90', '0', s(13)),
  fill(15, 'a', 1, 'SELL', '1', '100', '0', s(14)),
];

const TAGS: Record<number, string | null> = {
  1: 'breakout',
  2: 'exit:stop-loss',
  3: 'breakout',
  4: null,
  21: 'dip',
  22: null,
  5: 'dip',
  6: 'exit:take-profit',
  7: 'dip',
  8: 'exit:trailing-stop',
  9: null,
  10: 'exit:time-limit',
  11: 'breakout',
  12: 'exit:stop-loss',
  13: 'breakout',
  15: 'dip',
};

function tradesTrace() {
  const orders = Object.entries(TAGS).map(([id, tag]) =>
    order({ id: Number(id), strategy: Number(id) > 20 ? 'b' : 'a', tag }),
  );
  return trace({ fills: FILLS, orders, strategies: ['a', 'b'] });
}

describe('streaks, long/short, by tag and by exit on a hand-built set of round trips', () => {
  it('streaks run in the order trips closed; a zero trip ends both', () => {
    const trips = roundTrips(FILLS);
    // By exit time: L L W(b) W W W 0 L. By entry, b would come first and the wins run 3.
    expect(streaksOf(trips)).toEqual({ maxWinStreak: 4, maxLossStreak: 2 });
    expect(tradeStats(trips)).toMatchObject({
      closed: 8,
      open: 1,
      wins: 4,
      losses: 3,
      maxWinStreak: 4,
      maxLossStreak: 2,
    });
    expect(streaksOf([])).toEqual({ maxWinStreak: 0, maxLossStreak: 0 });
  });

  it('long and short apart, each with the full trade statistics', () => {
    const sheet = buildTearsheet(tradesTrace(), computeMetrics(tradesTrace()));
    expect(sheet.directions.long).toEqual({
      closed: 6,
      open: 0,
      wins: 2,
      losses: 3,
      winRate: '0.333333',
      profitFactor: '0.217391', // 5 / 23
      expectancy: '-3', // −18 / 6
      avgWin: '2.5',
      avgLoss: '-7.666666666666666666', // −23 / 3, toward zero
      grossProfit: '5',
      grossLoss: '-23',
      avgDurationMs: 1583, // (1 + 1 + 4.5 + 1 + 1 + 1) s / 6, rounded down
      maxWinStreak: 2,
      maxLossStreak: 2,
    });
    expect(sheet.directions.short).toMatchObject({
      closed: 2,
      open: 1,
      wins: 2,
      losses: 0,
      grossProfit: '7.5',
      avgWin: '3.75',
      maxWinStreak: 2,
      maxLossStreak: 0,
    });
  });

  it('by the tag of the order that opened the trip, untagged last', () => {
    const sheet = buildTearsheet(tradesTrace(), computeMetrics(tradesTrace()));
    expect(sheet.tags).toEqual([
      { tag: 'breakout', closed: 4, wins: 0, winRate: '0.000000', netPnl: '-23' },
      { tag: 'dip', closed: 3, wins: 3, winRate: '1.000000', netPnl: '8.5' },
      { tag: null, closed: 1, wins: 1, winRate: '1.000000', netPnl: '4' },
    ]);
  });

  it('by what closed the trip: each protective exit, a liquidation, the strategy', () => {
    const sheet = buildTearsheet(tradesTrace(), computeMetrics(tradesTrace()));
    expect(sheet.exits).toEqual([
      { exit: 'stop-loss', closed: 2, wins: 0, winRate: '0.000000', netPnl: '-2' },
      { exit: 'take-profit', closed: 1, wins: 1, winRate: '1.000000', netPnl: '5' },
      { exit: 'trailing-stop', closed: 1, wins: 1, winRate: '1.000000', netPnl: '2.5' },
      { exit: 'time-limit', closed: 1, wins: 1, winRate: '1.000000', netPnl: '4' },
      { exit: 'liquidation', closed: 1, wins: 0, winRate: '0.000000', netPnl: '-20' },
      { exit: 'strategy', closed: 2, wins: 1, winRate: '0.500000', netPnl: '0' },
    ]);
    // The liquidated trip's row says so too.
    expect(sheet.trades.filter((t) => t.exit === 'liquidation')).toHaveLength(1);
  });
});

// 2026-01-30 12:00 UTC and on: samples of one market whose realized PnL moves the equity.
const DAY = 24 * 3600 * 1000;
const JAN30 = Date.UTC(2026, 0, 30);

function sampleAt(t: number, realized: string, seq: number): Sample {
  const markets = [marketSample(1, { realizedPnlX18: realized })];
  return { seq, t, markets, byStrategy: [{ strategy: 'dca', markets }], tops: [] };
}

const DAYS: Sample[] = [
  sampleAt(JAN30 + 12 * 3600_000, '0', 1),
  sampleAt(JAN30 + DAY - 1, '100', 2), // Jan 30 closes at 100100
  sampleAt(JAN30 + DAY, '100', 3),
  sampleAt(JAN30 + DAY + 18 * 3600_000, '-50', 4), // Jan 31 closes at 99950
  sampleAt(JAN30 + 2 * DAY + 9 * 3600_000, '-50', 5), // Feb 1: no trade
  // Feb 2: no sample at all (a gap in the data)
  sampleAt(JAN30 + 4 * DAY + 3600_000, '250', 6), // Feb 3 closes at 100250
];

describe('returns per UTC day and per UTC month', () => {
  it('across a month boundary, a day without a trade and a day without data', () => {
    const t = trace({ samples: DAYS });
    const { daily, monthly } = buildTearsheet(t, computeMetrics(t)).periodReturns;
    expect(daily).toEqual([
      row('2026-01-30', '100000', '100100', '100', '0.100000'),
      row('2026-01-31', '100100', '99950', '-150', '-0.149850'), // −150 / 100100
      row('2026-02-01', '99950', '99950', '0', '0.000000'),
      row('2026-02-02', '99950', '99950', '0', '0.000000'),
      row('2026-02-03', '99950', '100250', '300', '0.300150'), // 300 / 99950
    ]);
    expect(monthly).toEqual([
      row('2026-01', '100000', '99950', '-50', '-0.050000'),
      row('2026-02', '99950', '100250', '300', '0.300150'),
    ]);
  });

  it('as the backtest measures them (one close per day) and from every sample alike', () => {
    const closes = new DayCloses();
    for (const sample of DAYS)
      closes.push(sample.t, x18('100000') + (sample.markets[0]?.realizedPnlX18 ?? 0n));
    expect(closes.days).toHaveLength(4);
    const t = trace({ samples: DAYS });
    expect(periodReturns(closes, x18('100000'))).toEqual(
      buildTearsheet(t, computeMetrics(t)).periodReturns,
    );
    expect(periodReturns(new DayCloses(), x18('100000'))).toEqual({ daily: [], monthly: [] });
  });

  it('a period that began at equity 0 or less has no return, only its PnL', () => {
    const closes = new DayCloses();
    closes.push(JAN30, 0n);
    closes.push(JAN30 + DAY, x18('5'));
    expect(periodReturns(closes, x18('10')).daily).toEqual([
      row('2026-01-30', '10', '0', '-10', '-100.000000'),
      { ...row('2026-01-31', '0', '5', '5', null) },
    ]);
  });
});

function row(period: string, start: string, end: string, pnl: string, pct: string | null) {
  return { period, startEquity: start, endEquity: end, pnl, returnPct: pct };
}

/** The rows of the page's table whose class list has `cls`, each cell's text without tags. */
function tableRows(html: string, cls: string): string[][] {
  const found = new RegExp(`<table class="[^"]*\\b${cls}\\b[^"]*">([\\s\\S]*?)</table>`).exec(html);
  if (found === null) throw new Error(`no table .${cls} in the page`);
  return [...(found[1] ?? '').matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
    [...(r[1] ?? '').matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) =>
      (c[1] ?? '').replace(/<[^>]+>/g, '').trim(),
    ),
  );
}

describe('report.html shows the breakdowns as tables', () => {
  it('long/short with streaks, entry tags, exits, months and days, params and their source', () => {
    const t = trace({
      ...tradesTrace(),
      samples: DAYS,
      startedAt: DAYS[0]?.t ?? 0,
      endedAt: DAYS[DAYS.length - 1]?.t ?? 0,
      instances: [
        {
          name: 'a',
          module: 'strategies/ema-cross.ts',
          markets: ['ETH-USD'],
          params: { slow: 30 },
          paramsUsed: [
            { name: 'fast', value: 9, source: 'default' },
            { name: 'slow', value: 30, source: 'config' },
          ],
        },
      ],
    });
    const html = renderReportHtml(buildReport(t, computeMetrics(t)));
    const directions = tableRows(html, 'directions');
    expect(directions[0]).toContain('win streak');
    expect(directions.slice(1).map((r) => [r[0], r[1], r[2], r[8], r[9]])).toEqual([
      ['long', '6', '0', '2', '2'],
      ['short', '2', '1', '2', '0'],
    ]);
    expect(
      tableRows(html, 'tags')
        .slice(1)
        .map((r) => [r[0], r[1], r[2]]),
    ).toEqual([
      ['breakout', '4', '0'],
      ['dip', '3', '3'],
      ['untagged', '1', '1'],
    ]);
    expect(tableRows(html, 'exits').map((r) => r[0])).toContain('liquidation');
    expect(
      tableRows(html, 'monthly')
        .slice(1)
        .map((r) => [r[0], r[4]]),
    ).toEqual([
      ['2026-01', '-0.05%'],
      ['2026-02', '0.30%'],
    ]);
    expect(
      tableRows(html, 'daily')
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02', '2026-02-03']);
    expect(tableRows(html, 'params')).toEqual([
      ['strategy', 'param', 'value used', 'from'],
      ['a', 'fast', '9', 'default'],
      ['a', 'slow', '30', 'config'],
    ]);
  });
});
