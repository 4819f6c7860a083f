/**
 * Issue 25, "the wall clock is trusted blindly": with the host's clock 10 minutes behind the
 * venue's, 47 of 47 orders reached the venue already expired (`timestamp expired`), and nothing
 * said why; with it ahead, orders would rest on the book longer than asked. A paper venue on an
 * offset clock (its engine and its answers' `Date` header both read it) and a bot on the host's
 * clock: every order is refused before signing (`CLOCK_SKEW`, counted), none reaches the venue,
 * and the reason is logged once, not per order.
 */
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue } from '../../../src/paper/index.ts';
import {
  captureLogs,
  runBot,
  strategyModule,
  tempDir,
  waitFor,
  writeBotConfig,
  type RunningBot,
} from './harness.ts';
import { patchBotConfig, section } from './config-patch.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

/** What became of the burst: refused for the clock, or journaled and answered. */
function outcomes(running: RunningBot): { refused: number; answered: string[] } {
  const rows = running.bot.journal.all();
  return {
    refused: running.bot.executor.stats().refusals.CLOCK_SKEW ?? 0,
    answered: rows.filter((r) => r.state !== 'PENDING' && r.state !== 'SENT').map((r) => r.state),
  };
}

async function burstAgainst(venueAheadMs: number, count: number) {
  const venue = await startPaperVenue({ port: 0, clock: () => Date.now() + venueAheadMs });
  cleanups.push(() => venue.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const path = await writeBotConfig(dir, {
    writeUrl: venue.url,
    strategies: [
      {
        module: strategyModule('fixtures/burst'),
        markets: ['ETH-USD'],
        params: { count, firstAmount: '0.001', step: '0.000001', fromSeq: 3 },
      },
    ],
  });
  // A signing key asked for the venue's longest validity (7 days, the default) from a clock
  // ahead of the venue's would be refused at registration, before any order.
  await patchBotConfig(path, (document) => {
    section(document, 'venue').credentialTtlMs = 2 * 86_400_000;
  });
  const logs = captureLogs();
  const running = await runBot(path, logs.log);
  cleanups.push(() => running.stop());
  await waitFor(`${count} intents refused or answered`, () => {
    const { refused, answered } = outcomes(running);
    return refused + answered.length === count;
  });
  return { venue, running, logs };
}

it('a host clock 10 minutes behind the venue: all 47 orders refused, not sent to expire', async () => {
  const { venue, running, logs } = await burstAgainst(600_000, 47);
  // Before: 47 orders answered 400 `timestamp expired` (REJECTED).
  expect(outcomes(running)).toEqual({ refused: 47, answered: [] });
  expect(venue.requestCount('/api/v1/order')).toBe(0);
  const said = logs.withMessage('venue clock: orders refused');
  expect(said).toHaveLength(1);
  expect(said[0]?.msg).toMatch(
    /^venue clock: orders refused: this host's clock is 59\d\.\d–60\d\.\d s behind the venue's \(more than the 5000 ms allowed\): orders would reach the venue with that much less than their validity, or already expired; fix its time \(NTP\)$/,
  );
  // Counted per reason (what quanta_refusals_total exports), not logged per order.
  expect(logs.withMessage('intent refused')).toEqual([]);
});

it('a host clock an hour ahead of the venue: orders refused, not left to outlive their validity', async () => {
  const { venue, running, logs } = await burstAgainst(-3_600_000, 5);
  // Before: 5 orders placed with an hour more than their 60 s validity.
  expect(outcomes(running)).toEqual({ refused: 5, answered: [] });
  expect(venue.requestCount('/api/v1/order')).toBe(0);
  expect(logs.withMessage('venue clock: orders refused').map((r) => r.clockState)).toEqual([
    'ahead',
  ]);
});
