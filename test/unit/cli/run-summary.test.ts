import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { annualizedCaveat } from '../../../src/backtest/annualized-caveat.ts';
import { formatRunSummary } from '../../../src/cli/run-command.ts';
import { displayDecimal } from '../../../src/backtest/display-decimal.ts';
import { displayX18, formatX18, MONEY_DECIMALS } from '../../../src/money/index.ts';

describe('the stop summary of quanta run', () => {
  it('names the PnL PnL (it said equity) and shows money to the cent', () => {
    expect(
      formatRunSummary({
        snapshots: 240,
        stats: {
          ordersByState: { FILLED: 9 },
          unresolvedOrders: 0,
          lookupFailures: 0,
          refusals: {},
          refusalsByStrategy: {},
        },
        positions: [
          {
            symbol: 'ETH-USD',
            amount: '0.30009787',
            notional: '899.88005052711466',
            realizedPnl: '-0.729670039893902082',
            unrealizedPnl: '-0.119935804378398999',
            fees: '0.44999999316574653',
          },
        ],
        netPnl: '-1.953105837436047610',
        unrealizedPnl: '-0.119935804378398999',
        pausedStrategies: [],
        drained: true,
      }),
    ).toMatchInlineSnapshot(`
      "quanta: stopped after 240 snapshots
        orders: FILLED 9
        ETH-USD: position 0.30009787 (notional 899.88), realized PnL -0.73, unrealized PnL -0.12, fees 0.45
        net PnL: -1.95 (realized net of fees + unrealized, since the journal began)
      "
    `);
  });
});

describe('displayX18', () => {
  it.each([
    [-729_670_039_893_902_082n, MONEY_DECIMALS, true, '-0.73'],
    [-4_999_999_999_999_999n, MONEY_DECIMALS, true, '0.00'],
    // Half-even, as displayDecimal (the summaries' and report pages' rule): it was half away.
    [5_000_000_000_000_000n, MONEY_DECIMALS, true, '0.00'],
    [-5_000_000_000_000_000n, MONEY_DECIMALS, true, '0.00'],
    [15_000_000_000_000_000n, MONEY_DECIMALS, true, '0.02'],
    [-25_000_000_000_000_001n, MONEY_DECIMALS, true, '-0.03'],
    [3_000_696_792_499_999_999_999n, 6, false, '3000.696792'],
    [3_000_500_000_000_000_000_000n, 6, false, '3000.5'],
    [12n * 10n ** 18n, MONEY_DECIMALS, true, '12.00'],
  ])('%s to %s places (fixed %s) is %s', (value, places, fixed, text) => {
    expect(displayX18(value, places, fixed)).toBe(text);
  });

  it('reads as displayDecimal reads the same value (one rounding rule for every figure)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: 0, max: 18 }),
        (value, places) => {
          expect(displayX18(value, places, true)).toBe(displayDecimal(formatX18(value), places));
          expect(displayX18(value, places)).toBe(displayDecimal(formatX18(value), places, true));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('annualizedCaveat (the HTML report and the terminal summary share it)', () => {
  const DAY = 86_400_000;
  it('applies below 100 samples or 30 days, and only then', () => {
    expect(annualizedCaveat(240, 4 * 60_000)).toMatch(
      /^Annualized figures rest on 240 samples over 0\.0028 days/,
    );
    expect(annualizedCaveat(99, 40 * DAY)).toBeDefined();
    expect(annualizedCaveat(100_000, 29 * DAY)).toBeDefined();
    expect(annualizedCaveat(100, 30 * DAY)).toBeUndefined();
  });
});
