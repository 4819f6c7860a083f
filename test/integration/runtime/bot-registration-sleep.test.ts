/**
 * A bot given its time (clock and sleep) waits out a 429 at start on that time, not on a real
 * timer: `quanta run`'s start-up built its credential manager and its first listing without
 * the bot's sleep, so a test's virtual time did not reach the Retry-After waits, and a venue
 * whose clock only the test moves never freed its window.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { startBotWithParts, type BotWithParts } from '../../../src/runtime/bot.ts';
import type { BotOptions } from '../../../src/runtime/bot-options.ts';
import { listMarkets } from '../../../src/venue/endpoints/index.ts';
import { T0, WALLET_KEY } from '../account/helpers.ts';
import { holdBotOptions } from './harness.ts';

let venue: PaperVenue | undefined;
let bot: BotWithParts | undefined;
let dir: string | undefined;
afterEach(async () => {
  await bot?.shutdown();
  await venue?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** A bot on `venueUrl` whose clock is `clock` and whose sleep records each wait and moves it. */
function botOptions(
  venueUrl: string,
  dir: string,
  clock: { now: number },
  waits: number[],
): BotOptions {
  return {
    ...holdBotOptions(venueUrl, dir, WALLET_KEY),
    now: () => clock.now,
    monotonic: () => clock.now,
    sleep: (ms) => {
      waits.push(ms);
      clock.now += ms;
      return Promise.resolve();
    },
  };
}

it("waits out the registration's Retry-After with the bot's sleep, and registers", async () => {
  const clock = { now: T0 };
  // One request a second for everyone, on the test's clock: the bot's first listing takes it,
  // so its registration right after is answered 429 until the clock moves.
  venue = await startPaperVenue({ port: 0, seed: 5, clock: () => clock.now, rateLimit: 1 });
  dir = mkdtempSync(join(tmpdir(), 'quanta-registration-sleep-'));
  const waits: number[] = [];
  bot = await startBotWithParts(botOptions(venue.url, dir, clock, waits));
  expect(venue.requestCount('/api/v1/auth')).toBe(2);
  expect(waits).toContain(1000);
});

it("waits out the first listing's Retry-After with the bot's sleep too", async () => {
  const clock = { now: T0 };
  venue = await startPaperVenue({ port: 0, seed: 5, clock: () => clock.now, rateLimit: 1 });
  dir = mkdtempSync(join(tmpdir(), 'quanta-listing-sleep-'));
  // Another client took this second's request: the bot's first listing is answered 429.
  await listMarkets({ baseUrl: venue.url, timeoutMs: 5000 });
  const waits: number[] = [];
  bot = await startBotWithParts(botOptions(venue.url, dir, clock, waits));
  // The refused listing and the one after the wait; then the registration as above.
  expect(venue.requestCount('/api/v1/market')).toBe(3);
  expect(venue.requestCount('/api/v1/auth')).toBe(2);
  expect(waits.filter((ms) => ms === 1000)).toHaveLength(2);
});
