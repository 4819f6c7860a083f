/**
 * The local rate budget (issue 15): slots held until perMs + guard after the answer, orders
 * before lookups, polls skipped (never queued) while anyone waits or no slot is free, a 429
 * pause for every taker. Time is a settable clock with timers that fire when the test says.
 */
import { describe, expect, it } from 'vitest';
import { LocalRateBudget } from '../../../src/execution/rate-budget/local-rate-budget.ts';
import { budgetKey, redisLabel } from '../../../src/execution/rate-budget/budget-key.ts';
import type { Permit } from '../../../src/execution/rate-budget/rate-budget.ts';

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
    pending: () => timers.filter((t) => !t.signal.aborted).length,
    async advanceTo(ms: number): Promise<void> {
      now = ms;
      for (const timer of timers.splice(0)) {
        if (timer.at <= now && !timer.signal.aborted) timer.fire();
        else if (!timer.signal.aborted) timers.push(timer);
      }
      await settle();
    },
  };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

function budgetOf(requests: number, time: ReturnType<typeof fakeTime>, countPolls = true) {
  return new LocalRateBudget({
    requests,
    perMs: 1000,
    countPolls,
    now: time.now,
    sleep: (ms, signal) => time.sleep(ms, signal),
  });
}

/** A budget of `requests` per second keeping `pollReserve` slots for polls. */
function reservedBudget(requests: number, pollReserve: number, time: ReturnType<typeof fakeTime>) {
  return new LocalRateBudget({
    requests,
    perMs: 1000,
    pollReserve,
    now: time.now,
    sleep: (ms, signal) => time.sleep(ms, signal),
  });
}

const never = new AbortController().signal;

/** Takes a permit in the background and records when it came. */
function track(promise: Promise<Permit>, time: ReturnType<typeof fakeTime>) {
  const got: { at?: number; permit?: Permit } = {};
  void promise.then((permit) => {
    got.at = time.now();
    got.permit = permit;
  });
  return got;
}

describe('LocalRateBudget', () => {
  it('holds a slot until perMs + 2 after the answer and hands it on at that moment', async () => {
    const time = fakeTime();
    const budget = budgetOf(2, time);
    const a = await budget.take('order', never);
    await budget.take('order', never);
    const third = track(budget.take('order', never), time);
    await settle();
    expect(third.at).toBeUndefined();
    // Both in flight: no timer, the loop waits for an answer.
    expect(time.pending()).toBe(0);
    await time.advanceTo(300);
    a.release();
    await settle();
    await time.advanceTo(1301);
    expect(third.at).toBeUndefined();
    await time.advanceTo(1302);
    expect(third.at).toBe(1302);
    // Nobody waits: no timer left behind.
    expect(time.pending()).toBe(0);
  });

  it('a request that never left gives its slot back at once', async () => {
    const time = fakeTime();
    const budget = budgetOf(1, time);
    const a = await budget.take('order', never);
    const next = track(budget.take('order', never), time);
    a.release(false);
    await settle();
    expect(next.at).toBe(0);
  });

  it('serves orders before lookups, each in arrival order', async () => {
    const time = fakeTime();
    const budget = budgetOf(1, time);
    const first = await budget.take('order', never);
    const order: string[] = [];
    const take = (kind: 'order' | 'lookup', name: string) =>
      void budget.take(kind, never).then((permit) => {
        order.push(name);
        permit.release();
      });
    take('lookup', 'lookup-1');
    take('order', 'order-1');
    take('lookup', 'lookup-2');
    take('order', 'order-2');
    first.release();
    for (let t = 1002; t <= 5 * 1002; t += 1002) await time.advanceTo(t);
    expect(order).toEqual(['order-1', 'order-2', 'lookup-1', 'lookup-2']);
  });

  it('skips a poll (and counts it) while orders wait or slots are short, never queues it', async () => {
    const time = fakeTime();
    const budget = budgetOf(3, time);
    expect(await budget.tryTake('poll', 2)).toHaveLength(2);
    // One slot left: a two-request poll is skipped, all or nothing.
    expect(await budget.tryTake('poll', 2)).toBeUndefined();
    const order = await budget.take('order', never);
    const waiting = track(budget.take('order', never), time);
    await settle();
    expect(waiting.at).toBeUndefined();
    expect(await budget.tryTake('poll', 1)).toBeUndefined();
    expect(budget.status()).toMatchObject({ mode: 'local', requests: 3, skippedPolls: 2 });
    order.release(false);
    await settle();
    expect(waiting.at).toBe(0);
  });

  it('keeps the polls reserve from orders: a flood of orders waits, polls still get theirs', async () => {
    const time = fakeTime();
    const budget = reservedBudget(5, 2, time);
    // Three order slots, then the orders wait although two slots are free.
    const taken = [];
    for (let i = 0; i < 3; i++) taken.push(await budget.take('order', never));
    const waiting = track(budget.take('order', never), time);
    await settle();
    expect(waiting.at).toBeUndefined();
    // A poll still gets the reserved slots while orders wait (it used to be skipped)…
    expect(await budget.tryTake('poll', 2)).toHaveLength(2);
    // …and no more than those.
    expect(await budget.tryTake('poll', 1)).toBeUndefined();
    expect(budget.status().skippedPolls).toBe(1);
    // Without a poll holding them, the reserve stays out of the orders' reach.
    taken[0]?.release(false);
    await settle();
    expect(waiting.at).toBe(0);
    expect(budget.estimatedWaitMs(6)).toBe(2 * 1002);
  });

  it('a poll reserve larger than the budget leaves orders one slot', async () => {
    const time = fakeTime();
    const budget = reservedBudget(2, 5, time);
    await budget.take('order', never);
    const waiting = track(budget.take('order', never), time);
    await settle();
    expect(waiting.at).toBeUndefined();
    expect(await budget.tryTake('poll', 1)).toHaveLength(1);
  });

  it('countPolls: false gives polls permits that count nothing', async () => {
    const time = fakeTime();
    const budget = budgetOf(1, time, false);
    await budget.take('order', never);
    expect(await budget.tryTake('poll', 2)).toHaveLength(2);
    expect(budget.status().skippedPolls).toBe(0);
  });

  it("countPolls: false still skips polls during a 429's pause (they asked nothing of the budget)", async () => {
    const time = fakeTime();
    const budget = budgetOf(1, time, false);
    budget.pause(2000);
    expect(await budget.tryTake('poll', 2)).toBeUndefined();
    expect(budget.status().skippedPolls).toBe(1);
    await time.advanceTo(2000);
    expect(await budget.tryTake('poll', 2)).toHaveLength(2);
  });

  it('a 429 pause holds every taker until Retry-After, polls included', async () => {
    const time = fakeTime();
    const budget = budgetOf(5, time);
    budget.pause(2000);
    expect(budget.status().pausedForMs).toBe(2000);
    const waiting = track(budget.take('order', never), time);
    expect(await budget.tryTake('poll', 1)).toBeUndefined();
    await time.advanceTo(1999);
    expect(waiting.at).toBeUndefined();
    await time.advanceTo(2000);
    expect(waiting.at).toBe(2000);
    expect(budget.estimatedWaitMs(10)).toBe(2 * 1002);
  });

  it('takeFree grants what take would grant at once, and nothing take would queue', async () => {
    const time = fakeTime();
    const budget = budgetOf(2, time);
    const first = budget.takeFree();
    expect(first).toBeDefined();
    await budget.take('order', never);
    // Both slots taken: take would queue, so takeFree gives nothing and takes nothing.
    expect(budget.takeFree()).toBeUndefined();
    const waiting = track(budget.take('lookup', never), time);
    first!.release(false);
    // The slot freed goes to the waiter, not to takeFree.
    expect(budget.takeFree()).toBeUndefined();
    await settle();
    expect(waiting.at).toBe(0);
    budget.pause(1000);
    waiting.permit!.release(false);
    expect(budget.takeFree()).toBeUndefined();
    await time.advanceTo(1000);
    expect(budget.takeFree()).toBeDefined();
    await budget.close();
    expect(budget.takeFree()).toBeUndefined();
  });

  it('an aborted waiter leaves the line; close rejects the rest', async () => {
    const time = fakeTime();
    const budget = budgetOf(1, time);
    const held = await budget.take('order', never);
    const controller = new AbortController();
    const aborted = budget.take('order', controller.signal);
    const closed = budget.take('lookup', never);
    controller.abort(new Error('shutdown'));
    await expect(aborted).rejects.toThrow('shutdown');
    held.release(false);
    await budget.close();
    await expect(closed).rejects.toThrow('rate budget closed');
  });

  it('never lets more than `requests` slots start in any window of perMs (random answers)', async () => {
    const time = fakeTime();
    const budget = budgetOf(4, time);
    const starts: number[] = [];
    const answers: { at: number; permit: Permit }[] = [];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 40; i++) {
      void budget.take('order', never).then((permit) => {
        starts.push(time.now());
        answers.push({ at: time.now() + Math.floor(random() * 400), permit });
      });
    }
    for (let t = 0; t <= 20_000; t += 1) {
      for (const answer of answers.filter((a) => a.at <= t)) answer.permit.release();
      answers.splice(0, answers.length, ...answers.filter((a) => a.at > t));
      await time.advanceTo(t);
      if (starts.length === 40 && answers.length === 0) break;
    }
    expect(starts).toHaveLength(40);
    for (const start of starts) {
      expect(starts.filter((s) => s >= start && s < start + 1000).length).toBeLessThanOrEqual(4);
    }
  });
});

describe('budgetKey', () => {
  it('one key per venue origin and wallet, hashed, case-insensitive on the address', () => {
    const key = budgetKey(
      'https://api.venue.example/v1',
      1,
      '0xABCDEF0123456789abcdef0123456789ABCDEF01',
    );
    expect(key).toMatch(/^quanta:rate:[0-9a-f]{32}$/);
    expect(key).not.toMatch(/abcdef0123/i);
    expect(
      budgetKey('https://api.venue.example', 1, '0xabcdef0123456789abcdef0123456789abcdef01'),
    ).toBe(key);
    expect(
      budgetKey('https://other.example', 1, '0xabcdef0123456789abcdef0123456789abcdef01'),
    ).not.toBe(key);
    expect(
      budgetKey('https://api.venue.example', 2, '0xabcdef0123456789abcdef0123456789abcdef01'),
    ).not.toBe(key);
  });

  it('redisLabel never shows a password', () => {
    expect(redisLabel('redis://user:s3cret@127.0.0.1:6379/2')).toBe('redis://127.0.0.1:6379/2');
    expect(redisLabel('redis://:s3cret@cache:6380')).toBe('redis://cache:6380');
  });
});
