import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../../src/errors/index.ts';
import { formatX18 } from '../../../../src/money/index.ts';
import { parseQuotes, quotesToWire } from '../../../../src/venue/schemas/index.ts';
import {
  checkQuoteLevelFast,
  checkQuotesFast,
  checkWireQuoteFast,
  quoteLevelSchema,
  quotesBodySchema,
  wireQuoteSchema,
} from '../../../../src/venue/schemas/quotes.ts';
import type { Quote } from '../../../../src/domain/index.ts';
import { itAgreesWithItsSchema } from '../../../helpers/fast-path-agreement.ts';

const body = {
  quotes: [
    {
      marketId: 1,
      timestamp: 1790000000000,
      bids: [
        { price: '3000.5', quantity: '1.25' },
        { price: '3000', quantity: '4' },
      ],
      asks: [{ price: '3001', quantity: '0.000000000000000001' }],
    },
    { marketId: 3, timestamp: 1790000000000, bids: [], asks: [] },
  ],
};

function failure(raw: unknown): string {
  try {
    parseQuotes(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    expect((error as QuantaError).code).toBe(ErrorCodes.INVALID_WIRE_DATA);
    return (error as QuantaError).shortMessage;
  }
  throw new Error('expected a throw');
}

describe('quotes', () => {
  it('parses the docs/conventions.md §6 body and quotesToWire gives it back', () => {
    const quotes = parseQuotes(body);
    expect(quotes).toHaveLength(2);
    expect(quotes[0]?.bids[0]).toEqual({ price: '3000.5', quantity: '1.25' });
    expect(quotesToWire(quotes)).toStrictEqual(body);
  });

  it('names the path of a bad level', () => {
    const bad = structuredClone(body);
    bad.quotes[0]!.bids[1]!.price = '-3000';
    expect(failure(bad)).toMatchInlineSnapshot(
      `"quotes: quotes[0].bids[1].price: expected a plain non-negative decimal string with at most 18 fraction digits, got "-3000""`,
    );
  });

  it.each([
    [
      'a numeric price',
      (b: typeof body) => ((b.quotes[0]!.asks[0] as Record<string, unknown>).price = 3001),
      'quotes[0].asks[0].price',
    ],
    [
      'exponent form',
      (b: typeof body) => (b.quotes[0]!.asks[0]!.quantity = '1e-18'),
      'quotes[0].asks[0].quantity',
    ],
    [
      'a fractional timestamp',
      (b: typeof body) => (b.quotes[1]!.timestamp = 1.5),
      'quotes[1].timestamp',
    ],
    [
      'missing asks',
      (b: typeof body) => delete (b.quotes[1] as Partial<(typeof body.quotes)[1]>).asks,
      'quotes[1].asks',
    ],
  ])('rejects %s', (_, mutate, path) => {
    const bad = structuredClone(body);
    mutate(bad);
    expect(failure(bad)).toMatch(new RegExp(`^quotes: ${path.replace(/[[\].]/g, '\\$&')}: `));
  });

  it('rejects a body that is not {quotes: [...]}', () => {
    expect(failure([])).toBe('quotes: expected object, got array');
  });

  const levelArb = fc.record(
    {
      price: fc.bigInt({ min: 0n, max: 10n ** 30n }).map(formatX18),
      quantity: fc.bigInt({ min: 0n, max: 10n ** 30n }).map(formatX18),
    },
    { noNullPrototype: true },
  );
  const quoteArb: fc.Arbitrary<Quote> = fc.record(
    {
      marketId: fc.maxSafeNat(),
      timestamp: fc.maxSafeNat(),
      bids: fc.array(levelArb, { maxLength: 10 }),
      asks: fc.array(levelArb, { maxLength: 10 }),
    },
    { noNullPrototype: true },
  );

  it('parseQuotes ∘ quotesToWire is the identity, through JSON (1000 runs)', () => {
    fc.assert(
      fc.property(fc.array(quoteArb, { maxLength: 5 }), (quotes) => {
        const wire = JSON.parse(JSON.stringify(quotesToWire(quotes))) as unknown;
        expect(parseQuotes(wire)).toStrictEqual(quotes);
      }),
      { numRuns: 1000 },
    );
  });
});

function decides(parse: () => unknown): boolean {
  try {
    return typeof parse() === 'object';
  } catch {
    return false;
  }
}

const LEVEL_VALUES: readonly unknown[] = [
  '3000.5',
  '0.000000000000000001',
  '0.0000000000000000001',
  '1.',
  '+1',
  '1e3',
  '00',
  [],
  [{ price: '1', quantity: '2' }],
  [{ price: '1', quantity: '2', extra: 3 }],
  [{ price: '1', quantity: '2' }, { price: '1' }],
  [{ price: '1', quantity: 2 }],
  [null],
  [[{ price: '1', quantity: '2' }]],
  { price: '1', quantity: '2' },
  2 ** 53,
  1790000000000,
];

describe('the hand-checked quotes agree with their schemas', () => {
  describe('one level', () => {
    itAgreesWithItsSchema({
      fast: checkQuoteLevelFast,
      schema: quoteLevelSchema,
      valid: { price: '3000.5', quantity: '1.25' },
      extraKeys: ['extra'],
      values: LEVEL_VALUES,
      same: 'bytes',
    });
  });

  describe('one quote', () => {
    itAgreesWithItsSchema({
      fast: checkWireQuoteFast,
      schema: wireQuoteSchema,
      valid: body.quotes[0]!,
      extraKeys: ['extra'],
      values: LEVEL_VALUES,
      // The same bytes as the schema's output, key order included.
      same: 'bytes',
      fields: [
        fc.array(
          // JSON-ish levels, as JSON.parse makes them: fast-check's records may otherwise have a
          // null prototype, a level the fast path rightly leaves to the schema, which the check
          // that a plain candidate the schema accepts takes the fast path counted as a miss (a
          // CI run failed so; the same property found one in 611 runs, none in 300,000 since).
          fc.record(
            {
              price: fc.oneof(fc.string(), fc.constantFrom('1', '1.5', '0.1', '1.x')),
              quantity: fc.oneof(fc.string(), fc.constantFrom('2', '0.25')),
            },
            { noNullPrototype: true },
          ),
          { maxLength: 3 },
        ),
      ],
      alsoCheck: (candidate, accepted) =>
        expect(decides(() => parseQuotes({ quotes: [candidate] }))).toBe(accepted),
    });

    it('leaves a level with a null prototype to the schema, which takes it', () => {
      const level = Object.assign(Object.create(null) as object, { price: '1', quantity: '2' });
      const quote = { ...body.quotes[0]!, asks: [level] };
      expect(checkWireQuoteFast(quote)).toBeUndefined();
      expect(wireQuoteSchema.safeParse(quote).success).toBe(true);
    });
  });

  describe('the body', () => {
    itAgreesWithItsSchema({
      fast: checkQuotesFast,
      schema: {
        safeParse: (candidate) => {
          const result = quotesBodySchema.safeParse(candidate);
          return result.success ? { success: true, data: result.data.quotes } : result;
        },
      },
      valid: body,
      extraKeys: ['extra'],
      values: [
        [],
        body.quotes,
        [body.quotes[0], null],
        [{ ...body.quotes[0], bids: [{ price: '1' }] }],
        [{ ...body.quotes[0], extra: 1 }],
        body.quotes[0],
      ],
      same: 'bytes',
      alsoCheck: (candidate, accepted) =>
        expect(decides(() => parseQuotes(candidate))).toBe(accepted),
    });
  });
});
