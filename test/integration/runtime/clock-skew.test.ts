/**
 * Issue 25, "the wall clock is trusted blindly": with the host's clock 10 minutes behind the
 * venue's, 47 of 47 orders reached the venue already expired (`timestamp expired`), and nothing
 * said why; with it ahead, orders would rest on the book longer than asked. A paper venue on an
 * offset clock (its engine and its answers' `Date` header both read it) and a bot on the host's
 * clock: every order is refused before signing (`CLOCK_SKEW`, counted), none reaches the venue,
 * and the reason is logged once, not per order. A clock 5 days ahead is refused the same way,
 * so its expiries never reach the journal (one such run poisoned every later run's expiries).
 */
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue } from '../../../src/paper/index.ts';
import {
  captureLogs,
  metricSample,
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
  // ahead of the venue's would be refused at registration, before any order. The control
  // server serves /metrics.
  await patchBotConfig(path, (document) => {
    section(document, 'venue').credentialTtlMs = 36 * 3_600_000;
    Object.assign(section(document, 'control'), { host: '127.0.0.1', port: 0 });
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

/** `quanta_refusals_total` for the burst strategy and `reason`, as /metrics exports it. */
function refusalsMetric(running: RunningBot, reason: string): Promise<number | undefined> {
  return metricSample(running.bot, `quanta_refusals_total{strategy="burst",reason="${reason}"}`);
}

it('a host clock 10 minutes behind the venue: all 47 orders refused, not sent to expire', async () => {
  const { venue, running, logs } = await burstAgainst(600_000, 47);
  // Before: 47 orders answered 400 `timestamp expired` (REJECTED).
  expect(outcomes(running)).toEqual({ refused: 47, answered: [] });
  expect(venue.requestCount('/api/v1/order')).toBe(0);
  const said = logs.withMessage('venue clock: orders refused');
  expect(said).toHaveLength(1);
  expect(said[0]?.msg).toMatch(
    /^venue clock: orders refused: this host's clock is (59\d\.\d|600\.0)–60\d\.\d s behind the venue's \(more than the 5000 ms allowed\): orders would reach the venue with that much less than their validity, or already expired; fix its time \(NTP\)$/,
  );
  // Counted per reason in the metrics, not logged per order.
  expect(await refusalsMetric(running, 'CLOCK_SKEW')).toBe(47);
  // The state and the skew, for an operator before any order is refused: metrics and /status.
  expect(await metricSample(running.bot, 'quanta_clock_state{state="behind"}')).toBe(1);
  expect(await metricSample(running.bot, 'quanta_clock_state{state="ok"}')).toBe(0);
  const low = await metricSample(running.bot, 'quanta_clock_skew_seconds{bound="low"}');
  const high = await metricSample(running.bot, 'quanta_clock_skew_seconds{bound="high"}');
  // The range holds the true 600 s (to the ms the two clocks' readings allow), and is narrow.
  expect(low).toBeGreaterThan(590);
  expect(low).toBeLessThanOrEqual(600.01);
  expect(high).toBeGreaterThanOrEqual(599.99);
  expect(high).toBeLessThan(610);
  expect(running.bot.status().clock).toMatchObject({
    state: 'behind',
    detail: expect.stringMatching(
      /^this host's clock is (59\d\.\d|600\.0)–60\d\.\d s behind the venue's/,
    ) as unknown,
    wallSteps: 0,
  });
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

it('a host clock 5 days ahead: orders refused, so no expiry 5 days out reaches the journal', async () => {
  const { venue, running, logs } = await burstAgainst(-5 * 86_400_000, 5);
  // Before: 5 orders signed (and journaled) with expiries 5 days past the venue's time; the
  // journal's largest expiry then set the floor of every later run's expiries (the floor is
  // now also capped at now + orderTtlMs on recovery: restart.test.ts).
  expect(outcomes(running)).toEqual({ refused: 5, answered: [] });
  expect(running.bot.journal.all()).toEqual([]);
  expect(venue.requestCount('/api/v1/order')).toBe(0);
  expect(await refusalsMetric(running, 'CLOCK_SKEW')).toBe(5);
  const said = logs.withMessage('venue clock: orders refused');
  expect(said.map((r) => r.clockState)).toEqual(['ahead']);
  expect(said[0]?.msg).toMatch(
    /this host's clock is 43\d{4}\.\d–43\d{4}\.\d s ahead of the venue's/,
  );
});
