import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../../src/errors/index.ts';
import {
  marketRowSchema,
  marketToWireRow,
  parseMarketList,
  parseMarketRow,
} from '../../../../src/venue/schemas/index.ts';
import { checkMarketRowFast } from '../../../../src/venue/schemas/market-row.ts';
import type { Market } from '../../../../src/domain/index.ts';
import {
  ISO_TIMESTAMP_VALUES,
  itAgreesWithItsSchema,
} from '../../../helpers/fast-path-agreement.ts';

interface Envelope {
  body: { markets: Record<string, unknown>[] };
  message: string;
  status: number;
}

const fixture = JSON.parse(
  readFileSync(new URL('../../../fixtures/markets.json', import.meta.url), 'utf8'),
) as Envelope;
const rows = fixture.body.markets;
const doge = rows.find((row) => row.id === 7)!;

function failure(run: () => unknown): QuantaError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    return error as QuantaError;
  }
  throw new Error('expected a throw');
}

function rowError(change: Record<string, unknown>, index?: number): string {
  const error = failure(() => parseMarketRow({ ...doge, ...change }, index));
  expect(error.code).toBe(ErrorCodes.INVALID_MARKET);
  return error.shortMessage;
}

describe('markets.json fixture', () => {
  const markets = parseMarketList(fixture.body);

  it('parses all 8 rows, in order', () => {
    expect(markets.map((m) => m.id)).toEqual([1, 3, 5, 103, 2, 7, 9, 11]);
  });

  it('parses the docs/conventions.md §7 ETH-USD row into bigints', () => {
    expect(markets[0]).toEqual({
      id: 1,
      symbol: 'ETH-USD',
      type: 'PERPETUAL',
      baseAsset: 'ETH',
      quoteAsset: 'USDC',
      amountExpo: 9,
      priceExpo: 6,
      minAmountX18: 100000000000000n,
      maxPositionValueX18: 1000000000n * 10n ** 18n,
      makerFeeX18: 500000000000000n,
      takerFeeX18: 500000000000000n,
      initialMarginX18: 50000000000000000n,
      maintenanceMarginX18: 20000000000000000n,
      isActive: true,
      createdAt: '2026-01-05T00:00:00Z',
      updatedAt: '2026-01-05T00:00:00Z',
      deletedAt: null,
    } satisfies Market);
  });

  it('holds a SPOT market, an expo-0 market, a negative-expo market and an inactive one', () => {
    const byId = new Map(markets.map((m) => [m.id, m]));
    expect(byId.get(2)?.type).toBe('SPOT');
    expect(byId.get(7)?.amountExpo).toBe(0);
    expect(byId.get(9)?.amountExpo).toBe(-2);
    expect(byId.get(11)?.isActive).toBe(false);
  });

  it('marketToWireRow gives back each row exactly', () => {
    for (const [index, market] of markets.entries()) {
      expect(marketToWireRow(market)).toStrictEqual(rows[index]);
    }
  });

  it('accepts deleted_at as a timestamp, fractional seconds and an offset', () => {
    const market = parseMarketRow({
      ...doge,
      created_at: '2026-01-05T00:00:00.123456Z',
      deleted_at: '2026-02-01T10:00:00+02:00',
    });
    expect(market.deletedAt).toBe('2026-02-01T10:00:00+02:00');
  });
});

describe('bad market rows', () => {
  it('pins the messages people read', () => {
    expect(rowError({ AmtToQtmConversionExpo: 19 })).toMatchInlineSnapshot(
      `"market 7: AmtToQtmConversionExpo: expo above 18 (got 19)"`,
    );
    expect(rowError({ PriceToQtmConversionExpo: -19 })).toMatchInlineSnapshot(
      `"market 7: PriceToQtmConversionExpo: expo below -18 (got -19)"`,
    );
    expect(rowError({ MinAmountx18: '-5' })).toMatchInlineSnapshot(
      `"market 7: MinAmountx18: expected a non-negative integer x18 string, got "-5""`,
    );
    expect(rowError({ MakerFeeFractionx18: '0.0005' })).toMatchInlineSnapshot(
      `"market 7: MakerFeeFractionx18: expected a non-negative integer x18 string, got "0.0005""`,
    );
    expect(rowError({ Type: 'FUTURE' })).toMatchInlineSnapshot(
      `"market 7: Type: expected PERPETUAL or SPOT, got "FUTURE""`,
    );
    expect(rowError({ MaxPositionValuex18: undefined })).toMatchInlineSnapshot(
      `"market 7: MaxPositionValuex18: missing"`,
    );
    expect(rowError({ id: '7' }, 5)).toMatchInlineSnapshot(
      `"market at index 5: id: expected number, got string"`,
    );
  });

  it.each([
    ['expo not an integer', { AmtToQtmConversionExpo: 1.5 }, 'AmtToQtmConversionExpo'],
    ['expo as a string', { PriceToQtmConversionExpo: '6' }, 'PriceToQtmConversionExpo'],
    ['x18 as a number', { MinAmountx18: 100 }, 'MinAmountx18'],
    ['x18 in exponent form', { TakerFeeFractionx18: '5e14' }, 'TakerFeeFractionx18'],
    ['x18 with a plus sign', { InitialMarginFractionx18: '+1' }, 'InitialMarginFractionx18'],
    ['x18 empty', { MaintenanceMarginFractionx18: '' }, 'MaintenanceMarginFractionx18'],
    ['lowercase type', { Type: 'perpetual' }, 'Type'],
    ['IsActive as a string', { IsActive: 'true' }, 'IsActive'],
    ['missing Symbol', { Symbol: undefined }, 'Symbol'],
    ['empty Symbol', { Symbol: '' }, 'Symbol'],
    ['bad timestamp', { created_at: 'yesterday' }, 'created_at'],
    ['deleted_at absent', { deleted_at: undefined }, 'deleted_at'],
  ])('rejects %s, naming market 7 and the field', (_, change, field) => {
    expect(rowError(change)).toMatch(new RegExp(`^market 7: ${field}: `));
  });

  it('a field in snake_case instead of the wire case is missing', () => {
    const { MinAmountx18, ...rest } = doge;
    expect(rowError({ ...rest, MinAmountx18: undefined, min_amount_x18: MinAmountx18 })).toBe(
      'market 7: MinAmountx18: missing',
    );
  });

  it('names the index when the id is unusable, and lists further issues as details', () => {
    const error = failure(() => parseMarketRow({ ...doge, id: -1, Type: 'X' }, 3));
    expect(error.message).toMatchInlineSnapshot(`
      "market at index 3: id: expected a non-negative integer, got -1
      market at index 3: Type: expected PERPETUAL or SPOT, got "X""
    `);
  });

  it('parseMarketList names the bad row among good ones', () => {
    const body = { markets: [...rows.slice(0, 3), { ...doge, MinAmountx18: '1.5' }] };
    const error = failure(() => parseMarketList(body));
    expect(error.code).toBe(ErrorCodes.INVALID_MARKET);
    expect(error.shortMessage).toBe(
      'market 7: MinAmountx18: expected a non-negative integer x18 string, got "1.5"',
    );
  });

  it('parseMarketList refuses a body without markets and an id listed twice', () => {
    const notList = failure(() => parseMarketList({ markets: {} }));
    expect(notList.code).toBe(ErrorCodes.INVALID_WIRE_DATA);
    expect(notList.shortMessage).toBe('market list: markets: expected array, got object');
    expect(failure(() => parseMarketList(null)).shortMessage).toBe(
      'market list: expected object, got null',
    );
    expect(failure(() => parseMarketList({ markets: [doge, doge] })).shortMessage).toBe(
      'market 7: id: listed more than once (again at index 1)',
    );
  });
});

const isoArb = fc
  .date({
    min: new Date('1970-01-01T00:00:00.000Z'),
    max: new Date('9999-12-31T23:59:59.999Z'),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString());
const x18Arb = fc.bigInt({ min: 0n, max: 10n ** 40n });
const expoArb = fc.integer({ min: -18, max: 18 });

const marketArb: fc.Arbitrary<Market> = fc.record(
  {
    id: fc.maxSafeNat(),
    symbol: fc.string({ minLength: 1 }),
    type: fc.constantFrom('PERPETUAL' as const, 'SPOT' as const),
    baseAsset: fc.string(),
    quoteAsset: fc.string(),
    amountExpo: expoArb,
    priceExpo: expoArb,
    minAmountX18: x18Arb,
    maxPositionValueX18: x18Arb,
    makerFeeX18: x18Arb,
    takerFeeX18: x18Arb,
    initialMarginX18: x18Arb,
    maintenanceMarginX18: x18Arb,
    isActive: fc.boolean(),
    createdAt: isoArb,
    updatedAt: isoArb,
    deletedAt: fc.option(isoArb, { nil: null }),
  },
  { noNullPrototype: true },
);

describe('market row properties', () => {
  it('parseMarketRow ∘ marketToWireRow is the identity, through JSON (1000 runs)', () => {
    fc.assert(
      fc.property(marketArb, (market) => {
        const wire = JSON.parse(JSON.stringify(marketToWireRow(market))) as unknown;
        expect(marketRowSchema.safeParse(wire).success).toBe(true);
        expect(parseMarketRow(wire)).toStrictEqual(market);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the hand-checked market row agrees with marketRowSchema', () => {
  itAgreesWithItsSchema({
    fast: checkMarketRowFast,
    schema: marketRowSchema,
    valid: doge,
    extraKeys: ['extra', 'deletedAt'],
    values: [
      18,
      19,
      -18,
      -19,
      2 ** 53 - 1,
      'PERPETUAL',
      'SPOT',
      'perpetual',
      'DOGE',
      ...ISO_TIMESTAMP_VALUES,
      '100000000000000',
      '1'.repeat(40),
    ],
    // The same bytes as the schema's output, key order included.
    same: 'bytes',
    fields: [
      fc.integer({ min: -25, max: 25 }),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    ],
    alsoCheck: (candidate, accepted) => {
      let decided: boolean;
      try {
        decided = typeof parseMarketRow(candidate) === 'object';
      } catch {
        decided = false;
      }
      expect(decided).toBe(accepted);
    },
  });
});
