/**
 * docs/conventions.md §4.2-§4.5 over HTTP: the §4.4 checks in their order and with their messages, each
 * one before the signature; the signature (400); the replay guard (409); the order answered.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SIGNING_DOMAIN, type OrderRequestBody } from '../../../src/venue/types.ts';
import {
  type Answer,
  DAY_MS,
  type Harness,
  KEYS,
  NOW,
  type TestSession,
  orderBody,
  placeOrder,
  register,
  sendOrder,
  signBody,
  startHarness,
} from './harness.ts';

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const BAD_SIGNATURE =
  'Service-Signature: not a signature by Service-Signer-Address over this order';

let harness: Harness;
let session: TestSession;
/** A well-formed signature by the right key, over another order: wrong for every case below. */
let wrongSignature: string;

beforeEach(async () => {
  // A balance the 10000 SOL MARKET order below fits in (150000 of initial margin at 10 %): these
  // cases are about validation, docs/margin.md's refusal is tested in test/unit/sim/margin.test.ts.
  harness = await startHarness({ balance: '1000000' });
  session = await register(harness);
  wrongSignature = await signBody(session, orderBody({ amount: '0.123' }));
});
afterEach(async () => {
  await harness.close();
});

function expectError(answer: Answer, status: number, message: string): void {
  expect(answer.json).toStrictEqual({ body: null, message, status });
  expect(answer.status).toBe(status);
}

/** Nothing was placed before: the next accepted order is order 1. */
async function expectNoOrderPlaced(): Promise<void> {
  const { answer } = await placeOrder(harness, session, { amount: '0.987' });
  expect(answer.status).toBe(200);
  expect((answer.json.body as { id: number }).id).toBe(1);
}

const expired = NOW;
const tooFar = NOW + 30 * DAY_MS + 1;

/**
 * Each body breaks its rule and every later one it can (a bad signature always), so the answer
 * shows both the message and that the earlier rule was checked first. Markets come from the
 * fixture: 11 XRP-USD inactive, 7 DOGE-USD amount expo 0, 9 SHIB-USD amount expo −2.
 */
const CASES: readonly { rule: string; body: Record<string, unknown>; message: string }[] = [
  {
    rule: 'unknown market (also expired, off grid)',
    body: { marketId: 999, expiryTs: expired, amount: '0.0000000001' },
    message: 'market 999 not found',
  },
  {
    rule: 'market not active (also expired, off grid)',
    body: { marketId: 11, expiryTs: expired, amount: '0.0000000001' },
    message: 'market 11 is not active',
  },
  {
    rule: 'expiryTs now (also off grid, negative)',
    body: { expiryTs: expired, amount: '-0.0000000001' },
    message: 'timestamp expired',
  },
  {
    rule: 'expiryTs in the past',
    body: { expiryTs: NOW - 1, amount: '-1' },
    message: 'timestamp expired',
  },
  {
    rule: 'expiryTs more than 30 days ahead (also off grid)',
    body: { expiryTs: tooFar, amount: '0.0000000001' },
    message: 'timestamp exceeding allowed value',
  },
  {
    rule: 'amount off the grid (also negative, below minimum)',
    body: { amount: '-0.0000000001' },
    message:
      'amount -0.0000000001 is off the quantum grid: must be a multiple of 0.000000001 (AmtToQtmConversionExpo 9)',
  },
  {
    rule: 'price off the grid (also price of a limit above max notional)',
    body: { orderType: 'LIMIT', amount: '1000000', price: '3000.0000001' },
    message:
      'price 3000.0000001 is off the quantum grid: must be a multiple of 0.000001 (PriceToQtmConversionExpo 6)',
  },
  {
    rule: 'amount off the grid of an expo 0 market',
    body: { marketId: 7, amount: '1.5' },
    message:
      'amount 1.5 is off the quantum grid: must be a multiple of 1 (AmtToQtmConversionExpo 0)',
  },
  {
    rule: 'amount off the grid of a negative expo market',
    body: { marketId: 9, amount: '150' },
    message:
      'amount 150 is off the quantum grid: must be a multiple of 100 (AmtToQtmConversionExpo -2)',
  },
  {
    rule: 'negative amount (also below minimum)',
    body: { amount: '-1' },
    message: 'amount must not be negative (got -1)',
  },
  {
    rule: 'negative price (also limit below minimum)',
    body: { orderType: 'LIMIT', price: '-3000', amount: '0.00001' },
    message: 'price must not be negative (got -3000)',
  },
  {
    rule: 'limit with price 0 (also below minimum)',
    body: { orderType: 'LIMIT', price: '0', amount: '0.00001' },
    message: 'price must be above 0 for limit order',
  },
  {
    rule: 'market with a price (also below minimum)',
    body: { orderType: 'MARKET', price: '3000', amount: '0.00001' },
    message: 'price should be 0 for market order',
  },
  {
    rule: 'non-reduce amount below the minimum',
    body: { amount: '0.00005' },
    message: 'amount 0.00005 is below the market minimum 0.0001',
  },
  {
    rule: 'limit notional above the maximum position value',
    body: { marketId: 5, orderType: 'LIMIT', amount: '10000', price: '101' },
    message: 'order notional 1010000 is above the market maximum position value 1000000',
  },
  {
    rule: 'signature',
    body: {},
    message: BAD_SIGNATURE,
  },
];

describe('§4.4 validation order and messages', () => {
  for (const { rule, body, message } of CASES) {
    it(`${rule}: 400 ${message}`, async () => {
      const answer = await sendOrder(harness, session, { ...orderBody(), ...body }, wrongSignature);
      expectError(answer, 400, message);
      await expectNoOrderPlaced();
    });
  }

  it('answers an order that is both off the grid and badly signed with the grid error', async () => {
    const answer = await sendOrder(
      harness,
      session,
      orderBody({ amount: '0.1234567891' }),
      '0x' + 'ab'.repeat(65),
    );
    expectError(
      answer,
      400,
      'amount 0.1234567891 is off the quantum grid: must be a multiple of 0.000000001 (AmtToQtmConversionExpo 9)',
    );
  });

  it('skips the minimum for reduce-only orders, and the notional for MARKET orders', async () => {
    const reduce = orderBody({ amount: '0.00005', isReduce: true });
    expectError(await sendOrder(harness, session, reduce, wrongSignature), 400, BAD_SIGNATURE);
    const hugeMarket = orderBody({ marketId: 5, amount: '10000' });
    expectError(await sendOrder(harness, session, hugeMarket, wrongSignature), 400, BAD_SIGNATURE);
    // Signed, both are accepted: the reduce-only one has nothing to reduce, the market order
    // takes what the book has and cancels the rest (immediate-or-cancel).
    const reduceAnswer = await sendOrder(harness, session, reduce, await signBody(session, reduce));
    expect(reduceAnswer.status).toBe(200);
    expect(reduceAnswer.json.body).toMatchObject({ status: 'CANCELLED', totalFilledx18: '0' });
    const marketAnswer = await sendOrder(
      harness,
      session,
      hugeMarket,
      await signBody(session, hugeMarket),
    );
    expect(marketAnswer.status).toBe(200);
    const order = marketAnswer.json.body as Record<string, string>;
    expect(order['status']).toBe('CANCELLED');
    expect(BigInt(order['totalFilledx18'] ?? '0')).toBeGreaterThan(0n);
    expect(BigInt(order['totalFilledx18'] ?? '0')).toBeLessThan(10_000n * 10n ** 18n);
  });

  it('accepts the last moment of the 30-day window', async () => {
    const { answer } = await placeOrder(harness, session, { expiryTs: NOW + 30 * DAY_MS });
    expect(answer.status).toBe(200);
  });

  it('names a missing or malformed field of the body', async () => {
    const { isReduce: _isReduce, ...withoutReduce } = orderBody();
    expectError(
      await sendOrder(harness, session, withoutReduce, wrongSignature),
      400,
      'order request: isReduce: missing',
    );
    expectError(
      await sendOrder(harness, session, { ...orderBody(), amount: '1e-3' }, wrongSignature),
      400,
      'order request: amount: expected a plain decimal string with at most 18 fraction digits',
    );
    expectError(
      await sendOrder(harness, session, { ...orderBody(), amount: 0.1 }, wrongSignature),
      400,
      'order request: amount: expected string, got number',
    );
    expectError(
      await sendOrder(harness, session, { ...orderBody(), orderType: 'STOP' }, wrongSignature),
      400,
      'order request: orderType: expected MARKET or LIMIT, got "STOP"',
    );
  });
});

describe('order signature (§4.2, 400)', () => {
  it('requires the signature header', async () => {
    expectError(
      await sendOrder(harness, session, orderBody(), undefined),
      400,
      'Service-Signature header: missing',
    );
  });

  it('refuses a signature by another key, over another body or under another domain', async () => {
    const body = orderBody();
    const byWallet = await signBody({ ...session, signingKey: KEYS.wallet.privateKey }, body);
    expectError(await sendOrder(harness, session, body, byWallet), 400, BAD_SIGNATURE);
    const otherBody = await signBody(session, { ...body, isReduce: true });
    expectError(await sendOrder(harness, session, body, otherBody), 400, BAD_SIGNATURE);
    const otherDomain = await signBody(session, body, {
      ...DEFAULT_SIGNING_DOMAIN,
      orderChainId: 2,
    });
    expectError(await sendOrder(harness, session, body, otherDomain), 400, BAD_SIGNATURE);
    expectError(await sendOrder(harness, session, body, 'not hex'), 400, BAD_SIGNATURE);
  });

  it('refuses the second (high-s) encoding of a valid signature', async () => {
    const body = orderBody();
    const signature = await signBody(session, body);
    const s = BigInt(`0x${signature.slice(66, 130)}`);
    const v = signature.endsWith('1b') ? '1c' : '1b';
    const twin = `${signature.slice(0, 66)}${(SECP256K1_N - s).toString(16).padStart(64, '0')}${v}`;
    expectError(await sendOrder(harness, session, body, twin), 400, BAD_SIGNATURE);
  });

  it('checks the signed values, not their spelling', async () => {
    const signed = orderBody({ orderType: 'LIMIT', amount: '0.1', price: '2900' });
    const signature = await signBody(session, signed);
    const respelled = { ...signed, amount: '0.100', price: '2900.000000' };
    const answer = await sendOrder(harness, session, respelled, signature);
    expect(answer.status).toBe(200);
    expect(answer.json.body).toMatchObject({
      amountx18: '100000000000000000',
      pricex18: '2900000000000000000000',
    });
  });
});

describe('replay guard (§4.3, 409)', () => {
  it('answers the identical request a second time 409 and places one order', async () => {
    const body = orderBody();
    const signature = await signBody(session, body);
    const text = JSON.stringify(body);
    expect((await sendOrder(harness, session, text, signature)).status).toBe(200);
    expectError(await sendOrder(harness, session, text, signature), 409, 'signature already used');
    // The same signature in upper-case hex is the same signature.
    expectError(
      await sendOrder(harness, session, text, `0x${signature.slice(2).toUpperCase()}`),
      409,
      'signature already used',
    );
    expectError(
      await harness.send('/api/v1/order/2', { headers: session.headers }),
      404,
      'order 2 not found',
    );
  });

  it('lets exactly one of concurrent identical requests through', async () => {
    const body = orderBody();
    const signature = await signBody(session, body);
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => sendOrder(harness, session, body, signature)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
  });

  it('records a signature only when the order is accepted', async () => {
    const body = orderBody({ marketId: 11, amount: '1' });
    const signature = await signBody(session, body);
    expectError(await sendOrder(harness, session, body, signature), 400, 'market 11 is not active');
    harness.venue.engine.setMarketActive(11, true);
    const retry = await sendOrder(harness, session, body, signature);
    expect(retry.status).toBe(200);
    expectError(await sendOrder(harness, session, body, signature), 409, 'signature already used');
  });

  it('treats a used signature on another body as a bad signature, not a replay', async () => {
    const body = orderBody();
    const signature = await signBody(session, body);
    expect((await sendOrder(harness, session, body, signature)).status).toBe(200);
    expectError(
      await sendOrder(harness, session, { ...body, amount: '0.2' }, signature),
      400,
      BAD_SIGNATURE,
    );
  });
});

const ORDER_FIELDS = [
  'id',
  'brokerId',
  'subaccountId',
  'marketSymbol',
  'marketType',
  'side',
  'type',
  'status',
  'amountx18',
  'pricex18',
  'totalFilledx18',
  'expiryTs',
  'createdAt',
  'updatedAt',
  'avgFillPricex18',
];

describe('the order answered (docs/conventions.md §4.5 and §6 avgFillPricex18, docs/trading-service-api.md §2.5)', () => {
  it('answers a MARKET buy FILLED with the spec fields, pricex18 0 and the fill price', async () => {
    const { answer, body } = await placeOrder(harness, session, { amount: '0.002094' });
    expect(answer.status).toBe(200);
    expect(answer.json.message).toBe('Order created successfully');
    expect(answer.json.status).toBe(200);
    const order = answer.json.body as Record<string, unknown>;
    expect(Object.keys(order)).toEqual(ORDER_FIELDS);
    const at = new Date(NOW).toISOString();
    expect(order).toStrictEqual({
      id: 1,
      brokerId: 1,
      subaccountId: session.subaccountId,
      marketSymbol: 'ETH-USD',
      marketType: 'PERPETUAL',
      side: 'BUY',
      type: 'MARKET',
      status: 'FILLED',
      amountx18: '2094000000000000',
      pricex18: '0',
      totalFilledx18: '2094000000000000',
      expiryTs: body.expiryTs,
      createdAt: at,
      updatedAt: at,
      // The still book around 3000 with a 10 bp spread: best ask 3001.5.
      avgFillPricex18: '3001500000000000000000',
    });
  });

  it('answers a MARKET sell at the best bid', async () => {
    const { answer } = await placeOrder(harness, session, { isBuy: false, amount: '0.5' });
    expect(answer.json.body).toMatchObject({
      side: 'SELL',
      status: 'FILLED',
      totalFilledx18: '500000000000000000',
      avgFillPricex18: '2998500000000000000000',
    });
  });

  it('rests a LIMIT order that does not cross (OPEN) and fills one that does', async () => {
    const resting = await placeOrder(harness, session, {
      orderType: 'LIMIT',
      price: '2900',
      expiryTs: NOW + DAY_MS,
    });
    expect(resting.answer.json.body).toMatchObject({
      type: 'LIMIT',
      status: 'OPEN',
      pricex18: '2900000000000000000000',
      totalFilledx18: '0',
      avgFillPricex18: '0',
      expiryTs: NOW + DAY_MS,
    });
    const crossing = await placeOrder(harness, session, { orderType: 'LIMIT', price: '3100' });
    expect(crossing.answer.json.body).toMatchObject({
      status: 'FILLED',
      pricex18: '3100000000000000000000',
      totalFilledx18: '100000000000000000',
      avgFillPricex18: '3001500000000000000000',
    });
  });

  it('signs with the order chain id of the venue configuration', async () => {
    await harness.close();
    const domain = { ...DEFAULT_SIGNING_DOMAIN, orderChainId: 42161 };
    harness = await startHarness({ domain });
    session = await register(harness);
    const body: OrderRequestBody = orderBody();
    const good = await signBody(session, body, domain);
    const defaultDomain = await signBody(session, body);
    expectError(await sendOrder(harness, session, body, defaultDomain), 400, BAD_SIGNATURE);
    expect((await sendOrder(harness, session, body, good)).status).toBe(200);
  });
});
