import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILL_MODEL,
  describeFillModel,
  resolveFillModel,
  slippedQuote,
  withModelFees,
} from '../../../src/backtest/fill-model.ts';
import { testMarket } from '../../helpers/markets.ts';

describe('resolveFillModel', () => {
  it('defaults: one snapshot later, no slippage, market fees, 100000', () => {
    expect(resolveFillModel(undefined)).toEqual(DEFAULT_FILL_MODEL);
  });

  it('takes the config section, and CLI values over it', () => {
    const section = { latencyMs: 250, slippageBps: 1.5, startingCapital: '5000' };
    expect(resolveFillModel(section)).toEqual({
      latencyMs: 250,
      slippageBps: '1.5',
      makerFeeBps: null,
      takerFeeBps: null,
      startingCapital: '5000',
    });
    expect(
      resolveFillModel(section, { latencyMs: '0', takerFeeBps: '7', startingCapital: '10.50' }),
    ).toEqual({
      latencyMs: 0,
      slippageBps: '1.5',
      makerFeeBps: null,
      takerFeeBps: '7',
      startingCapital: '10.5',
    });
  });

  it.each([
    [{ latencyMs: '-1' }, 'latencyMs: expected an integer ≥ 0'],
    [{ latencyMs: '2.5' }, 'latencyMs: expected an integer ≥ 0'],
    [{ slippageBps: 'x' }, 'slippageBps: expected a plain decimal'],
    [{ slippageBps: '10000' }, 'slippageBps: expected less than 10000'],
    [{ makerFeeBps: '-2' }, 'makerFeeBps: expected a plain decimal'],
    [{ startingCapital: '0' }, 'startingCapital: expected a plain decimal above 0'],
  ])('refuses %o', (overrides, message) => {
    expect(() => resolveFillModel(undefined, overrides)).toThrow(message);
  });

  it('names a refused value as the user gave it: the flag typed, or the config key path', () => {
    const flags = { latencyMs: '--latency-ms', slippageBps: '--slippage-bps' };
    expect(() => resolveFillModel(undefined, { latencyMs: 'soon' }, flags)).toThrow(
      /^--latency-ms: expected an integer ≥ 0 \(milliseconds\), got "soon"$/,
    );
    expect(() => resolveFillModel(undefined, { slippageBps: '1e3' }, flags)).toThrow(
      /^--slippage-bps: expected a plain decimal/,
    );
    expect(() => resolveFillModel({ slippageBps: 10_000 }, {}, flags)).toThrow(
      /^backtest\.slippageBps: expected less than 10000 basis points, got "10000"$/,
    );
  });
});

describe('describeFillModel', () => {
  it('says what a report assumed, in words', () => {
    expect(describeFillModel(DEFAULT_FILL_MODEL)).toBe(
      "latency: one snapshot later; depth walked level by level (MARKET rest cancelled); slippage 0 bps; fees: the markets' own; starting capital 100000",
    );
    expect(describeFillModel({ ...DEFAULT_FILL_MODEL, latencyMs: 0, takerFeeBps: '5' })).toContain(
      "latency: 0 ms (fills at the snapshot that produced the order); depth walked level by level (MARKET rest cancelled); slippage 0 bps; fees: maker market's, taker 5 bps",
    );
  });
});

describe('slippedQuote and withModelFees', () => {
  it('moves asks up and bids down, rounding against the order', () => {
    const quote = {
      marketId: 1,
      timestamp: 0,
      bids: [{ price: '0.000000000000000003', quantity: '1' }],
      asks: [{ price: '0.000000000000000003', quantity: '2' }],
    };
    const slipped = slippedQuote(quote, { ...DEFAULT_FILL_MODEL, slippageBps: '1' });
    expect(slipped.asks).toEqual([{ price: '0.000000000000000004', quantity: '2' }]);
    expect(slipped.bids).toEqual([{ price: '0.000000000000000002', quantity: '1' }]);
    expect(slippedQuote(quote, DEFAULT_FILL_MODEL)).toBe(quote);
  });

  it('replaces only the fees that are set, as fractions', () => {
    const market = testMarket();
    const changed = withModelFees(market, { ...DEFAULT_FILL_MODEL, makerFeeBps: '2.5' });
    expect(changed.makerFeeX18).toBe(250_000_000_000_000n);
    expect(changed.takerFeeX18).toBe(market.takerFeeX18);
    expect(withModelFees(market, DEFAULT_FILL_MODEL)).toBe(market);
  });
});
