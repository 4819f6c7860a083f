/**
 * The slots a process of a shared rate budget holds (issue 15): counted against its share,
 * renewed while in flight, and carried back into Redis in whole ms (HOLD_LUA's PEXPIRE refuses a
 * fraction, and the budget's clock is `performance.now()`).
 */
import { expect, it } from 'vitest';
import { OwnSlots } from '../../../src/execution/rate-budget/own-slots.ts';

it('counts held slots, renews the ones in flight and carries each in whole ms, rounded up', () => {
  const own = new OwnSlots();
  own.add('a:1'); // in flight
  own.add('a:2').freeAt = 1002.25; // answered at 0.25, held perMs + guard
  own.add('a:3').freeAt = 500.75;
  own.add('a:4');
  own.remove('a:4'); // never left
  expect(own.used(100.5)).toBe(3);
  expect(own.nextFreeAt()).toBe(500.75);
  expect(own.leases(1500)).toEqual(['a:1', 1500]);
  expect(own.carried(100.5, 1500)).toEqual(['a:1', 1500, 'a:2', 902, 'a:3', 401]);
  // Freed slots are forgotten, and not carried.
  expect(own.carried(600, 1500)).toEqual(['a:1', 1500, 'a:2', 403]);
  expect(own.used(1002.25)).toBe(1);
});
