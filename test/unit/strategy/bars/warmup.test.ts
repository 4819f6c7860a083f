import { describe, expect, it } from 'vitest';
import { ema } from 'quanta/indicators';
import { silentLogger } from '../../../../src/log/logger.ts';
import { createSnapshot, type Snapshot } from '../../../../src/market/snapshot.ts';
import { planWarmup } from '../../../../src/strategy/bars/warmup.ts';
import { defineStrategy, type Strategy } from '../../../../src/strategy/define-strategy.ts';
import { StrategyHost } from '../../../../src/strategy/strategy-host.ts';
import type { OrderIntent } from '../../../../src/domain/index.ts';
import { testMarket } from '../../../helpers/markets.ts';

const DAY = Date.UTC(2026, 0, 5);
const market = testMarket();

function host(strategy: Strategy, clock: { now: number }, refused: string[]) {
  return new StrategyHost({
    strategy,
    name: strategy.name,
    params: {},
    symbols: ['ETH-USD'],
    now: () => clock.now,
    log: silentLogger,
    store: { get: () => undefined, set: () => undefined },
    positionOf: () => 0n,
    openOrders: () => [],
    onWarmingUp: (detail) => refused.push(detail),
  });
}

function snapshotAt(i: number, mid: number): Snapshot {
  const quotes = [
    {
      marketId: 1,
      timestamp: 0,
      bids: [{ price: String(mid - 1), quantity: '1' }],
      asks: [{ price: String(mid + 1), quantity: '1' }],
    },
  ];
  return createSnapshot({ seq: i + 1, takenAt: DAY + i * 60_000, markets: [market], quotes });
}

const buy: OrderIntent = { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.1' };

describe('warm-up', () => {
  it('refuses every intent until the declared bars closed, then accepts them', async () => {
    const strategy = defineStrategy({
      name: 'eager',
      bars: { '1m': 2 },
      warmup: { '1m': 3 },
      onBar: () => [buy],
      onSnapshot: () => [buy],
    });
    const clock = { now: 0 };
    const refused: string[] = [];
    const h = host(strategy, clock, refused);
    expect(h.warmupDeclared).toBe(true);
    const accepted: number[] = [];
    for (let i = 0; i < 6; i++) {
      clock.now = DAY + i * 60_000;
      accepted.push((await h.onSnapshot(snapshotAt(i, 100 + i))).length);
    }
    // Snapshot i closes bar i-1 (from the second on). The third bar closes at snapshot 3: its
    // onBar and that snapshot's onSnapshot are accepted; everything before is refused.
    expect(accepted).toEqual([0, 0, 0, 2, 2, 2]);
    expect(refused).toHaveLength(1 + 2 + 2);
    expect(refused[0]).toBe(
      'strategy eager is warming up: it waits for 3 closed 1m bars of ETH-USD (0 so far); an intent on ETH-USD from onSnapshot before the end of its warm-up',
    );
    expect(refused[4]).toBe(
      'strategy eager is warming up: it waits for 3 closed 1m bars of ETH-USD (2 so far); an intent on ETH-USD from onSnapshot before the end of its warm-up',
    );
    expect(h.warmedUpAt).toBe(DAY + 3 * 60_000);
    expect(h.warmingUpFor()).toBeUndefined();
  });

  it('waits for every registered indicator by default, and names the one it waits for', async () => {
    const strategy = defineStrategy({
      name: 'ind',
      bars: { '1m': 2 },
      indicators: () => ({ slow: ema('1m', 3) }),
      onBar: () => [buy],
    });
    const clock = { now: 0 };
    const refused: string[] = [];
    const h = host(strategy, clock, refused);
    const accepted: number[] = [];
    for (let i = 0; i < 5; i++) {
      clock.now = DAY + i * 60_000;
      accepted.push((await h.onSnapshot(snapshotAt(i, 100))).length);
    }
    // EMA(3) has its first value after the third bar (closed by snapshot 3).
    expect(accepted).toEqual([0, 0, 0, 1, 1]);
    expect(refused).toEqual([
      'strategy ind is warming up: it waits for ema(3) of ETH-USD (1 1m bars so far); an intent on ETH-USD from onBar before the end of its warm-up',
      'strategy ind is warming up: it waits for ema(3) of ETH-USD (2 1m bars so far); an intent on ETH-USD from onBar before the end of its warm-up',
    ]);
  });

  it('a strategy that declares nothing to wait for trades from its first snapshot', async () => {
    const strategy = defineStrategy({ name: 'plain', onSnapshot: () => [buy] });
    const refused: string[] = [];
    const h = host(strategy, { now: DAY }, refused);
    expect(h.warmupDeclared).toBe(false);
    expect(h.warmedUpAt).toBe(0);
    expect(await h.onSnapshot(snapshotAt(0, 100))).toHaveLength(1);
    expect(refused).toEqual([]);
  });

  it('history pre-loaded into the bars ends the warm-up before the first live snapshot', async () => {
    const strategy = defineStrategy({
      name: 'preloaded',
      bars: { '1m': 5 },
      indicators: () => ({ slow: ema('1m', 3) }),
      onBar: () => [buy],
    });
    const clock = { now: 0 };
    const refused: string[] = [];
    const h = host(strategy, clock, refused);
    for (let i = 0; i < 4; i++) h.preload(snapshotAt(i, 100 + i));
    clock.now = DAY + 4 * 60_000;
    expect(h.warmingUpFor()).toBeUndefined();
    expect(h.warmedUpAt).toBe(clock.now);
    // The first live snapshot closes the fourth bar: its onBar trades at once.
    expect(await h.onSnapshot(snapshotAt(4, 104))).toHaveLength(1);
    expect(refused).toEqual([]);
  });

  it('a warm-up on an undeclared timeframe or of no bars is refused at load', () => {
    expect(() =>
      planWarmup('x', { '5m': 3, '1m': 0 }, [{ timeframe: '1m', ms: 60_000, history: 1 }]),
    ).toThrow(
      expect.objectContaining({
        code: 'QUANTA_STRATEGY_LOAD',
        shortMessage: 'strategy x declares a warm-up it cannot have:',
        details: [
          'warmup.5m: not a timeframe of bars (declared: 1m)',
          'warmup.1m: closed bars needed must be a whole number from 1 to 525600, got 0',
        ],
      }),
    );
  });
});
