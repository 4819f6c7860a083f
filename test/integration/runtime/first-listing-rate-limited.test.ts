/**
 * The first listing takes no permit of the rate budget (the budget opens after it). A bot started
 * beside others that use the account's whole budget met a 429 there and spent its three quick
 * retries inside the same rate window. Now each 429 waits the venue's `Retry-After` (on the
 * injected clock here) before the next try.
 */
import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log/logger.ts';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { firstListing } from '../../../src/runtime/first-listing.ts';
import { listMarkets, type VenueConnection } from '../../../src/venue/endpoints/index.ts';
import { sendJson, sendText, startStubServer } from '../../helpers/stub-server.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

it('a first listing answered 429 waits out Retry-After and gets the markets', async () => {
  const clock = { now: Date.parse('2026-03-02T12:00:00Z') };
  // One request per second for the whole venue, and another bot's request already took it.
  const venue = await startPaperVenue({ port: 0, seed: 7, clock: () => clock.now, rateLimit: 1 });
  cleanups.push(() => venue.close());
  const read: VenueConnection = { baseUrl: venue.url, timeoutMs: 5000 };
  await listMarkets(read);

  const waits: number[] = [];
  const reads = { listMarkets: (signal: AbortSignal) => listMarkets(read, { signal }) };
  const markets = await firstListing(reads, silentLogger, {
    timeoutMs: read.timeoutMs,
    sleep: (ms) => {
      waits.push(ms);
      clock.now += ms;
      return Promise.resolve();
    },
  });
  expect(markets.length).toBeGreaterThan(0);
  // Retry-After, then the backoff before the second attempt: both on the injected sleep.
  expect(waits).toEqual([1000, 250]);
});

it("the backoff between attempts and each attempt's timeout run on the injected timers", async () => {
  // Issue 31: a simulated bot runs on virtual time; p-retry's own delays were real timers.
  const venue = await startPaperVenue({ port: 0, seed: 7 });
  cleanups.push(() => venue.close());
  const markets = await (await fetch(`${venue.url}/api/v1/market`)).text();
  let answered = 0;
  const stub = await startStubServer({
    'GET /api/v1/market': (_req, res) => {
      answered += 1;
      if (answered <= 2) sendJson(res, 503, { body: null, message: 'unavailable', status: 503 });
      else sendText(res, 200, markets, 'application/json');
    },
  });
  cleanups.push(() => stub.close());
  const read: VenueConnection = { baseUrl: stub.url, timeoutMs: 5000 };
  const waits: number[] = [];
  const timeouts: number[] = [];
  const listed = await firstListing(
    { listMarkets: (signal: AbortSignal) => listMarkets(read, { signal }) },
    silentLogger,
    {
      timeoutMs: read.timeoutMs,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
      timeoutSignal: (ms) => {
        timeouts.push(ms);
        return new AbortController().signal;
      },
    },
  );
  expect(listed.length).toBeGreaterThan(0);
  expect(stub.requests).toHaveLength(3);
  expect(waits).toEqual([250, 500]);
  expect(timeouts).toEqual([5000, 5000, 5000]);
});
