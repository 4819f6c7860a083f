import { expect, it } from 'vitest';
import { RepeatedValues } from '../../../src/execution/journal-row.ts';
import { RecentValues } from '../../../src/execution/recent-values.ts';

// Identity is not observable for bigints (=== compares values): what a pool must never do is
// hand back another value, whatever shares a slot or was evicted.
it('hands back an equal value for every bigint, in and out of its slots', () => {
  const recent = new RecentValues();
  const pool = new RepeatedValues();
  const values: bigint[] = [0n, -1n, 1n, 10n ** 400n, -(10n ** 400n)];
  for (let i = 0; i < 10_000; i++) values.push(BigInt(i) * 10n ** 16n + BigInt(i % 7), -BigInt(i));
  for (let round = 0; round < 2; round++)
    for (const value of values) {
      expect(recent.one(value)).toBe(value);
      expect(pool.one(value)).toBe(value);
    }
});

it('keeps texts apart from bigints of the same digits', () => {
  const pool = new RepeatedValues();
  expect(pool.one(5n)).toBe(5n);
  expect(pool.one('5')).toBe('5');
  expect(pool.one(5n)).toBe(5n);
});
