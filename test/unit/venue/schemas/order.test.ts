import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../../src/errors/index.ts';
import {
  parseOrderRequestBody,
  parseVenueOrder,
  venueOrderToWire,
} from '../../../../src/venue/schemas/index.ts';
import {
  checkOrderRequestBodyFast,
  checkWireOrderFast,
  orderRequestBodySchema,
  wireOrderSchema,
} from '../../../../src/venue/schemas/order.ts';
import type { OrderRequestBody, VenueOrder } from '../../../../src/venue/types.ts';
import {
  ISO_TIMESTAMP_VALUES,
  itAgreesWithItsSchema,
} from '../../../helpers/fast-path-agreement.ts';
import { readVector } from '../../../helpers/vectors.ts';

const vectorBodies = readVector<{ orders: { body: OrderRequestBody }[] }>('eip712.json').orders.map(
  (order) => order.body,
);
const body = vectorBodies[0]!;

/** The docs/trading-service-api.md §2.5 sample answer to the sample market order. */
const wireOrder = {
  id: 42,
  brokerId: 1,
  subaccountId: '1_0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266_1',
  marketSymbol: 'ETH-USD',
  marketType: 'PERPETUAL',
  side: 'BUY',
  type: 'MARKET',
  status: 'FILLED',
  amountx18: '2094000000000000',
  pricex18: '0',
  totalFilledx18: '2094000000000000',
  expiryTs: 1790000000000,
  createdAt: '2026-01-05T00:00:00.123456Z',
  updatedAt: '2026-01-05T00:00:00.123456Z',
};

function failure(run: () => unknown): QuantaError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    expect((error as QuantaError).code).toBe(ErrorCodes.INVALID_WIRE_DATA);
    return error as QuantaError;
  }
  throw new Error('expected a throw');
}

describe('order request body', () => {
  it.each(vectorBodies)('accepts the vector body for market $marketId', (vector) => {
    expect(parseOrderRequestBody(vector)).toStrictEqual(vector);
  });

  it('drops fields the spec does not have', () => {
    expect(parseOrderRequestBody({ ...body, extra: 1 })).toStrictEqual(body);
  });

  it('pins the messages people read', () => {
    const bad = (change: Record<string, unknown>) =>
      failure(() => parseOrderRequestBody({ ...body, ...change })).shortMessage;
    expect(bad({ amount: '1e-3' })).toMatchInlineSnapshot(
      `"order request: amount: expected a plain non-negative decimal string with at most 18 fraction digits, got "1e-3""`,
    );
    expect(bad({ price: 0 })).toMatchInlineSnapshot(
      `"order request: price: expected string, got number"`,
    );
    expect(bad({ orderType: 'STOP' })).toMatchInlineSnapshot(
      `"order request: orderType: expected MARKET or LIMIT, got "STOP""`,
    );
    expect(bad({ expiryTs: 1790000000000.5 })).toMatchInlineSnapshot(
      `"order request: expiryTs: expected an integer, got 1790000000000.5"`,
    );
    expect(bad({ amount: '200000000000000000000' })).toMatchInlineSnapshot(
      `"order request: amount: expected at most 170141183460469231731.687303715884105727 (int128 x18), got "200000000000000000000""`,
    );
  });

  it.each([
    ['a signed amount', { amount: '+1' }, 'amount'],
    ['19 fraction digits', { amount: '0.0000000000000000001' }, 'amount'],
    ['a bare dot', { price: '1.' }, 'price'],
    ['spaces', { price: ' 1' }, 'price'],
    ['a market id above uint32', { marketId: 2 ** 32 }, 'marketId'],
    ['a negative expiry', { expiryTs: -1 }, 'expiryTs'],
    ['isBuy as a string', { isBuy: 'true' }, 'isBuy'],
    ['isReduce missing', { isReduce: undefined }, 'isReduce'],
  ])('rejects %s', (_, change, field) => {
    expect(failure(() => parseOrderRequestBody({ ...body, ...change })).shortMessage).toMatch(
      new RegExp(`^order request: ${field}: `),
    );
  });
});

describe('wire order', () => {
  it('parses the spec sample into bigints, without a fill price', () => {
    const order = parseVenueOrder(wireOrder);
    expect(order.amountX18).toBe(2094000000000000n);
    expect(order.totalFilledX18).toBe(order.amountX18);
    expect(order.priceX18).toBe(0n);
    expect('avgFillPriceX18' in order).toBe(false);
    expect(venueOrderToWire(order)).toStrictEqual(wireOrder);
  });

  it('parses the avgFillPricex18 extension', () => {
    const withFill = { ...wireOrder, avgFillPricex18: '3000500000000000000000' };
    const order = parseVenueOrder(withFill);
    expect(order.avgFillPriceX18).toBe(3000500000000000000000n);
    expect(venueOrderToWire(order)).toStrictEqual(withFill);
  });

  it("maps the wire's PARTIAL to the domain's PARTIALLY_FILLED and back", () => {
    const partial = { ...wireOrder, status: 'PARTIAL' };
    const order = parseVenueOrder(partial);
    expect(order.status).toBe('PARTIALLY_FILLED');
    expect(venueOrderToWire(order)).toStrictEqual(partial);
  });

  it('names the order and the field', () => {
    expect(
      failure(() => parseVenueOrder({ ...wireOrder, status: 'NEW' })).shortMessage,
    ).toMatchInlineSnapshot(
      `"order 42: status: expected OPEN, PARTIAL, FILLED or CANCELLED, got "NEW""`,
    );
    expect(
      failure(() => parseVenueOrder({ ...wireOrder, totalFilledx18: '-1' })).shortMessage,
    ).toBe('order 42: totalFilledx18: expected a non-negative integer x18 string, got "-1"');
    expect(failure(() => parseVenueOrder({ ...wireOrder, id: null })).shortMessage).toBe(
      'order: id: expected number, got null',
    );
  });

  const isoArb = fc
    .date({
      min: new Date('2000-01-01T00:00:00.000Z'),
      max: new Date('2100-01-01T00:00:00.000Z'),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString());
  const x18Arb = fc.bigInt({ min: 0n, max: 10n ** 40n });
  const orderArb = fc
    .record(
      {
        id: fc.maxSafeNat(),
        brokerId: fc.maxSafeNat(),
        subaccountId: fc.string({ minLength: 1 }),
        marketSymbol: fc.string(),
        marketType: fc.constantFrom('PERPETUAL' as const, 'SPOT' as const),
        side: fc.constantFrom('BUY' as const, 'SELL' as const),
        type: fc.constantFrom('MARKET' as const, 'LIMIT' as const),
        status: fc.constantFrom(
          'OPEN' as const,
          'PARTIALLY_FILLED' as const,
          'FILLED' as const,
          'CANCELLED' as const,
        ),
        amountX18: x18Arb,
        priceX18: x18Arb,
        totalFilledX18: x18Arb,
        expiryTs: fc.maxSafeNat(),
        createdAt: isoArb,
        updatedAt: isoArb,
      },
      { noNullPrototype: true },
    )
    .chain((order) =>
      fc
        .option(x18Arb, { nil: undefined })
        .map((fill): VenueOrder =>
          fill === undefined ? order : { ...order, avgFillPriceX18: fill },
        ),
    );

  it('parseVenueOrder ∘ venueOrderToWire is the identity, through JSON (1000 runs)', () => {
    fc.assert(
      fc.property(orderArb, (order) => {
        const wire = JSON.parse(JSON.stringify(venueOrderToWire(order))) as unknown;
        expect(parseVenueOrder(wire)).toStrictEqual(order);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the hand-checked order answer agrees with wireOrderSchema', () => {
  itAgreesWithItsSchema({
    fast: checkWireOrderFast,
    schema: wireOrderSchema,
    valid: wireOrder,
    full: { ...wireOrder, avgFillPricex18: '3' },
    extraKeys: ['avgFillPricex18', 'extra'],
    values: [
      'BUY',
      'SELL',
      'buy',
      'MARKET',
      'LIMIT',
      'OPEN',
      'PARTIAL',
      'PARTIALLY_FILLED',
      'FILLED',
      'CANCELLED',
      'PERPETUAL',
      'SPOT',
      'ETH-USD',
      ['1'],
      ...ISO_TIMESTAMP_VALUES,
    ],
    // (A key present as undefined, which JSON cannot send, the schema keeps.)
    same: 'value',
    fields: [fc.date({ noInvalidDate: true }).map((d) => d.toISOString())],
    alsoCheck: (candidate, accepted) =>
      expect(decides(() => parseVenueOrder(candidate))).toBe(accepted),
  });
});

describe('the hand-checked order request body agrees with orderRequestBodySchema', () => {
  itAgreesWithItsSchema({
    fast: checkOrderRequestBodyFast,
    schema: orderRequestBodySchema,
    valid: { ...body },
    extraKeys: ['extra'],
    values: [
      2 ** 32 - 1,
      2 ** 32,
      '0.000000000000000001',
      '0.0000000000000000001',
      '170141183460469231731.687303715884105727',
      '170141183460469231731.687303715884105728',
      'MARKET',
      'LIMIT',
      'market',
    ],
    // The same bytes as the schema's output (key order included): what a signer stringifies.
    same: 'bytes',
    fields: [
      fc.bigInt({ min: 0n, max: 10n ** 40n }).map(String),
      fc
        .tuple(fc.bigInt({ min: 0n, max: 10n ** 22n }), fc.bigInt({ min: 0n, max: 10n ** 19n }))
        .map(([a, b]) => `${a}.${b}`),
    ],
    alsoCheck: (candidate, accepted) =>
      expect(decides(() => parseOrderRequestBody(candidate))).toBe(accepted),
  });
});

/** Whether a parser that throws on a bad value accepted it. */
function decides(parse: () => unknown): boolean {
  try {
    return typeof parse() === 'object';
  } catch {
    return false;
  }
}
