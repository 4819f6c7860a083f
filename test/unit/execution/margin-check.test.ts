/**
 * Pre-trade margin checks (issue 29): an opening order whose initial margin and fee exceed the
 * free margin is refused `INSUFFICIENT_MARGIN`; a `risk.maxLeverage` caps it further
 * (`ABOVE_MAX_LEVERAGE`); a held market without a mark makes the margin unknown and opening
 * orders are refused (`MARGIN_UNKNOWN`, fail closed); reducing orders always pass; SPOT sells
 * only what is held. Worked example: 1000 USDC, 1 ETH-USD long at 3000 (IMF 5 %, MMF 2 %).
 */
import { describe, expect, it } from 'vitest';
import {
  evaluateIntent,
  type EvaluationContext,
} from '../../../src/execution/pre-trade/evaluate-intent.ts';
import { marginFactsOf } from '../../../src/execution/pre-trade/margin-facts.ts';
import type { HeldPosition } from '../../../src/execution/pre-trade/margin-check.ts';
import { Portfolio } from '../../../src/execution/portfolio.ts';
import { UNKNOWN_ACCOUNT } from '../../../src/execution/pre-trade/risk.ts';
import { riskLimitsOf } from '../../../src/execution/pre-trade/risk-limits.ts';
import { markPriceX18 } from '../../../src/market/mark-price.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { accountCapitalOf } from '../../../src/stack/account-capital.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import { parseDecimalToX18 as x18 } from '../../../src/money/index.ts';
import type { Quote } from '../../../src/domain/index.ts';
import { testMarket } from '../../helpers/markets.ts';

const eth = testMarket();
const sol = testMarket({ id: 5, symbol: 'SOL-USD' });
const spot = testMarket({
  id: 2,
  symbol: 'ETH-USDC',
  type: 'SPOT',
  initialMarginX18: x18('1'),
  maintenanceMarginX18: x18('1'),
});
const quote = (marketId: number, bid: string, ask: string): Quote => ({
  marketId,
  timestamp: 0,
  bids: [{ price: bid, quantity: '100' }],
  asks: [{ price: ask, quantity: '100' }],
});
const snapshot = (quotes: Quote[]) =>
  createSnapshot({ seq: 1, takenAt: 0, markets: [eth, sol, spot], quotes });
const QUOTES = [quote(1, '2999', '3001'), quote(5, '150', '150'), quote(2, '2999', '3001')];

function context(
  held: Record<number, HeldPosition>,
  overrides: { quotes?: Quote[]; maxLeverage?: Record<string, string>; balance?: string } = {},
): EvaluationContext {
  const snap = snapshot(overrides.quotes ?? QUOTES);
  const limits = riskLimitsOf({
    maxOrderNotional: '1000000',
    maxPositionNotional: '1000000',
    ...(overrides.maxLeverage === undefined ? {} : { maxLeverage: overrides.maxLeverage }),
  });
  return {
    snapshot: snap,
    positionX18: (id) => held[id]?.amountX18 ?? 0n,
    limits,
    dailyPnlX18: 0n,
    killSwitchOn: false,
    margin: {
      balanceX18: x18(overrides.balance ?? '1000'),
      positions: new Map(Object.entries(held).map(([id, p]) => [Number(id), p])),
      markets: snap.markets,
      markOf: (id) => markPriceX18(snap.quotes?.get(id)),
      maxLeverageX18: limits.maxLeverageX18,
    },
  };
}
const LONG_1 = { 1: { amountX18: x18('1'), entryPriceX18: x18('3000') } };
const buy = (amount: string, marketId = 1) =>
  ({ marketId, side: 'BUY', type: 'MARKET', amount }) as const;
const sell = (amount: string, marketId = 1, reduceOnly = false) =>
  ({ marketId, side: 'SELL', type: 'MARKET', amount, reduceOnly }) as const;

describe('margin refusals', () => {
  it('5 more ETH fit the 850 of free margin; 6 do not (900.3 + fee needed)', () => {
    expect(evaluateIntent(buy('5'), context(LONG_1))).toMatchObject({ amountX18: x18('5') });
    const refused = evaluateIntent(buy('6'), context(LONG_1));
    expect(refused).toMatchObject({ refused: true, reason: 'INSUFFICIENT_MARGIN' });
    expect('detail' in refused && refused.detail).toBe(
      "BUY 6 ETH-USD at 3001 needs 909.303 of initial margin and fee (initial margin fraction 0.05) but the account's free margin is 850",
    );
  });

  it('a reducing or closing order is never refused for margin, even underwater', () => {
    const under = context(LONG_1, { balance: '1' });
    expect(evaluateIntent(buy('0.1'), under)).toMatchObject({ reason: 'INSUFFICIENT_MARGIN' });
    expect(evaluateIntent(sell('1'), under)).toMatchObject({ amountX18: x18('1') });
    // Selling 3 against the long of 1 opens a short of 2: that part needs margin.
    expect(evaluateIntent(sell('3'), under)).toMatchObject({ reason: 'INSUFFICIENT_MARGIN' });
  });

  it('risk.maxLeverage 3 on ETH-USD: the long of 1 already uses all 1000 at 1/3', () => {
    const capped = context(LONG_1, { maxLeverage: { 'ETH-USD': '3' } });
    const refused = evaluateIntent(buy('0.1'), capped);
    expect(refused).toMatchObject({ reason: 'ABOVE_MAX_LEVERAGE' });
    expect('detail' in refused && refused.detail).toContain('risk.maxLeverage 3 for ETH-USD');
    // Without the cap the listing's 5 % lets it through; SOL-USD has no cap of its own.
    expect(evaluateIntent(buy('0.1'), context(LONG_1))).toMatchObject({ amountX18: x18('0.1') });
  });

  it('fails closed: no mark on a held market refuses opening orders, not reducing ones', () => {
    const noMark = context(LONG_1, {
      quotes: [
        { marketId: 1, timestamp: 0, bids: [{ price: '2999', quantity: '1' }], asks: [] },
        quote(5, '150', '150'),
      ],
    });
    expect(evaluateIntent(buy('0.1', 5), noMark)).toMatchObject({ reason: 'MARGIN_UNKNOWN' });
    expect(evaluateIntent(sell('1', 1, true), noMark)).toMatchObject({ amountX18: x18('1') });
  });

  it('fails closed: an unknown account (no risk.capital live) refuses opening orders only', () => {
    const unknown = { ...context(LONG_1), margin: UNKNOWN_ACCOUNT };
    const refused = evaluateIntent(buy('0.0001'), unknown);
    expect(refused).toMatchObject({ reason: 'MARGIN_UNKNOWN' });
    expect('detail' in refused && refused.detail).toContain('set risk.capital in the config');
    expect(evaluateIntent(sell('1', 1, true), unknown)).toMatchObject({ amountX18: x18('1') });
    expect(evaluateIntent(sell('0.5'), unknown)).toMatchObject({ amountX18: x18('0.5') });
    expect(evaluateIntent(sell('1.5'), unknown)).toMatchObject({ reason: 'MARGIN_UNKNOWN' });
  });

  it('SPOT: sells only what is held, buys only with the cash (IMF 1)', () => {
    const held = { 2: { amountX18: x18('0.1'), entryPriceX18: x18('3000') } };
    expect(evaluateIntent(sell('0.1', 2), context(held))).toMatchObject({ amountX18: x18('0.1') });
    const over = evaluateIntent(sell('0.2', 2), context(held));
    expect(over).toMatchObject({ reason: 'SPOT_OVERSELL' });
    expect('detail' in over && over.detail).toBe(
      'sell of 0.2 ETH-USDC is more than the 0.1 ETH held: a SPOT market sells only what is held',
    );
    // 700 of cash left after the 0.1 bought for 300: 0.2 at 3001 (600.2 + fee) fits, 0.3 does not.
    expect(evaluateIntent(buy('0.2', 2), context(held, { balance: '1000' }))).toMatchObject({
      amountX18: x18('0.2'),
    });
    expect(evaluateIntent(buy('0.3', 2), context(held))).toMatchObject({
      reason: 'INSUFFICIENT_MARGIN',
    });
  });
});

describe('marginFactsOf', () => {
  it('is the deposit plus realised net of fees, the positions from fills plus orders in flight', () => {
    const portfolio = new Portfolio();
    portfolio.book({
      strategy: 's',
      marketId: 1,
      side: 'BUY',
      amountX18: x18('2'),
      priceX18: x18('3000'),
      feeX18: x18('3'),
    });
    portfolio.book({
      strategy: 's',
      marketId: 1,
      side: 'SELL',
      amountX18: x18('1'),
      priceX18: x18('3100'),
      feeX18: x18('1.55'),
    });
    const facts = marginFactsOf(
      x18('1000'),
      portfolio.account,
      snapshot(QUOTES),
      (id) => (id === 1 ? x18('0.5') : 0n),
      undefined,
    );
    expect(facts.balanceX18).toBe(x18('1095.45'));
    expect(facts.positions.get(1)).toEqual({ amountX18: x18('1.5'), entryPriceX18: x18('3000') });
    expect(facts.markOf(1)).toBe(x18('3000'));
  });
});

describe('accountCapitalOf', () => {
  const config = (url: string, capital?: string) =>
    parseConfig(
      `venue: { writeUrl: ${url}, readUrl: ${url} }\npaper: { balance: '2500' }\n` +
        (capital === undefined ? '' : `risk: { capital: '${capital}' }\n`),
      'c.yaml',
      '/',
    );
  it("is risk.capital, else the embedded paper venue's paper.balance, else not known", () => {
    const real = 'https://venue.example.invalid';
    expect(accountCapitalOf(config(real, '700'))).toBe(x18('700'));
    expect(accountCapitalOf(config('embedded', '700'))).toBe(x18('700'));
    expect(accountCapitalOf(config('embedded'))).toBe(x18('2500'));
    expect(accountCapitalOf(config(real))).toBeUndefined();
  });
});
