import { describe, expect, it } from 'vitest';
import { parseDecimalToX18 as x18 } from '../../../src/money/index.ts';
import { testMarket } from '../../helpers/markets.ts';
import { hostStrategy, quoteAt, snapshotOf } from '../../helpers/strategy-harness.ts';

const eth = testMarket();
const btc = testMarket({ id: 3, symbol: 'BTC-USD', amountExpo: 6, priceExpo: 1 });

describe('dca', () => {
  it('buys quoteAmount worth at the best ask every N snapshots, only on its markets', async () => {
    const { host } = await hostStrategy(
      'strategies/dca.ts',
      { quoteAmount: '30', everySnapshots: 3 },
      ['ETH-USD'],
    );
    const outputs = [];
    for (let seq = 1; seq <= 6; seq++) {
      outputs.push(
        await host.onSnapshot(
          snapshotOf(seq, [eth, btc], [quoteAt(1, '2999', '3000'), quoteAt(3, '1', '2')]),
        ),
      );
    }
    expect(outputs.map((o) => o.length)).toEqual([1, 0, 0, 1, 0, 0]);
    expect(outputs[0]).toEqual([
      { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.01', tag: 'dca' },
    ]);
  });

  it('skips a market without quotes', async () => {
    const { host } = await hostStrategy('strategies/dca.ts', { everySnapshots: 1 }, ['ETH-USD']);
    expect(await host.onSnapshot(snapshotOf(1, [eth]))).toEqual([]);
  });

  it('rejects bad params with the param named', async () => {
    await expect(
      hostStrategy('strategies/dca.ts', { everySnapshots: 0 }, ['ETH-USD']),
    ).rejects.toThrowErrorMatchingInlineSnapshot(
      `
      [QuantaError: invalid params for strategy dca (1 problem):
      params.everySnapshots: Too small: expected number to be >0]
    `,
    );
  });
});

describe('new-listing', () => {
  it('buys the minimum when a market turns active, once per cooldown, not at start', async () => {
    const clock = { now: 0 };
    const { host } = await hostStrategy(
      'strategies/new-listing.ts',
      { cooldownMs: 10_000 },
      ['ETH-USD', 'XRP-USD'],
      clock,
    );
    const xrpOff = testMarket({
      id: 11,
      symbol: 'XRP-USD',
      isActive: false,
      minAmountX18: x18('1'),
    });
    const xrpOn = { ...xrpOff, isActive: true };
    expect(await host.onSnapshot(snapshotOf(1, [eth, xrpOff]))).toEqual([]);
    clock.now = 1000;
    expect(await host.onSnapshot(snapshotOf(2, [eth, xrpOn]))).toEqual([
      { marketId: 11, side: 'BUY', type: 'MARKET', amount: '1', tag: 'new-listing' },
    ]);
    clock.now = 2000;
    expect(await host.onSnapshot(snapshotOf(3, [eth, xrpOff]))).toEqual([]);
    clock.now = 3000; // re-activation inside the cooldown: no second buy
    expect(await host.onSnapshot(snapshotOf(4, [eth, xrpOn]))).toEqual([]);
    clock.now = 12_000;
    expect(await host.onSnapshot(snapshotOf(5, [eth, xrpOff]))).toEqual([]);
    expect(await host.onSnapshot(snapshotOf(6, [eth, xrpOn]))).toHaveLength(1);
  });

  it('treats a market appearing already active as a listing', async () => {
    const { host } = await hostStrategy('strategies/new-listing.ts', {}, ['SOL-USD']);
    const sol = testMarket({ id: 5, symbol: 'SOL-USD', minAmountX18: x18('0.01') });
    expect(await host.onSnapshot(snapshotOf(1, [eth]))).toEqual([]);
    expect(await host.onSnapshot(snapshotOf(2, [eth, sol]))).toEqual([
      { marketId: 5, side: 'BUY', type: 'MARKET', amount: '0.01', tag: 'new-listing' },
    ]);
  });
});

describe('mean-reversion', () => {
  const params = { window: 5, entryZ: 1.5, exitZ: 0.3, orderAmount: '0.01', maxPosition: '0.01' };

  it('buys a dip, respects the position cap, and exits reduce-only near the mean', async () => {
    const { host, positions } = await hostStrategy('strategies/mean-reversion.ts', params, [
      'ETH-USD',
    ]);
    const mids = ['3000', '3001', '2999', '3000', '3001'];
    let seq = 0;
    for (const mid of mids)
      expect(await host.onSnapshot(snapshotOf(++seq, [eth], [quoteAt(1, mid, mid)]))).toEqual([]);
    expect(await host.onSnapshot(snapshotOf(++seq, [eth], [quoteAt(1, '2990', '2990')]))).toEqual([
      { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.01', tag: 'mr-entry' },
    ]);
    positions.set(1, x18('0.01'));
    // still far below the mean, but at the cap: no more buying
    expect(await host.onSnapshot(snapshotOf(++seq, [eth], [quoteAt(1, '2970', '2970')]))).toEqual(
      [],
    );
    // back to the mean: close
    for (const mid of ['3000', '3000', '3000'])
      await host.onSnapshot(snapshotOf(++seq, [eth], [quoteAt(1, mid, mid)]));
    const exit = await host.onSnapshot(snapshotOf(++seq, [eth], [quoteAt(1, '2996', '2996')]));
    expect(exit).toEqual([
      {
        marketId: 1,
        side: 'SELL',
        type: 'MARKET',
        amount: '0.01',
        reduceOnly: true,
        tag: 'mr-exit',
      },
    ]);
  });

  it('sells a spike', async () => {
    const { host } = await hostStrategy('strategies/mean-reversion.ts', params, ['ETH-USD']);
    let seq = 0;
    for (const mid of ['3000', '3001', '2999', '3000', '3001'])
      await host.onSnapshot(snapshotOf(++seq, [eth], [quoteAt(1, mid, mid)]));
    expect(await host.onSnapshot(snapshotOf(++seq, [eth], [quoteAt(1, '3012', '3012')]))).toEqual([
      { marketId: 1, side: 'SELL', type: 'MARKET', amount: '0.01', tag: 'mr-entry' },
    ]);
  });
});
