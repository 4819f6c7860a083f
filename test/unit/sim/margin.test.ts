/**
 * The simulation's margin rules (issue 29), on the ETH-USD listing of the sample markets (IMF
 * 5 %, MMF 2 %) with 1000 USDC and replayed quotes at 3000 / 3000.5 … an order that doubles the
 * position every step is refused at the margin limit; with the refusal turned off (this test
 * engine only) the position grows to 8 ETH at 3000.5 and the account is liquidated exactly when
 * the mark reaches the price the maintenance rule gives (2935.714540816326530612: one unit above
 * it is not liquidated), at the bid, with the documented 1 % liquidation fee; its trading then
 * ends. SPOT sells only what is held.
 */
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/domain/index.ts';
import { liquidationPriceX18 } from '../../../src/domain/account/index.ts';
import { formatX18 } from '../../../src/money/index.ts';
import { SimRejection, type SimEngineOptions } from '../../../src/sim/index.ts';
import { T0, X18, engineAt, request, x18 } from './helpers.ts';

const ACCOUNT = 'acct';

function quoteAt(bid: string, ask: string, marketId = 1): Quote {
  return {
    marketId,
    timestamp: T0,
    bids: [{ price: bid, quantity: '1000' }],
    asks: [{ price: ask, quantity: '1000' }],
  };
}

function engine(options: Partial<SimEngineOptions> = {}) {
  const made = engineAt({ initialBalance: '1000', ...options });
  made.engine.setExternalQuotes([quoteAt('3000', '3000.5')]);
  return made;
}

/** Buys 0.5, then doubles the position: 0.5, 1, 2, 4, 8 ETH; returns how far it got. */
function doubleUntilRefused(sim: ReturnType<typeof engine>['engine']): {
  held: bigint;
  refusal: string | undefined;
} {
  let next = X18 / 2n;
  for (let step = 0; step < 5; step++) {
    try {
      sim.placeOrder(ACCOUNT, request({ amountX18: next }));
    } catch (error) {
      if (!(error instanceof SimRejection)) throw error;
      return { held: sim.position(ACCOUNT, 1).amountX18, refusal: error.shortMessage };
    }
    next = sim.position(ACCOUNT, 1).amountX18;
  }
  return { held: sim.position(ACCOUNT, 1).amountX18, refusal: undefined };
}

describe('margin refusal in the simulation', () => {
  it('refuses the doubling order that needs more than the free margin', () => {
    const { engine: sim } = engine();
    const { held, refusal } = doubleUntilRefused(sim);
    // 4 ETH held; the next 4 need 600.1 + 6.001 fee, with about 392 free.
    expect(formatX18(held)).toBe('4');
    expect(refusal).toMatch(
      /^insufficient margin: the order needs 606\.101 of initial margin and fee, the free margin is 39\d\./,
    );
    // A reducing order always passes.
    sim.placeOrder(ACCOUNT, request({ side: 'SELL', amountX18: X18 }));
    expect(formatX18(sim.position(ACCOUNT, 1).amountX18)).toBe('3');
  });
});

describe('liquidation in the simulation (margin checks off in this test engine)', () => {
  it('liquidates at the mark the maintenance rule gives, at the executable price, and stops trading', () => {
    const { engine: sim, clock } = engine({ marginChecks: false });
    expect(doubleUntilRefused(sim)).toEqual({ held: 8n * X18, refusal: undefined });
    const account = sim.account(ACCOUNT);
    // 1000 − 12.002 of fees = 987.998; long 8 at 3000.5: p < (24004 − 987.998) / 7.84.
    const balance = account.cashX18 + 8n * x18('3000.5');
    expect(formatX18(balance)).toBe('987.998');
    const expected = liquidationPriceX18(
      {
        balanceX18: balance,
        positions: [
          {
            marketId: 1,
            type: 'PERPETUAL',
            amountX18: 8n * X18,
            entryPriceX18: x18('3000.5'),
            markX18: x18('3000'),
            initialFractionX18: x18('0.05'),
            maintenanceFractionX18: x18('0.02'),
          },
        ],
      },
      0,
    );
    expect(formatX18(expected ?? 0n)).toBe('2935.714540816326530612');
    const at = (mid: bigint, half = 10n ** 16n) => {
      clock.now += 1000;
      sim.setExternalQuotes([quoteAt(formatX18(mid - half), formatX18(mid + half))]);
    };
    at(x18('2936'));
    at(x18('2935.714540816326530613'), 1n); // one unit above: not liquidated
    expect(sim.liquidations(ACCOUNT)).toEqual([]);
    expect(sim.position(ACCOUNT, 1).amountX18).toBe(8n * X18);
    at(x18('2935.714540816326530612'), 1n); // the rule's price: liquidated, at the bid
    const [liquidation] = sim.liquidations(ACCOUNT);
    expect(liquidation).toMatchObject({
      accountId: ACCOUNT,
      at: clock.now,
      marketId: 1,
      side: 'SELL',
      amountX18: 8n * X18,
      priceX18: x18('2935.714540816326530611'),
      markX18: x18('2935.714540816326530612'),
    });
    // The documented fee: 1 % of the closed notional, rounded up.
    expect(formatX18(liquidation?.feeX18 ?? 0n)).toBe('234.857163265306122449');
    expect(sim.position(ACCOUNT, 1).amountX18).toBe(0n);
    expect(() => sim.placeOrder(ACCOUNT, request())).toThrow('account liquidated');
  });

  it('keeps trading after a liquidation when configured to', () => {
    const { engine: sim, clock } = engine({ marginChecks: false, continueAfterLiquidation: true });
    doubleUntilRefused(sim);
    clock.now += 1000;
    sim.setExternalQuotes([quoteAt('2000', '2000.5')]);
    expect(sim.liquidations(ACCOUNT)).toHaveLength(1);
    expect(sim.placeOrder(ACCOUNT, request({ amountX18: X18 / 100n })).status).toBe('FILLED');
  });

  it("lists an account's liquidations, not another's", () => {
    const { engine: sim, clock } = engine({ marginChecks: false });
    // Another account holds a small long: it stays above its maintenance margin.
    sim.placeOrder('other', request({ amountX18: X18 / 100n }));
    doubleUntilRefused(sim);
    clock.now += 1000;
    sim.setExternalQuotes([quoteAt('2000', '2000.5')]);
    expect(sim.liquidations(ACCOUNT)).toHaveLength(1);
    expect(sim.liquidations('other')).toEqual([]);
    expect(sim.liquidations('nobody')).toEqual([]);
    expect(sim.liquidations()).toEqual(sim.liquidations(ACCOUNT));
  });
});

describe('SPOT in the simulation', () => {
  it('sells only what is held', () => {
    const { engine: sim } = engineAt();
    sim.placeOrder(ACCOUNT, request({ marketId: 2, amountX18: X18 / 10n }));
    expect(() =>
      sim.placeOrder(ACCOUNT, request({ marketId: 2, side: 'SELL', amountX18: X18 / 5n })),
    ).toThrow('insufficient ETH: sell of 0.2 is more than the 0.1 held');
    expect(
      sim.placeOrder(ACCOUNT, request({ marketId: 2, side: 'SELL', amountX18: X18 / 10n })).status,
    ).toBe('FILLED');
  });
});
