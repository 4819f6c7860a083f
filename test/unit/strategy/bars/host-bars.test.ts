/**
 * Bars as a strategy sees them through its host: delivered only once closed (a strategy that
 * tries to look at the open bar cannot), in a fixed order, unchanged by what comes after their
 * close, with the strategy's own fills as volume.
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log/logger.ts';
import { createSnapshot, type Snapshot } from '../../../../src/market/snapshot.ts';
import type { Bar } from '../../../../src/strategy/bars/bar.ts';
import { defineStrategy, type Strategy } from '../../../../src/strategy/define-strategy.ts';
import { StrategyHost } from '../../../../src/strategy/strategy-host.ts';
import { testMarket } from '../../../helpers/markets.ts';

const DAY = Date.UTC(2026, 0, 5);
const ETH = testMarket();
const BTC = testMarket({ id: 2, symbol: 'BTC-USD' });

/** A snapshot at `t` with a 1-wide book around each given mid (undefined: no quote). */
function at(seq: number, t: number, mids: Record<number, number | undefined>): Snapshot {
  const quotes = Object.entries(mids)
    .filter(([, mid]) => mid !== undefined)
    .map(([id, mid]) => ({
      marketId: Number(id),
      timestamp: t,
      bids: [{ price: String((mid as number) - 0.5), quantity: '1' }],
      asks: [{ price: String((mid as number) + 0.5), quantity: '1' }],
    }));
  return createSnapshot({ seq, takenAt: t, markets: [ETH, BTC], quotes });
}

/** A walk of `count` snapshots every `everyMs` from `start`, with a few gaps and quiet spells. */
function walk(count: number, everyMs: number, seed: number, start = DAY + 3_000): Snapshot[] {
  const out: Snapshot[] = [];
  let eth = 2000;
  let btc = 60_000;
  let t = start;
  let x = seed;
  for (let seq = 1; seq <= count; seq++) {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    eth += (x % 21) - 10;
    btc += (x % 41) - 20;
    t += x % 17 === 0 ? everyMs * 7 : everyMs; // a gap now and then
    out.push(at(seq, t, { 1: eth, 2: x % 13 === 0 ? undefined : btc }));
  }
  return out;
}

function hostOf(strategy: Strategy, clock: { now: number }, symbols = ['ETH-USD', 'BTC-USD']) {
  return new StrategyHost({
    strategy,
    name: strategy.name,
    params: {},
    symbols,
    now: () => clock.now,
    log: silentLogger,
    store: { get: () => undefined, set: () => undefined },
    positionOf: () => 0n,
    openOrders: () => [],
  });
}

async function run(host: StrategyHost, clock: { now: number }, snapshots: readonly Snapshot[]) {
  for (const snapshot of snapshots) {
    clock.now = snapshot.takenAt;
    await host.onSnapshot(snapshot);
  }
}

const TIMEFRAMES = { '5s': 50, '1m': 10, '5m': 4 };

describe('bars through the strategy host', () => {
  it('a strategy that tries to see a bar before its close never does', async () => {
    const clock = { now: 0 };
    const early: string[] = [];
    const delivered: Bar[] = [];
    let lastTakenAt = 0;
    const peek = defineStrategy({
      name: 'peek',
      bars: TIMEFRAMES,
      onBar(bar, ctx) {
        if (bar.end > ctx.now())
          early.push(`onBar ${bar.timeframe} ending ${bar.end} at ${ctx.now()}`);
        delivered.push(bar);
      },
      onSnapshot(snapshot, ctx) {
        lastTakenAt = snapshot.takenAt;
        for (const timeframe of Object.keys(TIMEFRAMES))
          for (const market of ['ETH-USD', 'BTC-USD'] as const) {
            const bars = ctx.bars(market, timeframe);
            for (const bar of bars)
              if (bar.end > snapshot.takenAt)
                early.push(`ctx.bars ${timeframe} ending ${bar.end} at ${snapshot.takenAt}`);
            // The bar holding this snapshot is the open one: never listed.
            const open = Math.floor(snapshot.takenAt / bar5(timeframe)) * bar5(timeframe);
            if (bars.some((bar) => bar.start === open)) early.push(`open ${timeframe} bar listed`);
            // Mutating what it was given changes nothing the host keeps.
            (bars as Bar[]).length = 0;
          }
        return [];
      },
    });
    const host = hostOf(peek, clock);
    await run(host, clock, walk(2000, 700, 7));
    expect(early).toEqual([]);
    expect(delivered.length).toBeGreaterThan(300);
    expect(lastTakenAt).toBeGreaterThan(DAY + 20 * 60_000);
    // The latest bar of each timeframe is the one that closed at or before the last snapshot.
    const last = delivered.filter((bar) => bar.timeframe === '1m' && bar.marketId === 1).at(-1);
    expect(last?.end).toBeLessThanOrEqual(lastTakenAt);
    expect(last?.end).toBeGreaterThan(lastTakenAt - 60_000);
  });

  it('a bar is made only of the snapshots before its end: what follows changes nothing delivered', async () => {
    const snapshots = walk(1500, 900, 11);
    const cut = 1000;
    // The same run up to `cut`, then a different market.
    const other = [
      ...snapshots.slice(0, cut),
      ...walk(500, 900, 99, (snapshots[cut - 1] as Snapshot).takenAt),
    ];
    const seen = async (list: readonly Snapshot[]) => {
      const clock = { now: 0 };
      const bars: { bar: Bar; deliveredAt: number }[] = [];
      const strategy = defineStrategy({
        name: 'record',
        bars: TIMEFRAMES,
        onBar: (bar, ctx) => void bars.push({ bar, deliveredAt: ctx.now() }),
      });
      await run(hostOf(strategy, clock), clock, list);
      return bars;
    };
    const a = await seen(snapshots);
    const b = await seen(other);
    const cutAt = (snapshots[cut - 1] as Snapshot).takenAt;
    const before = (list: typeof a) => list.filter((x) => x.deliveredAt <= cutAt);
    expect(before(a).length).toBeGreaterThan(100);
    expect(before(b)).toEqual(before(a));
    expect(b).not.toEqual(a);
  });

  it('delivers bars in order of close, then timeframe, then market, before onSnapshot', async () => {
    const clock = { now: 0 };
    const calls: string[] = [];
    const strategy = defineStrategy({
      name: 'order',
      bars: { '1m': 5, '5s': 5 },
      onBar: (bar) => void calls.push(`${bar.timeframe}:${bar.symbol}:${(bar.end - DAY) / 1000}`),
      onSnapshot: (snapshot) => {
        calls.push(`snapshot ${(snapshot.takenAt - DAY) / 1000}`);
        return [];
      },
    });
    await run(hostOf(strategy, clock), clock, [
      at(1, DAY + 56_000, { 1: 10, 2: 20 }),
      at(2, DAY + 61_000, { 1: 11, 2: 21 }),
    ]);
    expect(calls).toEqual([
      'snapshot 56',
      '5s:ETH-USD:60',
      '5s:BTC-USD:60',
      '1m:ETH-USD:60',
      '1m:BTC-USD:60',
      'snapshot 61',
    ]);
  });

  it('counts the strategy’s own fills as the volume of the open bar of their market', async () => {
    const clock = { now: 0 };
    let bars: readonly Bar[] = [];
    const strategy = defineStrategy({
      name: 'vol',
      bars: { '1m': 5 },
      onSnapshot: (_s, ctx) => {
        bars = [...ctx.bars(1, '1m'), ...ctx.bars('BTC-USD', '1m')];
        return [];
      },
    });
    const host = hostOf(strategy, clock);
    const fill = {
      orderId: 1,
      side: 'BUY' as const,
      price: '10',
      priceEstimated: false,
      tag: null,
    };
    await run(host, clock, [at(1, DAY + 1_000, { 1: 10, 2: 20 })]);
    await host.onFill({ ...fill, marketId: 1, amount: '0.25' });
    await host.onFill({ ...fill, marketId: 1, amount: '0.5' });
    await host.onFill({ ...fill, marketId: 2, amount: '3' });
    await run(host, clock, [at(2, DAY + 60_000, { 1: 10, 2: 20 })]);
    await run(host, clock, [at(3, DAY + 120_000, { 1: 10, 2: 20 })]);
    expect(bars.map((bar) => [bar.symbol, (bar.start - DAY) / 60_000, bar.volume])).toEqual([
      ['ETH-USD', 0, '0.75'],
      ['ETH-USD', 1, '0'],
      ['BTC-USD', 0, '3'],
      ['BTC-USD', 1, '0'],
    ]);
  });

  it('an undeclared timeframe is a clear error in the strategy, counted as its failure', async () => {
    const clock = { now: DAY };
    let message = '';
    const strategy = defineStrategy({
      name: 'typo',
      bars: { '1m': 5 },
      onSnapshot: (_s, ctx) => {
        try {
          ctx.bars('ETH-USD', '1h');
        } catch (error) {
          message = (error as Error).message;
        }
        return [];
      },
    });
    await run(hostOf(strategy, clock), clock, [at(1, DAY, { 1: 10 })]);
    expect(message).toBe(
      'ctx.bars: timeframe 1h is not declared in the bars of strategy typo (declared: 1m)',
    );
  });

  it('an async onBar gets its bars in order, each with the history up to it', async () => {
    const clock = { now: 0 };
    const seen: string[] = [];
    const strategy = defineStrategy({
      name: 'slow',
      bars: { '1m': 3 },
      async onBar(bar, ctx) {
        await Promise.resolve();
        const history = ctx.bars(bar.marketId, '1m');
        seen.push(
          `${(bar.end - DAY) / 60_000}:${history.length}:${history.at(-1)?.end === bar.end}`,
        );
        return [];
      },
    });
    // A 4-minute gap closes four bars at once for ETH-USD.
    await run(hostOf(strategy, clock, ['ETH-USD']), clock, [
      at(1, DAY + 1_000, { 1: 10 }),
      at(2, DAY + 4 * 60_000 + 1, { 1: 11 }),
    ]);
    expect(seen).toEqual(['1:1:true', '2:2:true', '3:3:true', '4:3:true']);
  });

  it('a strategy with neither onSnapshot nor onBar is refused when defined', () => {
    // @ts-expect-error: a definition needs onSnapshot or onBar (a type error, and thrown at run time)
    expect(() => defineStrategy({ name: 'nothing' })).toThrow(
      'strategy nothing has neither onSnapshot nor onBar: define at least one',
    );
  });
});

function bar5(timeframe: string): number {
  return { '5s': 5_000, '1m': 60_000, '5m': 300_000 }[timeframe] as number;
}
