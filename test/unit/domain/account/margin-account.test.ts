/**
 * The account model (issue 29): known answers on a worked example with the margin fractions of a
 * listing (ETH-USD of the sample markets: IMF 5 %, MMF 2 %), and properties of margin and
 * liquidation price over random accounts, checked against the exact liquidation rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ceilDiv,
  effectiveInitialFractionX18,
  freeMarginX18,
  isLiquidatable,
  liquidationPriceX18,
  marginAccount,
  marginX18,
  openingAmountX18,
  orderInitialMarginX18,
  type MarginAccountInput,
  type MarginPosition,
} from '../../../../src/domain/account/index.ts';
import { DEFAULT_SIM_MARKETS } from '../../../../src/sim/default-markets.ts';
import { formatX18, parseSignedDecimalToX18 } from '../../../../src/money/index.ts';

const X18 = 10n ** 18n;
const x18 = (value: string): bigint => parseSignedDecimalToX18(value, 'test value');
const ETH = DEFAULT_SIM_MARKETS.find((m) => m.symbol === 'ETH-USD');
if (ETH === undefined) throw new Error('ETH-USD is a sample market');

function ethPosition(amount: string, entry: string, mark: string): MarginPosition {
  return {
    marketId: ETH?.id ?? 1,
    type: 'PERPETUAL',
    amountX18: x18(amount),
    entryPriceX18: x18(entry),
    markX18: x18(mark),
    initialFractionX18: ETH?.initialMarginX18 ?? 0n,
    maintenanceFractionX18: ETH?.maintenanceMarginX18 ?? 0n,
  };
}

describe('worked example: 1000 USDC, 1 ETH-USD long at 3000 (IMF 5 %, MMF 2 %)', () => {
  const account = { balanceX18: x18('1000'), positions: [ethPosition('1', '3000', '3000')] };

  it('has the listing fractions the example assumes', () => {
    expect(formatX18(ETH.initialMarginX18)).toBe('0.05');
    expect(formatX18(ETH.maintenanceMarginX18)).toBe('0.02');
  });

  it('equity, margins, free margin and leverage at the entry mark', () => {
    const view = marginAccount(account);
    expect(formatX18(view.equityX18)).toBe('1000');
    expect(formatX18(view.initialMarginX18)).toBe('150');
    expect(formatX18(view.maintenanceMarginX18)).toBe('60');
    expect(formatX18(view.freeMarginX18)).toBe('850');
    expect(formatX18(view.leverageX18 ?? -1n)).toBe('3');
    expect(view.liquidatable).toBe(false);
  });

  it('liquidation price: 2000 / 0.98, the last unit that liquidates', () => {
    const price = liquidationPriceX18(account, 0);
    expect(formatX18(price ?? 0n)).toBe('2040.816326530612244897');
    // At that mark: equity 40.816326530612244897 < maintenance 40.81632653061224489794.
    const at = { ...account, positions: [ethPosition('1', '3000', '2040.816326530612244897')] };
    expect(isLiquidatable(at)).toBe(true);
    const above = { ...account, positions: [ethPosition('1', '3000', '2040.816326530612244898')] };
    expect(isLiquidatable(above)).toBe(false);
  });

  it('a short of 1 ETH from 3000 with 1000 USDC: p > 4000 / 1.02', () => {
    const short = { balanceX18: x18('1000'), positions: [ethPosition('-1', '3000', '3000')] };
    // 4000 / 1.02 = 3921.5686274509803921568627…: the first unit above it.
    expect(formatX18(liquidationPriceX18(short, 0) ?? 0n)).toBe('3921.568627450980392157');
  });

  it('a SPOT holding has no liquidation price', () => {
    const spot = {
      balanceX18: x18('1000'),
      positions: [{ ...ethPosition('0.1', '3000', '3000'), type: 'SPOT' as const }],
    };
    expect(liquidationPriceX18(spot, 0)).toBeUndefined();
  });

  it('the order that would open 6 more ETH needs 900 of initial margin, above the 850 free', () => {
    expect(formatX18(orderInitialMarginX18(X18, 6n * X18, x18('3000'), ETH.initialMarginX18))).toBe(
      '900',
    );
    // Selling 3 against the long of 1 opens only 2 short.
    expect(openingAmountX18(X18, -3n * X18)).toBe(2n * X18);
    expect(openingAmountX18(X18, -X18)).toBe(0n);
  });

  it('a leverage cap of 4x is an initial margin fraction of 25 %; 50x leaves the listing 5 %', () => {
    expect(formatX18(effectiveInitialFractionX18(ETH.initialMarginX18, x18('4')))).toBe('0.25');
    expect(formatX18(effectiveInitialFractionX18(ETH.initialMarginX18, x18('50')))).toBe('0.05');
    expect(effectiveInitialFractionX18(ETH.initialMarginX18, undefined)).toBe(ETH.initialMarginX18);
  });
});

const fraction = fc.bigInt(0n, X18 / 2n);
const price = fc.bigInt(X18 / 100n, 100_000n * X18);
const position = fc
  .record({
    marketId: fc.integer({ min: 1, max: 1000 }),
    amountX18: fc.bigInt(-1000n * X18, 1000n * X18).filter((a) => a !== 0n),
    entryPriceX18: price,
    markX18: price,
    maintenanceFractionX18: fraction,
    extra: fraction,
  })
  .map(({ extra, ...rest }): MarginPosition => ({
    ...rest,
    type: 'PERPETUAL',
    initialFractionX18: rest.maintenanceFractionX18 + extra,
  }));
const accountArb = fc.record({
  balanceX18: fc.bigInt(0n, 10_000_000n * X18),
  positions: fc.array(position, { minLength: 1, maxLength: 3 }),
});

function withMark(account: MarginAccountInput, index: number, markX18: bigint): MarginAccountInput {
  return {
    ...account,
    positions: account.positions.map((p, i) => (i === index ? { ...p, markX18 } : p)),
  };
}

describe('properties', () => {
  it('margins are |amount| × mark × fraction rounded up, initial ≥ maintenance, free = equity − initial', () => {
    fc.assert(
      fc.property(accountArb, (account) => {
        const view = marginAccount(account);
        for (const [i, p] of account.positions.entries()) {
          const figures = view.positions[i];
          const abs = p.amountX18 < 0n ? -p.amountX18 : p.amountX18;
          const exact = abs * p.markX18 * p.initialFractionX18;
          const im = figures?.initialMarginX18 ?? -1n;
          expect(im * X18 * X18 >= exact).toBe(true);
          expect((im - 1n) * X18 * X18 < exact).toBe(true);
          expect(im >= (figures?.maintenanceMarginX18 ?? 0n)).toBe(true);
          expect(marginX18(-p.amountX18, p.markX18, p.initialFractionX18)).toBe(im);
        }
        expect(view.freeMarginX18).toBe(view.equityX18 - view.initialMarginX18);
        expect(freeMarginX18(account)).toBe(view.freeMarginX18);
      }),
      { numRuns: 300 },
    );
  });

  it('the liquidation price is the boundary: liquidated there, not one unit better', () => {
    fc.assert(
      fc.property(accountArb, (account) => {
        account.positions.forEach((p, i) => {
          const liquidation = liquidationPriceX18(account, i);
          if (p.amountX18 > 0n) {
            if (liquidation === undefined) {
              // No positive price liquidates the long.
              expect(isLiquidatable(withMark(account, i, 1n))).toBe(false);
              return;
            }
            expect(isLiquidatable(withMark(account, i, liquidation))).toBe(true);
            expect(isLiquidatable(withMark(account, i, liquidation + 1n))).toBe(false);
          } else {
            expect(liquidation).toBeDefined();
            const at = liquidation ?? 0n;
            expect(isLiquidatable(withMark(account, i, at))).toBe(true);
            if (at > 0n) expect(isLiquidatable(withMark(account, i, at - 1n))).toBe(false);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('at the liquidation price the equity meets the maintenance margin within one price unit (exact)', () => {
    // gap = Σ maintenance − equity, exact at x54 (no rounding, no float). Moving one position's
    // mark by one unit (10^-18) moves the gap by |q|·(1 ∓ f) (x54: |q|·(10^18 ∓ f)); at the
    // liquidation price the gap is above 0 (liquidated) and at most that one unit's step.
    const gapX54 = (account: MarginAccountInput): bigint =>
      account.positions.reduce(
        (gap, p) =>
          gap +
          (p.amountX18 < 0n ? -p.amountX18 : p.amountX18) * p.markX18 * p.maintenanceFractionX18 -
          p.amountX18 * (p.markX18 - p.entryPriceX18) * X18,
        -account.balanceX18 * X18 * X18,
      );
    fc.assert(
      fc.property(accountArb, (account) => {
        account.positions.forEach((p, i) => {
          const liquidation = liquidationPriceX18(account, i);
          if (liquidation === undefined || liquidation === 0n) return;
          const at = withMark(account, i, liquidation);
          const step =
            p.amountX18 > 0n
              ? p.amountX18 * (X18 - p.maintenanceFractionX18)
              : -p.amountX18 * (X18 + p.maintenanceFractionX18);
          const gap = gapX54(at);
          expect(gap > 0n).toBe(true);
          expect(gap <= step).toBe(true);
          // The view's rounded figures (margins up, PnL down): maintenance above equity by at
          // most that step in quote units plus one unit of rounding per position and one more.
          const view = marginAccount(at);
          const diff = view.maintenanceMarginX18 - view.equityX18;
          expect(diff >= 1n).toBe(true);
          expect(diff <= ceilDiv(step, X18 * X18) + BigInt(at.positions.length) + 1n).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('an account is liquidatable exactly when some long mark is at or below its price (one position)', () => {
    fc.assert(
      fc.property(accountArb, (account) => {
        const single = { ...account, positions: account.positions.slice(0, 1) };
        const p = single.positions[0] as MarginPosition;
        const liquidation = liquidationPriceX18(single, 0);
        const expected =
          liquidation === undefined
            ? false
            : p.amountX18 > 0n
              ? p.markX18 <= liquidation
              : p.markX18 >= liquidation;
        expect(marginAccount(single).liquidatable).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
