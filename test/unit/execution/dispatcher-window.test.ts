/**
 * The dispatcher's rate window: a send holds its slot from its start until `perMs` + guard (2 ms)
 * after its answer, because the venue counts the request somewhere in between. Time is a
 * settable clock and the dispatcher's injected sleep; answers come when the test says.
 */
import { describe, expect, it } from 'vitest';
import {
  Dispatcher,
  type OrderSubmitter,
  type SignedOrderRequest,
} from '../../../src/execution/dispatcher.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { venueErrorFromStatus } from '../../../src/venue/errors.ts';
import type { VenueOrder } from '../../../src/venue/types.ts';
import { manualTimer } from '../../helpers/manual-timer.ts';
import { filledVenueOrder } from '../../helpers/venue-order.ts';

/** A clock with timers that fire only when the test moves time on. */
function fakeTime() {
  let now = 0;
  const timers: { at: number; fire: () => void; signal: AbortSignal }[] = [];
  return {
    now: () => now,
    sleep(ms: number, signal: AbortSignal): Promise<void> {
      return new Promise((resolve, reject) => {
        if (signal.aborted) return reject(new Error('aborted'));
        timers.push({ at: now + ms, fire: resolve, signal });
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
    },
    pendingSleeps: () => timers.filter((t) => !t.signal.aborted).length,
    async advanceTo(ms: number): Promise<void> {
      now = ms;
      for (const timer of timers.splice(0)) {
        if (timer.at <= now) timer.fire();
        else timers.push(timer);
      }
      await settle();
    },
  };
}

/** Lets promise chains and p-queue's bookkeeping run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A submitter that records when each send started and answers when told to. */
function controlledVenue(clock: () => number) {
  const sends: { body: string; at: number; answer: () => void }[] = [];
  const submitter: OrderSubmitter = {
    createOrder(request: SignedOrderRequest) {
      return new Promise<VenueOrder>((resolve) => {
        sends.push({
          body: request.body,
          at: clock(),
          answer: () => resolve(filledVenueOrder({ id: sends.length })),
        });
      });
    },
  };
  return { submitter, sends };
}

function dispatcherWith(
  requests: number,
  time: ReturnType<typeof fakeTime>,
  submitter: OrderSubmitter,
  concurrency = 4,
) {
  return new Dispatcher({
    submitter,
    requests,
    perMs: 1000,
    concurrency,
    maxAttempts: 1,
    now: time.now,
    sleep: (ms, signal) => time.sleep(ms, signal),
    log: silentLogger,
  });
}

const order = (n: number): SignedOrderRequest => ({
  body: `order-${n}`,
  signature: `0x${n}`,
  signer: '0x',
});

/** A dispatcher without a rate limit whose drain deadline is `timer`. */
function drainedWith(
  time: ReturnType<typeof fakeTime>,
  submitter: OrderSubmitter,
  timer: ReturnType<typeof manualTimer>,
) {
  return new Dispatcher({
    submitter,
    requests: Infinity,
    perMs: 1000,
    concurrency: 4,
    maxAttempts: 1,
    now: time.now,
    sleep: (ms, signal) => time.sleep(ms, signal),
    startTimer: timer.start,
    log: silentLogger,
  });
}

describe('Dispatcher rate window', () => {
  it('frees a slot perMs + 2 after the answer, not perMs after the start', async () => {
    const time = fakeTime();
    const venue = controlledVenue(time.now);
    const dispatcher = dispatcherWith(2, time, venue.submitter);
    const results = [1, 2, 3].map((n) => dispatcher.dispatch(n, order(n), 10_000_000));
    await settle();
    expect(venue.sends.map((s) => [s.body, s.at])).toEqual([
      ['order-1', 0],
      ['order-2', 0],
    ]);

    // The first answer takes 600 ms: the venue may have counted it as late as that.
    await time.advanceTo(600);
    venue.sends[0]?.answer();
    await settle();
    // A window counted from the start would send the third at 1002, inside the venue's
    // window that still holds the first (counted at up to 600).
    await time.advanceTo(1002);
    expect(venue.sends).toHaveLength(2);
    // One timer for the one waiter, set to the moment the first slot frees.
    expect(time.pendingSleeps()).toBe(1);
    await time.advanceTo(1601);
    expect(venue.sends).toHaveLength(2);
    await time.advanceTo(1602);
    expect(venue.sends.map((s) => [s.body, s.at])).toEqual([
      ['order-1', 0],
      ['order-2', 0],
      ['order-3', 1602],
    ]);

    venue.sends[1]?.answer();
    venue.sends[2]?.answer();
    expect((await Promise.all(results)).map((r) => r.kind)).toEqual(['placed', 'placed', 'placed']);
    // Held slots are deadlines, not timers: nobody waits, so no timer is left.
    expect(time.pendingSleeps()).toBe(0);
    expect(await dispatcher.drain(1000)).toBe(true);
    expect(time.pendingSleeps()).toBe(0);
  });

  it('answers reach the caller at once, while the slot is still held', async () => {
    const time = fakeTime();
    const venue = controlledVenue(time.now);
    const dispatcher = dispatcherWith(1, time, venue.submitter);
    const first = dispatcher.dispatch(1, order(1), 10_000_000);
    await settle();
    venue.sends[0]?.answer();
    expect(await first).toMatchObject({ kind: 'placed', attempts: 1 });
    // Held: the next order waits for it until 1002.
    const second = dispatcher.dispatch(2, order(2), 10_000_000);
    await settle();
    expect(venue.sends).toHaveLength(1);
    await time.advanceTo(1002);
    expect(venue.sends.map((s) => s.at)).toEqual([0, 1002]);
    venue.sends[1]?.answer();
    await second;
    await dispatcher.drain(1000);
  });

  it('a send waiting for its slot also waits out a 429 pause', async () => {
    const time = fakeTime();
    const venue = controlledVenue(time.now);
    const rateLimited = new Set(['order-1']);
    const dispatcher = new Dispatcher({
      submitter: {
        createOrder(request, signal) {
          if (!rateLimited.delete(request.body))
            return venue.submitter.createOrder(request, signal);
          venue.sends.push({ body: request.body, at: time.now(), answer: () => undefined });
          return Promise.reject(
            venueErrorFromStatus({
              status: 429,
              endpoint: 'POST /api/v1/order',
              retryAfterMs: 5000,
            }),
          );
        },
      },
      requests: 1,
      perMs: 1000,
      concurrency: 2,
      maxAttempts: 2,
      backoffMs: 1,
      now: time.now,
      sleep: (ms, signal) => time.sleep(ms, signal),
      log: silentLogger,
    });
    const results = [1, 2].map((n) => dispatcher.dispatch(n, order(n), 10_000_000));
    await settle();
    // The 429 answer frees the slot at 1002, while the venue's Retry-After runs to 5000.
    await time.advanceTo(1002);
    await time.advanceTo(4999);
    expect(venue.sends.map((s) => [s.body, s.at])).toEqual([['order-1', 0]]);
    await time.advanceTo(5000);
    expect(venue.sends.map((s) => [s.body, s.at])).toEqual([
      ['order-1', 0],
      ['order-2', 5000],
    ]);
    venue.sends[1]?.answer();
    expect(await results[1]).toMatchObject({ kind: 'placed' });
    await dispatcher.drain(0);
    expect(await results[0]).toMatchObject({ kind: 'interrupted', attempts: 1 });
  });

  it('without a concurrency limit (no queue) a drain still interrupts a send in progress', async () => {
    const time = fakeTime();
    const venue = controlledVenue(time.now);
    const dispatcher = dispatcherWith(Infinity, time, venue.submitter, Infinity);
    const result = dispatcher.dispatch(1, order(1), 10_000_000);
    await settle();
    expect(venue.sends).toHaveLength(1);
    // Never answered: the drain gives up at once and the send ends as interrupted.
    expect(await dispatcher.drain(0)).toBe(false);
    expect(await result).toMatchObject({ kind: 'interrupted', attempts: 1 });
  });

  /** A dispatcher whose drain deadline is a manual timer, with one order sent and unanswered. */
  async function oneSendOnManualTimer() {
    const time = fakeTime();
    const venue = controlledVenue(time.now);
    const timer = manualTimer();
    const dispatcher = drainedWith(time, venue.submitter, timer);
    const result = dispatcher.dispatch(1, order(1), 10_000_000);
    await settle();
    return { venue, timer, dispatcher, result };
  }

  it("a drain's deadline is the injected timer, not a real one (the simulator's virtual time)", async () => {
    const { timer, dispatcher, result } = await oneSendOnManualTimer();
    let drained: boolean | undefined;
    const drain = dispatcher.drain(30_000).then((finished) => (drained = finished));
    await settle();
    // Thirty seconds on that timer: nothing ends until the test fires it.
    expect(timer.armed()).toEqual([30_000]);
    expect(drained).toBeUndefined();
    timer.fireAll();
    await drain;
    expect(drained).toBe(false);
    expect(await result).toMatchObject({ kind: 'interrupted', attempts: 1 });
  });

  it('a drain that finishes in time cancels its deadline timer', async () => {
    const { venue, timer, dispatcher, result } = await oneSendOnManualTimer();
    venue.sends[0]?.answer();
    expect(await dispatcher.drain(30_000)).toBe(true);
    expect(await result).toMatchObject({ kind: 'placed' });
    expect(timer.armed()).toEqual([]);
  });

  it('with requests = Infinity (backtests) nothing waits and nothing is held', async () => {
    const time = fakeTime();
    const venue = controlledVenue(time.now);
    const dispatcher = dispatcherWith(Infinity, time, venue.submitter);
    const results = [1, 2, 3, 4].map((n) => dispatcher.dispatch(n, order(n), 10_000_000));
    await settle();
    expect(venue.sends).toHaveLength(4);
    for (const send of venue.sends) send.answer();
    await Promise.all(results);
    expect(time.pendingSleeps()).toBe(0);
  });
});

describe('Dispatcher expiry at the moment of sending', () => {
  it('an order whose slot comes after its expiry is never sent, and gives its slot back at once', async () => {
    const time = fakeTime();
    const venue = controlledVenue(time.now);
    const dispatcher = dispatcherWith(1, time, venue.submitter);
    // One slot: the first holds it until 1002 after its answer; the second would leave then,
    // after its 900 ms expiry (margin 100 ms); the third, valid for long, takes the slot next.
    const first = dispatcher.dispatch(1, order(1), 10_000_000);
    const second = dispatcher.dispatch(2, order(2), 900);
    const third = dispatcher.dispatch(3, order(3), 10_000_000);
    await settle();
    expect(dispatcher.estimatedWaitMs()).toBe(3 * 1002);
    venue.sends[0]?.answer();
    await settle();
    await time.advanceTo(1002);
    // The second expired in the queue: not sent; the third got the slot without waiting for
    // a hold the second never needed.
    expect(venue.sends.map((s) => [s.body, s.at])).toEqual([
      ['order-1', 0],
      ['order-3', 1002],
    ]);
    const expired = await second;
    expect(expired.kind).toBe('unsent');
    expect(expired.attempts).toBe(0);
    expect(String((expired as { error: Error }).error.message)).toMatch(
      /order 2 expired before it could be sent/,
    );
    venue.sends[1]?.answer();
    expect((await first).kind).toBe('placed');
    expect((await third).kind).toBe('placed');
    await dispatcher.drain(1000);
  });

  it('an order inside the margin before its expiry is not sent either', async () => {
    const time = fakeTime();
    const venue = controlledVenue(time.now);
    const dispatcher = dispatcherWith(2, time, venue.submitter);
    const result = await dispatcher.dispatch(1, order(1), 100);
    expect(result.kind).toBe('unsent');
    expect(venue.sends).toHaveLength(0);
    await dispatcher.drain(1000);
  });
});
