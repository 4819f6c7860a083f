/**
 * Registration used to take no permit of the rate budget (it ran before the budget opened), so
 * a bot started beside others that use the account's whole budget met a 429 on
 * POST /api/v1/auth. It used to exit there ("venue rate-limited POST /api/v1/auth"): found by
 * the three-bot shared budget test. It waits out `Retry-After` (on the injected clock here) and
 * registers; and given the account's budget, it waits for a permit and meets no 429 at all
 * (the three-bot test still saw one 429 at start-up while registration took none).
 */
import { afterEach, expect, it } from 'vitest';
import { CredentialManager } from '../../../src/account/credential-manager.ts';
import { ErrorCodes } from '../../../src/errors/index.ts';
import { LocalRateBudget } from '../../../src/execution/rate-budget/local-rate-budget.ts';
import type { PaperVenue } from '../../../src/paper/index.ts';
import { listMarkets, type VenueConnection } from '../../../src/venue/endpoints/index.ts';
import { settle } from '../../helpers/manual-timer.ts';
import { startAccountHarness } from './helpers.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

async function saturatedVenue(): Promise<{
  clock: { now: number };
  venue: PaperVenue;
  connection: VenueConnection;
  manager: (
    sleep: (ms: number) => Promise<void>,
    takePermit?: (signal: AbortSignal) => Promise<{ release(sent?: boolean): void }>,
  ) => CredentialManager;
}> {
  // One request per second for the whole venue, and another bot's request already took it.
  const harness = await startAccountHarness({ rateLimit: 1 });
  cleanups.push(() => harness.close());
  await listMarkets(harness.connection);
  return {
    clock: harness.clock,
    venue: harness.venue,
    connection: harness.connection,
    manager: (sleep, takePermit) =>
      harness.manager(undefined, { sleep, ...(takePermit === undefined ? {} : { takePermit }) }),
  };
}

it('a registration answered 429 waits out Retry-After and registers once', async () => {
  const { clock, venue, manager } = await saturatedVenue();
  const waits: number[] = [];
  const credentials = manager((ms) => {
    waits.push(ms);
    clock.now += ms;
    return Promise.resolve();
  });
  const { registered } = await credentials.ensure();
  expect(registered).toBe(true);
  expect(waits).toEqual([1000]);
  // The refused request and the one that registered; no second registration.
  expect(venue.requestCount('/api/v1/auth')).toBe(2);
});

it('a venue that keeps answering 429 fails the registration after five waits, naming it', async () => {
  const { venue, manager } = await saturatedVenue();
  const waits: number[] = [];
  // The clock never moves: the venue's window never frees.
  const credentials = manager((ms) => {
    waits.push(ms);
    return Promise.resolve();
  });
  await expect(credentials.ensure()).rejects.toMatchObject({
    code: ErrorCodes.VENUE_RATE_LIMITED,
  });
  expect(waits).toHaveLength(5);
  expect(venue.requestCount('/api/v1/auth')).toBe(6);
});

it("given the account's rate budget, a registration waits for a permit and meets no 429", async () => {
  const { clock, venue, manager } = await saturatedVenue();
  // The budget knows of the other bot's request (R = 1, held until perMs + guard after it).
  const sleepers: { at: number; wake: () => void }[] = [];
  const budget = new LocalRateBudget({
    requests: 1,
    perMs: 1000,
    now: () => clock.now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        sleepers.push({ at: clock.now + ms, wake: resolve });
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      }),
  });
  (await budget.take('order', new AbortController().signal)).release();
  const waits: number[] = [];
  let asked!: () => void;
  const permitAsked = new Promise<void>((resolve) => (asked = resolve));
  const credentials = manager(
    (ms) => {
      waits.push(ms);
      clock.now += ms;
      return Promise.resolve();
    },
    (signal) => {
      asked();
      return budget.take('order', signal);
    },
  );
  const ensured = credentials.ensure();
  // Asked for its permit (or, taking none, already through): nothing sent while none is free.
  await Promise.race([permitAsked, ensured]);
  await settle();
  expect(venue.requestCount('/api/v1/auth')).toBe(0);
  clock.now += 1002;
  for (const sleeper of sleepers.splice(0)) if (sleeper.at <= clock.now) sleeper.wake();
  const { registered } = await ensured;
  expect(registered).toBe(true);
  expect(waits).toEqual([]);
  expect(venue.requestCount('/api/v1/auth')).toBe(1);
  await budget.close();
});
