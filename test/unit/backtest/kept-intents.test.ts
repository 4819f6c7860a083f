import { describe, expect, it } from 'vitest';
import { KeptIntents } from '../../../src/backtest/kept-intents.ts';

describe('KeptIntents', () => {
  it('gives one copy of equal intents, and keeps apart any that differ', () => {
    const kept = new KeptIntents();
    const buy = { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.01' };
    expect(kept.one(buy)).toBe(buy);
    expect(kept.one({ ...buy })).toBe(buy);
    const others = [
      { ...buy, side: 'SELL' },
      { ...buy, amount: '0.010' },
      { ...buy, tag: 'x' },
      // The same fields in another order: JSON.stringify of it differs.
      { side: 'BUY', marketId: 1, type: 'MARKET', amount: '0.01' },
      { ...buy, marketId: '1' },
      { ...buy, reduceOnly: false },
      { ...buy, reduceOnly: 'false' },
      { ...buy, expiresInMs: 0 },
      { ...buy, expiresInMs: -0 },
      { ...buy, tag: 'a,"b":string:"c"' },
    ];
    for (const other of others) {
      expect(kept.one(other)).toBe(other);
      expect(kept.one({ ...other })).toBe(other);
    }
  });

  it('keeps an intent with a value that is not a string, number or boolean as it is', () => {
    const kept = new KeptIntents();
    const exits = { marketId: 1, side: 'BUY', type: 'MARKET', exits: { stopLoss: '1' } };
    kept.one(exits);
    expect(kept.one({ ...exits })).not.toBe(exits);
    const missing = { marketId: 1, side: 'BUY', type: 'MARKET', tag: undefined };
    kept.one(missing);
    expect(kept.one({ ...missing })).not.toBe(missing);
  });
});
