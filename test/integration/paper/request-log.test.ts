/**
 * The paper venue's request log (issue 15): what the rate tests measure the achieved rate on.
 * Every request is logged with the venue's clock, its path and whether the limit refused it.
 */
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';

const venues: PaperVenue[] = [];
afterEach(async () => {
  for (const venue of venues.splice(0)) await venue.close();
});

it('logs every request with its arrival time and whether the rate limit refused it', async () => {
  let now = 1_000;
  const venue = await startPaperVenue({ rateLimit: 2, logRequests: true, clock: () => now });
  venues.push(venue);
  const statuses: number[] = [];
  for (const path of ['/api/v1/market', '/api/v1/quotes?x=1', '/api/v1/market']) {
    now += 10;
    statuses.push((await fetch(`${venue.url}${path}`)).status);
  }
  now += 1000; // the window moved on: admitted again
  statuses.push((await fetch(`${venue.url}/nowhere`)).status);
  expect(statuses).toEqual([200, 200, 429, 404]);
  expect(venue.requestLog()).toEqual([
    { at: 1010, path: '/api/v1/market', limited: false },
    { at: 1020, path: '/api/v1/quotes', limited: false },
    { at: 1030, path: '/api/v1/market', limited: true },
    { at: 2030, path: '/nowhere', limited: false },
  ]);
});

it('keeps no log unless asked (it grows with the run)', async () => {
  const venue = await startPaperVenue({ rateLimit: 1 });
  venues.push(venue);
  await fetch(`${venue.url}/api/v1/market`);
  await fetch(`${venue.url}/api/v1/market`);
  expect(venue.requestCount()).toBe(2);
  expect(venue.requestLog()).toEqual([]);
});
