/**
 * One equity rule (issue 29, docs/margin.md): the bot's books (`ctx.equity()` adds
 * `Portfolio.unrealizedX18` to the capital and the realised PnL net of fees; `ctx.unrealizedPnl`
 * reads `unrealizedPnlX18` of execution/positions.ts) and the account model (`marginAccount`)
 * value open positions with the same function, so they agree to the last unit on any account.
 * Before, the books truncated each position toward zero while the model floored the sum: a
 * losing position whose PnL is not a whole x18 unit was one unit apart.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { marginAccount, unrealizedPnlX18 } from '../../../src/domain/account/index.ts';
import { Portfolio } from '../../../src/execution/portfolio.ts';
import { unrealizedPnlX18 as bookUnrealizedPnlX18 } from '../../../src/execution/positions.ts';
import { markPriceX18 } from '../../../src/market/mark-price.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import { formatX18 } from '../../../src/money/index.ts';
import { DEFAULT_SIM_MARKETS } from '../../../src/sim/default-markets.ts';

const X18 = 10n ** 18n;
const PERPETUALS = DEFAULT_SIM_MARKETS.filter((m) => m.type === 'PERPETUAL').slice(0, 3);

// Prices and amounts with up to 9 and 6 fraction digits: their products are rarely whole units.
const price = fc.bigInt(10n ** 9n, 50_000n * 10n ** 9n).map((p) => p * 10n ** 9n);
const amount = fc.bigInt(1n, 100n * 10n ** 6n).map((a) => a * 10n ** 12n);
const fill = fc.record({
  market: fc.integer({ min: 0, max: PERPETUALS.length - 1 }),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  amountX18: amount,
  priceX18: price,
});
const quote = fc.record({ bidX18: price, spreadX18: fc.bigInt(0n, 10n * X18) });

describe('one unrealized-PnL rule for the books and the account model', () => {
  it('rounds down: a short of 0.5 from 3000 at a mark one unit higher is −1 unit, not 0', () => {
    expect(unrealizedPnlX18(-X18 / 2n, 3000n * X18, 3000n * X18 + 1n)).toBe(-1n);
    const position = {
      amountX18: -X18 / 2n,
      avgEntryPriceX18: 3000n * X18,
      realizedPnlX18: 0n,
      feesX18: 0n,
      volumeX18: X18 / 2n,
      turnoverX18: 1500n * X18,
    };
    expect(bookUnrealizedPnlX18(position, 3000n * X18 + 1n)).toBe(-1n);
  });

  it('Portfolio.unrealizedX18 (what ctx.equity adds) equals the model equity less its balance', () => {
    fc.assert(
      fc.property(
        fc.array(fill, { minLength: 1, maxLength: 8 }),
        fc.array(quote, { minLength: PERPETUALS.length, maxLength: PERPETUALS.length }),
        (fills, quotes) => {
          const portfolio = new Portfolio();
          for (const f of fills) {
            const market = PERPETUALS[f.market];
            if (market === undefined) continue;
            portfolio.book({
              strategy: 's',
              marketId: market.id,
              side: f.side,
              amountX18: f.amountX18,
              priceX18: f.priceX18,
              feeX18: 0n,
            });
          }
          const snapshot = createSnapshot({
            seq: 1,
            takenAt: 0,
            markets: PERPETUALS,
            quotes: PERPETUALS.map((market, i) => {
              const q = quotes[i] ?? { bidX18: X18, spreadX18: 0n };
              return {
                marketId: market.id,
                timestamp: 0,
                bids: [{ price: formatX18(q.bidX18), quantity: '1' }],
                asks: [{ price: formatX18(q.bidX18 + q.spreadX18), quantity: '1' }],
              };
            }),
          });
          const positions = [...portfolio.account.entries()]
            .filter(([, p]) => p.amountX18 !== 0n)
            .map(([marketId, p]) => {
              const market = PERPETUALS.find((m) => m.id === marketId);
              return {
                marketId,
                type: 'PERPETUAL' as const,
                amountX18: p.amountX18,
                entryPriceX18: p.avgEntryPriceX18,
                markX18: markPriceX18(snapshot.quotes?.get(marketId)) ?? 0n,
                initialFractionX18: market?.initialMarginX18 ?? 0n,
                maintenanceFractionX18: market?.maintenanceMarginX18 ?? 0n,
              };
            });
          const books = portfolio.unrealizedX18(snapshot);
          const model = marginAccount({ balanceX18: 0n, positions });
          expect(books).toBe(model.equityX18);
          expect(books).toBe(model.unrealizedPnlX18);
          // Each position rounded down: never above the exact sum, less than one unit each below.
          const exactX36 = positions.reduce(
            (sum, p) => sum + p.amountX18 * (p.markX18 - p.entryPriceX18),
            0n,
          );
          expect(books * X18 <= exactX36).toBe(true);
          expect(exactX36 - books * X18 < BigInt(positions.length) * X18 || exactX36 === 0n).toBe(
            true,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
