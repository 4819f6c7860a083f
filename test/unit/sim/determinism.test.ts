import { describe, expect, it } from 'vitest';
import type { SimOrderRequest } from '../../../src/sim/index.ts';
import { T0, engineAt, request, x18 } from './helpers.ts';

// A session mixing every kind of order with clock jumps of uneven size.
const script: { at: number; account: string; order: Partial<SimOrderRequest> }[] = [
  { at: 0, account: 'a', order: { amountX18: x18('2') } },
  { at: 1_500, account: 'b', order: { side: 'SELL', amountX18: x18('30'), marketId: 5 } },
  { at: 2_000, account: 'a', order: { type: 'LIMIT', priceX18: x18('2995'), amountX18: x18('3') } },
  {
    at: 2_000,
    account: 'b',
    order: { type: 'LIMIT', side: 'SELL', priceX18: x18('151'), amountX18: x18('50'), marketId: 5 },
  },
  { at: 47_250, account: 'a', order: { side: 'SELL', amountX18: x18('1.25'), isReduce: true } },
  { at: 90_000, account: 'c', order: { marketId: 3, amountX18: x18('0.5') } },
];

function run(seed: number) {
  const { engine, clock } = engineAt({ seed, volatilityBps: 20 });
  const orders = script.map(({ at, account, order }) => {
    clock.now = T0 + at;
    return engine.placeOrder(account, request({ expiryTs: T0 + at + 120_000, ...order }));
  });
  clock.now = T0 + 180_000;
  return {
    orders,
    later: orders.map((o) => engine.getOrder(o.accountId, o.id)),
    accounts: ['a', 'b', 'c'].map((id) => engine.account(id)),
    quotes: engine.quotes(),
  };
}

describe('determinism', () => {
  it('two engines with the same seed, clock readings and requests give identical answers', () => {
    const first = run(42);
    const second = run(42);
    expect(second).toEqual(first);
    // The session is not trivial: it filled things and moved prices.
    expect(first.later.some((o) => o?.fills.some((f) => f.liquidity === 'MAKER'))).toBe(true);
    expect(first.quotes.find((q) => q.marketId === 1)?.asks[0]?.price).not.toBe('3001.5');
  });

  it('another seed gives another path', () => {
    expect(run(43).quotes).not.toEqual(run(42).quotes);
  });

  it('does not depend on how often it is asked: one jump or many small reads reach the same state', () => {
    const jump = engineAt({ seed: 5, volatilityBps: 20 });
    const crawl = engineAt({ seed: 5, volatilityBps: 20 });
    for (let t = 0; t <= 30_000; t += 250) {
      crawl.clock.now = T0 + t;
      crawl.engine.quotes(1);
    }
    jump.clock.now = T0 + 30_000;
    expect(jump.engine.quotes()).toEqual(crawl.engine.quotes());
  });

  it('keeps each market on its own stream: removing a market leaves the others unchanged', () => {
    const all = engineAt({ seed: 9, volatilityBps: 20 });
    const some = engineAt({
      seed: 9,
      volatilityBps: 20,
      markets: all.engine.listMarkets().filter((m) => m.id !== 3),
    });
    all.clock.now = some.clock.now = T0 + 10_000;
    expect(some.engine.midPriceX18(1)).toBe(all.engine.midPriceX18(1));
    expect(some.engine.midPriceX18(1)).not.toBe(x18('3000'));
  });

  it('never goes back in time when the clock does', () => {
    const { engine, clock } = engineAt({ seed: 3, volatilityBps: 20 });
    clock.now = T0 + 5_000;
    const mid = engine.midPriceX18(1);
    clock.now = T0 + 1_000;
    expect(engine.midPriceX18(1)).toBe(mid);
    expect(engine.quotes(1)[0]?.timestamp).toBe(T0 + 5_000);
  });
});
