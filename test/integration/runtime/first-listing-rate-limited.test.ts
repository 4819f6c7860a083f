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
  expect(waits).toEqual([1000]);
});
