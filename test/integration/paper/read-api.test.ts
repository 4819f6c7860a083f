/**
 * docs/conventions.md §5 and §6: market listing with the type selector and the spec's exact field
 * names, quotes, and order lookup.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Answer,
  DAY_MS,
  FIXTURE_ROWS,
  type Harness,
  NOW,
  OTHER_KEY_B,
  placeOrder,
  register,
  startHarness,
} from './harness.ts';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

function expectError(answer: Answer, status: number, message: string): void {
  expect(answer.json).toStrictEqual({ body: null, message, status });
  expect(answer.status).toBe(status);
}

/** Spec §2.6, in its order. */
const MARKET_FIELDS = [
  'id',
  'created_at',
  'updated_at',
  'deleted_at',
  'Symbol',
  'Type',
  'AmtToQtmConversionExpo',
  'PriceToQtmConversionExpo',
  'MaxPositionValuex18',
  'MinAmountx18',
  'BaseAsset',
  'QuoteAsset',
  'IsActive',
  'MakerFeeFractionx18',
  'TakerFeeFractionx18',
  'InitialMarginFractionx18',
  'MaintenanceMarginFractionx18',
];

type Row = Record<string, unknown>;

async function markets(query = ''): Promise<{ answer: Answer; rows: Row[] }> {
  const answer = await harness.send(`/api/v1/market${query}`);
  return { answer, rows: (answer.json.body as { markets: Row[] }).markets };
}

describe('GET /api/v1/market (§5)', () => {
  it('lists every market, inactive ones with IsActive false, exactly as the fixture rows', async () => {
    harness = await startHarness();
    const { answer, rows } = await markets();
    expect(answer.status).toBe(200);
    expect(answer.json.message).toBe('Markets fetched successfully');
    expect(Object.keys(answer.json.body as object)).toEqual(['markets']);
    expect(rows).toStrictEqual(FIXTURE_ROWS);
    expect(rows.find((row) => row['id'] === 11)?.['IsActive']).toBe(false);
  });

  it('uses the spec field names exactly, in the spec order, on every row', async () => {
    harness = await startHarness();
    const { rows } = await markets();
    expect(rows.length).toBe(8);
    for (const row of rows) expect(Object.keys(row)).toEqual(MARKET_FIELDS);
  });

  it('serves the docs/conventions.md §7 markets by default', async () => {
    harness = await startHarness({}, { venueDefaults: true });
    const { rows } = await markets();
    expect(rows.map((row) => [row['id'], row['Symbol'], row['Type']])).toEqual([
      [1, 'ETH-USD', 'PERPETUAL'],
      [3, 'BTC-USD', 'PERPETUAL'],
      [5, 'SOL-USD', 'PERPETUAL'],
      [103, 'TSLA-USD', 'PERPETUAL'],
      [2, 'ETH-USDC', 'SPOT'],
    ]);
    expect(rows).toStrictEqual(FIXTURE_ROWS.slice(0, 5));
  });

  it('selects by ?type=PERPETUAL|SPOT', async () => {
    harness = await startHarness();
    const perpetual = await markets('?type=PERPETUAL');
    expect(perpetual.rows.map((row) => row['id'])).toEqual([1, 3, 5, 103, 7, 9, 11]);
    const spot = await markets('?type=SPOT');
    expect(spot.rows.map((row) => row['id'])).toEqual([2]);
    // Other query parameters are not selectors.
    expect((await markets('?page=2')).rows.length).toBe(8);
  });

  it('answers any other type 400', async () => {
    harness = await startHarness();
    for (const query of ['?type=perpetual', '?type=', '?type=FUTURES', '?type=SPOT%20']) {
      expectError(
        await harness.send(`/api/v1/market${query}`),
        400,
        'type: expected PERPETUAL or SPOT',
      );
    }
    expectError(
      await harness.send('/api/v1/market?type=SPOT&type=PERPETUAL'),
      400,
      'type: expected PERPETUAL or SPOT once, got it twice',
    );
  });

  it('shows a market turned inactive', async () => {
    harness = await startHarness();
    harness.venue.engine.setMarketActive(3, false);
    const { rows } = await markets();
    expect(rows.find((row) => row['id'] === 3)?.['IsActive']).toBe(false);
  });

  it('shows a change between two listings, in the text JSON.stringify writes', async () => {
    harness = await startHarness();
    const before = await markets('?type=PERPETUAL');
    expect(before.rows.find((row) => row['id'] === 3)?.['IsActive']).toBe(true);
    harness.venue.engine.setMarketActive(3, false);
    const after = await markets('?type=PERPETUAL');
    expect(after.rows.find((row) => row['id'] === 3)?.['IsActive']).toBe(false);
    // The rows are written once and kept: the answer is still the envelope's JSON.stringify.
    for (const { answer, rows } of [before, after]) {
      const envelope = { body: { markets: rows }, message: answer.json.message, status: 200 };
      expect(answer.text).toBe(JSON.stringify(envelope));
    }
  });
});

interface WireQuote {
  marketId: number;
  timestamp: number;
  bids: { price: string; quantity: string }[];
  asks: { price: string; quantity: string }[];
}

const DECIMAL = /^\d+(?:\.\d{1,18})?$/;

function scaled(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(18, '0'));
}

describe('GET /api/v1/quotes (§6)', () => {
  it('gives each active market its book: decimal strings, best first, depth 10, the venue clock', async () => {
    harness = await startHarness();
    const answer = await harness.send('/api/v1/quotes');
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json.body as object)).toEqual(['quotes']);
    const quotes = (answer.json.body as { quotes: WireQuote[] }).quotes;
    expect(quotes.map((quote) => quote.marketId)).toEqual([1, 3, 5, 103, 2, 7, 9]);
    for (const quote of quotes) {
      expect(Object.keys(quote)).toEqual(['marketId', 'timestamp', 'bids', 'asks']);
      expect(quote.timestamp).toBe(NOW);
      expect(quote.bids.length).toBeGreaterThan(0);
      expect(quote.bids.length).toBeLessThanOrEqual(10);
      expect(quote.asks.length).toBeLessThanOrEqual(10);
      for (const level of [...quote.bids, ...quote.asks]) {
        expect(Object.keys(level)).toEqual(['price', 'quantity']);
        expect(level.price).toMatch(DECIMAL);
        expect(level.quantity).toMatch(DECIMAL);
      }
      const bids = quote.bids.map((level) => scaled(level.price));
      const asks = quote.asks.map((level) => scaled(level.price));
      for (let i = 1; i < bids.length; i += 1) expect(bids[i]).toBeLessThan(bids[i - 1] ?? 0n);
      for (let i = 1; i < asks.length; i += 1) expect(asks[i]).toBeGreaterThan(asks[i - 1] ?? 0n);
      expect(bids[0]).toBeLessThan(asks[0] ?? 0n);
    }
    const eth = quotes[0];
    expect(eth?.bids[0]?.price).toBe('2998.5');
    expect(eth?.asks[0]?.price).toBe('3001.5');
  });

  it('selects one market by ?marketId=, none for an inactive or unknown one', async () => {
    harness = await startHarness();
    const one = await harness.send('/api/v1/quotes?marketId=3');
    const quotes = (one.json.body as { quotes: WireQuote[] }).quotes;
    expect(quotes.map((quote) => quote.marketId)).toEqual([3]);
    for (const id of ['11', '999']) {
      const none = await harness.send(`/api/v1/quotes?marketId=${id}`);
      expect(none.status).toBe(200);
      expect(none.json.body).toStrictEqual({ quotes: [] });
    }
  });

  it('answers a malformed marketId 400', async () => {
    harness = await startHarness();
    for (const id of ['abc', '-1', '1.5', '', '01']) {
      expectError(
        await harness.send(`/api/v1/quotes?marketId=${id}`),
        400,
        'marketId: expected a non-negative integer',
      );
    }
    expectError(
      await harness.send('/api/v1/quotes?marketId=1&marketId=3'),
      400,
      'marketId: expected at most one, got it twice',
    );
  });

  it('follows the clock: the timestamp and the walk move with it', async () => {
    harness = await startHarness({ volatilityBps: 50 });
    const first = await harness.send('/api/v1/quotes?marketId=1');
    harness.clock.now = NOW + 30_000;
    const later = await harness.send('/api/v1/quotes?marketId=1');
    const [a] = (first.json.body as { quotes: WireQuote[] }).quotes;
    const [b] = (later.json.body as { quotes: WireQuote[] }).quotes;
    expect(b?.timestamp).toBe(NOW + 30_000);
    expect(b?.bids[0]?.price).not.toBe(a?.bids[0]?.price);
  });
});

/** Five seconds on, the market falls to 2900: a resting buy at 2950 fills at its own price. */
function fallThroughTheLimit(): void {
  harness.clock.now = NOW + 5_000;
  harness.venue.engine.setExternalQuotes([
    {
      marketId: 1,
      timestamp: NOW + 5_000,
      bids: [{ price: '2899', quantity: '10' }],
      asks: [{ price: '2900', quantity: '10' }],
    },
  ]);
}

describe('GET /api/v1/order/{id} (§6)', () => {
  it("answers the owner's order as it is now, later fills included, with credentials and no signature", async () => {
    harness = await startHarness();
    const session = await register(harness);
    const placed = await placeOrder(harness, session, {
      orderType: 'LIMIT',
      price: '2950',
      expiryTs: NOW + DAY_MS,
    });
    const created = placed.answer.json.body as Record<string, unknown>;
    expect(created['status']).toBe('OPEN');

    const open = await harness.send('/api/v1/order/1', { headers: session.headers });
    expect(open.status).toBe(200);
    expect(open.json.message).toBe('Order fetched successfully');
    expect(open.json.body).toStrictEqual(created);

    // The market falls through the limit: the resting buy fills at its own price.
    fallThroughTheLimit();
    const filled = await harness.send('/api/v1/order/1', { headers: session.headers });
    expect(filled.json.body).toStrictEqual({
      ...created,
      status: 'FILLED',
      totalFilledx18: '100000000000000000',
      avgFillPricex18: '2950000000000000000000',
      updatedAt: new Date(NOW + 5_000).toISOString(),
    });
  });

  it('answers 404 for an unknown id and for another subaccount’s order', async () => {
    harness = await startHarness();
    const owner = await register(harness);
    const stranger = await register(harness, { walletKey: OTHER_KEY_B });
    expect((await placeOrder(harness, owner)).answer.status).toBe(200);
    expect((await harness.send('/api/v1/order/1', { headers: owner.headers })).status).toBe(200);
    expectError(
      await harness.send('/api/v1/order/1', { headers: stranger.headers }),
      404,
      'order 1 not found',
    );
    expectError(
      await harness.send('/api/v1/order/2', { headers: owner.headers }),
      404,
      'order 2 not found',
    );
  });

  it('shares orders between the credential pairs of one subaccount', async () => {
    harness = await startHarness();
    const first = await register(harness);
    expect((await placeOrder(harness, first)).answer.status).toBe(200);
    const relogin = await register(harness, { nonce: 1, expiryTs: NOW + 2 * DAY_MS });
    expect((await harness.send('/api/v1/order/1', { headers: relogin.headers })).status).toBe(200);
  });

  it('needs the credential headers (401/403) and a positive integer id (400)', async () => {
    harness = await startHarness();
    const session = await register(harness);
    expectError(
      await harness.send('/api/v1/order/1'),
      401,
      'missing credentials: Broker-Id, Service-Key, Service-Secret, Service-Signer-Address header required',
    );
    expectError(
      await harness.send('/api/v1/order/1', { headers: { ...session.headers, 'Broker-Id': '3' } }),
      403,
      'Broker-Id does not match the broker the credentials were issued to',
    );
    for (const id of ['0', 'abc', '-1', '1.5', '01', '99999999999999999999']) {
      expectError(
        await harness.send(`/api/v1/order/${id}`, { headers: session.headers }),
        400,
        'order id: expected a positive integer',
      );
    }
  });
});

describe('GET /api/v1/order?signature= (§6)', () => {
  it("answers the order an accepted signature created, as it is now; 404 for others' and unknown ones", async () => {
    harness = await startHarness();
    const owner = await register(harness);
    const stranger = await register(harness, { walletKey: OTHER_KEY_B });
    const placed = await placeOrder(harness, owner, {
      orderType: 'LIMIT',
      price: '2950',
      expiryTs: NOW + DAY_MS,
    });
    expect(placed.answer.status).toBe(200);
    const created = placed.answer.json.body as Record<string, unknown>;
    const bySignature = (signature: string, headers: Record<string, string>) =>
      harness.send(`/api/v1/order?signature=${signature}`, { headers });

    const found = await bySignature(placed.signature, owner.headers);
    expect(found.status).toBe(200);
    expect(found.json.message).toBe('Order fetched successfully');
    expect(found.json.body).toStrictEqual(created);
    // Any hex letter case names the same signature.
    expect(
      (await bySignature(placed.signature.toUpperCase().replace('0X', '0x'), owner.headers)).json
        .body,
    ).toStrictEqual(created);

    // A later fill shows, as through the id.
    fallThroughTheLimit();
    expect((await bySignature(placed.signature, owner.headers)).json.body).toMatchObject({
      id: created['id'],
      status: 'FILLED',
    });

    const unknown = `0x${'ab'.repeat(65)}`;
    for (const [signature, headers] of [
      [placed.signature, stranger.headers],
      [unknown, owner.headers],
    ] as const)
      expectError(
        await bySignature(signature, headers),
        404,
        'no order was created with this signature',
      );
  });

  it('needs the credential headers (401) and a well-formed signature (400)', async () => {
    harness = await startHarness();
    const session = await register(harness);
    expect((await harness.send(`/api/v1/order?signature=0x${'ab'.repeat(65)}`)).status).toBe(401);
    for (const query of ['', '?signature=', '?signature=0x12', `?signature=${'ab'.repeat(66)}`])
      expectError(
        await harness.send(`/api/v1/order${query}`, { headers: session.headers }),
        400,
        'signature: expected 0x and 130 hex digits',
      );
  });
});
