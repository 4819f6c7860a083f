/**
 * The market listing's memo (venue/endpoints/list-markets.ts, venue/http/request.ts
 * `venueRequestDecoded`): an answer whose text is exactly the last decoded listing's gives the
 * same markets without parsing again; any other answer is judged as without a memo, so a bad
 * answer after a good one is refused exactly as it would be on its own.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuantaError } from '../../../src/errors/index.ts';
import {
  listMarkets,
  newMarketListMemo,
  type VenueConnection,
} from '../../../src/venue/endpoints/index.ts';
import { httpVenueReads } from '../../../src/venue/http-venue-client.ts';
import { sendText, startStubServer, type StubServer } from '../../helpers/stub-server.ts';

const LISTING = readFileSync(new URL('../../fixtures/markets.json', import.meta.url), 'utf8');
const JSON_TYPE = 'application/json';

let stub: StubServer;
/** What the stub answers next: status, text and content type. */
let next: { status: number; text: string; type?: string | undefined } = {
  status: 200,
  text: LISTING,
};

beforeAll(async () => {
  stub = await startStubServer({
    'GET /api/v1/market': (_req, res) => sendText(res, next.status, next.text, next.type),
  });
});

afterAll(async () => {
  await stub.close();
});

function connection(): VenueConnection {
  return { baseUrl: stub.url, timeoutMs: 5000 };
}

/** What listing `text` with `status` gives without a memo: the markets, or the error. */
async function outcome(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (markets) => ({ markets }),
    (error: unknown) =>
      error instanceof QuantaError
        ? { code: error.code, message: error.message, details: error.details }
        : error,
  );
}

function answer(status: number, text: string, type: string | undefined = JSON_TYPE): void {
  next = { status, text, type };
}

describe('listMarkets with a memo', () => {
  it('the same text again: the same frozen markets, in a new array, equal to a fresh parse', async () => {
    const memo = newMarketListMemo();
    answer(200, LISTING);
    const first = await listMarkets(connection(), { memo });
    const second = await listMarkets(connection(), { memo });
    const fresh = await listMarkets(connection());
    expect(second).not.toBe(first);
    expect(second).toEqual(fresh);
    expect(second.length).toBeGreaterThan(1);
    second.forEach((market, i) => {
      expect(market).toBe(first[i]);
      expect(Object.isFrozen(market)).toBe(true);
    });
    // A caller that reorders its array does not reorder the memo's.
    first.reverse();
    expect((await listMarkets(connection(), { memo })).map((m) => m.id)).toEqual(
      fresh.map((m) => m.id),
    );
  });

  it('a changed text is parsed: the change shows', async () => {
    const memo = newMarketListMemo();
    answer(200, LISTING);
    const before = await listMarkets(connection(), { memo });
    answer(200, LISTING.replace('"IsActive": true', '"IsActive": false'));
    const after = await listMarkets(connection(), { memo });
    expect(after[0]?.isActive).toBe(false);
    expect(before[0]?.isActive).toBe(true);
    expect(after[0]).not.toBe(before[0]);
  });

  it('after a good listing, every bad answer is refused exactly as without a memo', async () => {
    const envelope = JSON.parse(LISTING) as { body: { markets: Record<string, unknown>[] } };
    const badRow = JSON.stringify({
      ...envelope,
      body: { markets: [{ ...envelope.body.markets[0], MinAmountx18: '-5' }] },
    });
    const cases: [status: number, text: string, type?: string][] = [
      [500, LISTING],
      [503, LISTING],
      [404, LISTING],
      [302, LISTING],
      [429, LISTING],
      [200, LISTING.slice(0, LISTING.length - 7)],
      [200, LISTING.slice(0, 40)],
      [200, ''],
      [200, '<html><title>502 Bad Gateway</title></html>', 'text/html'],
      [200, 'garbage'],
      [200, badRow],
      [200, JSON.stringify({ ...envelope, status: 500 })],
      [200, JSON.stringify({ body: { markets: 'none' }, message: 'ok', status: 200 })],
    ];
    for (const [status, text, type] of cases) {
      const memo = newMarketListMemo();
      answer(200, LISTING);
      await listMarkets(connection(), { memo });
      answer(status, text, type ?? JSON_TYPE);
      const withMemo = await outcome(listMarkets(connection(), { memo }));
      const without = await outcome(listMarkets(connection()));
      expect(withMemo, `${status} ${text.slice(0, 30)}`).toEqual(without);
      expect(withMemo, `${status} ${text.slice(0, 30)}`).not.toHaveProperty('markets');
    }
  });

  it('a refused listing leaves the memo as it was: the good text again gives its markets', async () => {
    const memo = newMarketListMemo();
    answer(200, LISTING);
    const first = await listMarkets(connection(), { memo });
    answer(200, LISTING.replace('"MinAmountx18": "100000000000000"', '"MinAmountx18": "-1"'));
    await expect(listMarkets(connection(), { memo })).rejects.toThrow(/MinAmountx18/);
    answer(200, LISTING);
    expect((await listMarkets(connection(), { memo }))[0]).toBe(first[0]);
  });

  it('the HTTP client keeps one memo per client: its reads reuse the last listing', async () => {
    answer(200, LISTING);
    const reads = httpVenueReads(connection());
    const signal = new AbortController().signal;
    const first = await reads.listMarkets(signal);
    const second = await reads.listMarkets(signal);
    expect(second[0]).toBe(first[0]);
    const other = await httpVenueReads(connection()).listMarkets(signal);
    expect(other[0]).not.toBe(first[0]);
    expect(other).toEqual(first);
  });
});
