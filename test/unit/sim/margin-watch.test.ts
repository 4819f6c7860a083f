/**
 * The simulation's liquidation test after every price change (MarginWatch) against the account
 * model it stands for: for random fills on two PERPETUAL markets and a SPOT one and random marks
 * (some missing), `liquidatable` answers exactly as `ledgerAccount` + `isLiquidatable` (with a
 * PERPETUAL position held), reads the same marks in the same order, and follows each new fill.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLiquidatable } from '../../../src/domain/account/index.ts';
import type { Market } from '../../../src/domain/index.ts';
import { DEFAULT_SIM_MARKETS } from '../../../src/sim/index.ts';
import { AccountLedger } from '../../../src/sim/ledger.ts';
import { MarginWatch } from '../../../src/sim/margin-watch.ts';
import { ledgerAccount } from '../../../src/sim/sim-margin.ts';
import { X18 } from './helpers.ts';

const MARKETS = new Map<number, Market>(
  [1, 3, 2].map((id) => {
    const found = DEFAULT_SIM_MARKETS.find((m) => m.id === id);
    if (found === undefined) throw new Error(`no sample market ${id}`);
    return [id, found];
  }),
);
const SPOT = [...MARKETS.values()].find((m) => m.type === 'SPOT');

const fill = fc.record({
  marketId: fc.constantFrom(...MARKETS.keys()),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  amountX18: fc.bigInt({ min: 1n, max: 20n * X18 }),
  priceX18: fc.bigInt({ min: 1n, max: 5000n * X18 }),
  feeX18: fc.bigInt({ min: 0n, max: 10n * X18 }),
});
// A mark per market for one check; undefined: that market has none (a one-sided book).
const marks = fc.array(fc.option(fc.bigInt({ min: 1n, max: 10_000n * X18 }), { nil: undefined }), {
  minLength: 3,
  maxLength: 3,
});

// Marks from a few values, so that checks in a row often see the same marks (the watch keeps
// its last answer for them) and a mark comes back after a missing one.
const fewMarks = fc.array(
  fc.constantFrom(undefined, 1n * X18, 1900n * X18, 2500n * X18, 3000n * X18),
  { minLength: 3, maxLength: 3 },
);

/** The rule as the engine asked it before: the account model's input, then `isLiquidatable`. */
function byModel(ledger: AccountLedger, markOf: (id: number) => bigint | undefined): boolean {
  const input = ledgerAccount(ledger, (id) => MARKETS.get(id), markOf);
  if (input === undefined || !input.positions.some((p) => p.type === 'PERPETUAL')) return false;
  return isLiquidatable(input);
}

/** Random fills, each followed by checks at random marks: `liquidatable` against the model. */
function sameAsModel(checkMarks: fc.Arbitrary<(bigint | undefined)[]>, maxChecks: number): void {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 5000 }),
      fc.array(fc.tuple(fill, fc.array(checkMarks, { minLength: 1, maxLength: maxChecks })), {
        minLength: 1,
        maxLength: 12,
      }),
      (deposit, steps) => {
        const ledger = new AccountLedger('a', BigInt(deposit) * X18);
        let read: number[] = [];
        let at: (bigint | undefined)[] = [];
        const markOf = (id: number): bigint | undefined => {
          read.push(id);
          return at[[...MARKETS.keys()].indexOf(id)];
        };
        const watch = new MarginWatch((id) => MARKETS.get(id), markOf);
        for (const [one, checks] of steps) {
          // A SPOT sell of more than is held never reaches the ledger (the venue refuses it).
          const held = ledger.positionAmountX18(one.marketId);
          if (one.marketId === SPOT?.id && one.side === 'SELL' && one.amountX18 > held) continue;
          ledger.applyFill(one.marketId, one.side, one.amountX18, one.priceX18, one.feeX18);
          for (const check of checks) {
            at = check;
            read = [];
            const expected = byModel(ledger, markOf);
            const modelRead = read;
            read = [];
            expect(watch.liquidatable(ledger)).toBe(expected);
            expect(read).toEqual(modelRead);
          }
        }
      },
    ),
    { numRuns: 300, endOnFailure: true },
  );
}

describe('MarginWatch', () => {
  it('answers as the account model, reading the same marks, fill after fill', () => {
    expect(SPOT).toBeDefined();
    sameAsModel(marks, 3);
  });

  it('answers as the account model when checks in a row see the same marks, or a missing one', () => {
    sameAsModel(fewMarks, 8);
  });

  it("reads the ledger's open positions as they are after each fill (the list is kept between fills)", () => {
    fc.assert(
      fc.property(fc.array(fill, { minLength: 1, maxLength: 12 }), (fills) => {
        const ledger = new AccountLedger('a', 1000n * X18);
        for (const one of fills) {
          ledger.applyFill(one.marketId, one.side, one.amountX18, one.priceX18, one.feeX18);
          // Read twice: the second read is the kept list, the same positions.
          for (let read = 0; read < 2; read++) {
            const expected = [...MARKETS.keys()]
              .sort((a, b) => a - b)
              .map((id) => ledger.position(id))
              .filter((p) => p.amountX18 !== 0n);
            expect(ledger.openPositions()).toEqual(expected);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('sees the liquidation price of one long to the unit', () => {
    const ledger = new AccountLedger('a', 1000n * X18);
    // Long 1 ETH-USD at 3000 (MMF 2 %): liquidated below 2000 / 0.98 = 2040.816326530612244897…
    ledger.applyFill(1, 'BUY', X18, 3000n * X18, 0n);
    let mark = 2040816326530612244898n;
    const watch = new MarginWatch(
      (id) => MARKETS.get(id),
      () => mark,
    );
    expect(watch.liquidatable(ledger)).toBe(false);
    mark -= 1n;
    expect(watch.liquidatable(ledger)).toBe(true);
    // A fill changes the form: half sold, the account holds again at that mark.
    ledger.applyFill(1, 'SELL', X18 / 2n, 3000n * X18, 0n);
    expect(watch.liquidatable(ledger)).toBe(false);
  });
});
