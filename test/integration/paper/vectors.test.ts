/**
 * The known-answer requests of test/fixtures/vectors/eip712.json, sent byte for byte to a fresh
 * venue (docs/conventions.md §7 markets) whose clock is before their expiry: the registrations in order
 * (the second a re-login of the same key at nonce 1), then the orders on markets 1, 3 and 5.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { signOrder } from '../../../src/venue/signing/index.ts';
import { DEFAULT_SIGNING_DOMAIN, type OrderRequestBody } from '../../../src/venue/types.ts';
import { readVector } from '../../helpers/vectors.ts';
import { type Answer, type Harness, post, startHarness } from './harness.ts';

interface Eip712Vectors {
  keys: Record<'wallet' | 'signingKey', { privateKey: `0x${string}`; address: string }>;
  registrations: {
    request: {
      headers: Record<string, string>;
      body: Record<string, unknown> & { expiryTs: number };
    };
  }[];
  orders: {
    subaccountId: string;
    body: OrderRequestBody;
    headers: Record<string, string>;
    signedStruct: { priceX18: string; amount: string };
  }[];
}

const vectors = readVector<Eip712Vectors>('eip712.json');
const earliestExpiry = Math.min(
  ...vectors.registrations.map((r) => r.request.body.expiryTs),
  ...vectors.orders.map((o) => o.body.expiryTs),
);
/** A minute before the earliest expiry: within 7 days of every registration expiry. */
const CLOCK = earliestExpiry - 60_000;

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

async function registerVectors(): Promise<Record<string, string>[]> {
  const pairs: Record<string, string>[] = [];
  for (const { request } of vectors.registrations) {
    const answer = await post(
      harness,
      '/api/v1/auth',
      JSON.stringify(request.body),
      request.headers,
    );
    expect(answer.status).toBe(200);
    expect(answer.json.message).toBe('Subaccount successfully registered');
    pairs.push(answer.json.body as Record<string, string>);
  }
  return pairs;
}

function sendVectorOrder(
  order: Eip712Vectors['orders'][number],
  pair: Record<string, string>,
): Promise<Answer> {
  return post(harness, '/api/v1/order', JSON.stringify(order.body), {
    ...order.headers,
    'Service-Key': pair['service_key'] ?? '',
    'Service-Secret': pair['service_secret'] ?? '',
  });
}

describe('eip712.json vector requests', () => {
  it('accepts the registrations in order; the second is a re-login that keeps the counter at 1', async () => {
    harness = await startHarness({}, { venueDefaults: true, startAt: CLOCK });
    const [first, second] = await registerVectors();
    expect(second).not.toStrictEqual(first);
    // The counter moved once (one signing key): the first request's nonce 0 is now stale.
    const [{ request }] = vectors.registrations as [Eip712Vectors['registrations'][number]];
    const again = await post(
      harness,
      '/api/v1/auth',
      JSON.stringify(request.body),
      request.headers,
    );
    expect(again.json).toStrictEqual({
      body: null,
      message: 'invalid nonce: expected 1',
      status: 400,
    });
  });

  it('accepts the orders on markets 1, 3 and 5 and answers each sensibly', async () => {
    harness = await startHarness({}, { venueDefaults: true, startAt: CLOCK });
    const pair = (await registerVectors())[1] ?? {};
    const answers: Record<string, unknown>[] = [];
    for (const order of vectors.orders) {
      const answer = await sendVectorOrder(order, pair);
      expect(answer.status).toBe(200);
      expect(answer.json.message).toBe('Order created successfully');
      const body = answer.json.body as Record<string, unknown>;
      // The answer echoes the signed values.
      expect(body).toMatchObject({
        brokerId: Number(order.headers['Broker-Id']),
        subaccountId: order.subaccountId,
        side: order.body.isBuy ? 'BUY' : 'SELL',
        type: order.body.orderType,
        amountx18: order.signedStruct.amount.replace('-', ''),
        pricex18: order.signedStruct.priceX18,
        expiryTs: order.body.expiryTs,
      });
      answers.push(body);
    }
    const [eth, btc, sol] = answers;
    // Market 1: a MARKET buy of 0.002094 ETH fills at once.
    expect(eth).toMatchObject({ id: 1, marketSymbol: 'ETH-USD', status: 'FILLED' });
    expect(eth?.['totalFilledx18']).toBe('2094000000000000');
    expect(BigInt(String(eth?.['avgFillPricex18']))).toBeGreaterThan(0n);
    // Market 3: a reduce-only LIMIT sell with no BTC position has nothing to reduce: accepted
    // and cancelled at once with nothing filled.
    expect(btc).toMatchObject({
      id: 2,
      marketSymbol: 'BTC-USD',
      status: 'CANCELLED',
      totalFilledx18: '0',
      avgFillPricex18: '0',
    });
    // Market 5: a MARKET sell of 12.34 SOL fills at once.
    expect(sol).toMatchObject({ id: 3, marketSymbol: 'SOL-USD', status: 'FILLED' });
    expect(sol?.['totalFilledx18']).toBe('12340000000000000000');

    // The same signed bytes again: the replay guard.
    const replay = await sendVectorOrder(
      vectors.orders[0] as Eip712Vectors['orders'][number],
      pair,
    );
    expect(replay.json).toStrictEqual({
      body: null,
      message: 'signature already used',
      status: 409,
    });
  });

  it('rests the reduce-only sell of market 3 when there is a long position to reduce', async () => {
    harness = await startHarness({}, { venueDefaults: true, startAt: CLOCK });
    const pair = (await registerVectors())[1] ?? {};
    const btcOrder = vectors.orders[1] as Eip712Vectors['orders'][number];
    // First buy 1.5 BTC with the vectors' signing key.
    const buy = await signOrder({
      signingPrivateKey: vectors.keys.signingKey.privateKey,
      subaccountId: btcOrder.subaccountId,
      body: {
        ...btcOrder.body,
        isBuy: true,
        orderType: 'MARKET',
        price: '0',
        isReduce: false,
      } as never,
      domain: DEFAULT_SIGNING_DOMAIN,
    });
    const bought = await post(harness, '/api/v1/order', JSON.stringify(buy.body), {
      ...btcOrder.headers,
      'Service-Signature': buy.signature,
      'Service-Key': pair['service_key'] ?? '',
      'Service-Secret': pair['service_secret'] ?? '',
    });
    expect(bought.json.body).toMatchObject({
      status: 'FILLED',
      totalFilledx18: '1500000000000000000',
    });
    // 65000.5 is above the best bid of the book around 65000: the sell rests for its full size.
    const answer = await sendVectorOrder(btcOrder, pair);
    expect(answer.status).toBe(200);
    expect(answer.json.body).toMatchObject({ status: 'OPEN', totalFilledx18: '0' });
  });
});
