/**
 * Order lookups under the rate budget (src/runtime/lookup-permits.ts): each holds a `lookup`
 * permit until answered, and its wait's deadline (`permitWait`, a timer) is made only when it
 * has to queue: a lookup with a free slot starts no timer.
 */
import { expect, it } from 'vitest';
import { LocalRateBudget } from '../../../src/execution/rate-budget/local-rate-budget.ts';
import { lookupsUnderBudget } from '../../../src/runtime/lookup-permits.ts';
import type { VenueClient } from '../../../src/venue/venue-client.ts';
import type { VenueOrder } from '../../../src/venue/types.ts';

const never = new AbortController().signal;

function setUp() {
  const sleeps: { resolve: () => void }[] = [];
  const budget = new LocalRateBudget({
    requests: 1,
    perMs: 1000,
    now: () => 0,
    sleep: () => new Promise<void>((resolve) => sleeps.push({ resolve })),
  });
  const answers: ((order: VenueOrder) => void)[] = [];
  const asked: number[] = [];
  const client = {
    getOrder: (venueOrderId: number) => {
      asked.push(venueOrderId);
      return new Promise<VenueOrder>((resolve) => answers.push(resolve));
    },
  } as unknown as VenueClient;
  const deadlines: AbortController[] = [];
  const lookups = lookupsUnderBudget(client, budget, () => {
    const controller = new AbortController();
    deadlines.push(controller);
    return controller.signal;
  });
  return { budget, lookups, answers, asked, deadlines };
}

it('a lookup with a free slot asks for no deadline; one that must wait does, and gives up at it', async () => {
  const { lookups, answers, asked, deadlines } = setUp();
  const first = lookups.getOrder(1, never);
  await Promise.resolve();
  expect(asked).toEqual([1]);
  expect(deadlines).toHaveLength(0);
  // The one slot is held until the answer: the next lookup queues, under a deadline.
  const second = lookups.getOrder(2, never);
  expect(deadlines).toHaveLength(1);
  deadlines[0]!.abort(new Error('permit wait timed out'));
  await expect(second).rejects.toThrow('permit wait timed out');
  expect(asked).toEqual([1]);
  answers[0]!({ id: 'a' } as unknown as VenueOrder);
  await expect(first).resolves.toEqual({ id: 'a' });
});
