/**
 * A violation's replay line runs the same schedule: a seed names one only with the run's
 * `--minutes` and `--mix` (seed 42 traces differently with `--minutes 2` or `--mix full`), so
 * the line repeats them.
 */
import { expect, it } from 'vitest';
import { formatViolation, type Violation } from '../../../src/simulation/invariants.ts';

const violation: Violation = {
  seed: 42,
  invariant: 'positionCap',
  detail: 'venue position 3155 notional, cap 3000',
  at: 61_500,
  lastEvents: ['61000 GET /api/v1/quotes 200', '61400 POST /api/v1/order 200'],
};

it('prints the seed, the invariant, the detail, a replay with the run flags, and the last events', () => {
  const lines = formatViolation(violation, '--minutes 2 --mix full').split('\n');
  expect(lines[0]).toMatch(/^seed 42: /);
  expect(lines[1]).toBe('  at 61500 ms: venue position 3155 notional, cap 3000');
  expect(lines[2]).toBe('  replay: quanta sim --seed 42 --minutes 2 --mix full');
  expect(lines.slice(3)).toEqual([
    '  last events:',
    '    61000 GET /api/v1/quotes 200',
    '    61400 POST /api/v1/order 200',
  ]);
});
