/**
 * Each strategy's share of the order budget (issue 25): its orders per window are counted when
 * accepted, past its share an intent is refused, and one line is logged per throttling episode.
 */
import { expect, it } from 'vitest';
import { pollReserve } from '../../../src/execution/rate-budget/poll-reserve.ts';
import { StrategyShares } from '../../../src/execution/pre-trade/strategy-shares.ts';
import { captureLogs } from '../../integration/runtime/harness.ts';

it('splits the order budget between strategies and logs once per episode', () => {
  let now = 0;
  const logs = captureLogs();
  const shares = new StrategyShares({
    strategies: ['flood', 'calm'],
    requests: 7,
    perMs: 1000,
    now: () => now,
    log: logs.log,
  });
  expect(shares.perStrategy).toBe(3);
  const admitted = (name: string, tries: number): number => {
    let n = 0;
    for (let i = 0; i < tries; i++) {
      if (!shares.allows(name)) continue;
      shares.admit(name);
      n += 1;
    }
    return n;
  };
  expect(admitted('flood', 10_000)).toBe(3);
  // The other strategy's share is untouched; a name without a share (flatten) is never throttled.
  expect(admitted('calm', 2)).toBe(2);
  expect(admitted('flatten', 50)).toBe(50);
  now = 999;
  expect(admitted('flood', 10)).toBe(0);
  now = 1000;
  expect(admitted('flood', 10)).toBe(3);
  // Still within one window of the last refusal: the same episode, no new line.
  expect(logs.withMessage('strategy flood asks for more orders')).toHaveLength(1);
  // A whole window without a refusal ends the episode; the next flood is a new one.
  now = 3000;
  expect(admitted('flood', 3)).toBe(3);
  now = 4500;
  expect(admitted('flood', 4)).toBe(3);
  expect(logs.withMessage('strategy flood asks for more orders')).toHaveLength(2);
  expect(shares.episodes()).toEqual({ flood: 2 });
});

it('reserves the slots of the polls that hold them at once, never more than half the budget', () => {
  const base = { requests: 20, perMs: 1000, countPolls: true };
  expect(pollReserve({ ...base, pollIntervalMs: 250, permitsPerPoll: 1 })).toBe(5);
  expect(pollReserve({ ...base, pollIntervalMs: 1000, permitsPerPoll: 2 })).toBe(4);
  expect(pollReserve({ ...base, pollIntervalMs: 100, permitsPerPoll: 2 })).toBe(10);
  expect(pollReserve({ ...base, countPolls: false, pollIntervalMs: 100, permitsPerPoll: 2 })).toBe(
    0,
  );
});
