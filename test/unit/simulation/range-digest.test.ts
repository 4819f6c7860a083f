import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { rangeDigest } from '../../../src/simulation/range-digest.ts';

const results = [
  { seed: 1, traceHash: '05150be0ed53a50c' },
  { seed: 2, traceHash: '50a1d2adca6464ae' },
  { seed: 3, traceHash: 'bccf52bbd025d8d1' },
];

it('is the SHA-256 of "seed traceHash" lines in seed order, whatever order the results came in', () => {
  const text = '1 05150be0ed53a50c\n2 50a1d2adca6464ae\n3 bccf52bbd025d8d1\n';
  const expected = createHash('sha256').update(text).digest('hex').slice(0, 16);
  expect(rangeDigest(results)).toBe(expected);
  expect(rangeDigest([results[2]!, results[0]!, results[1]!])).toBe(expected);
});

it('changes when one trace hash or one seed of the range changes', () => {
  const base = rangeDigest(results);
  expect(
    rangeDigest([results[0]!, { seed: 2, traceHash: '50a1d2adca6464af' }, results[2]!]),
  ).not.toBe(base);
  expect(
    rangeDigest([results[0]!, results[1]!, { seed: 4, traceHash: 'bccf52bbd025d8d1' }]),
  ).not.toBe(base);
  expect(rangeDigest(results.slice(0, 2))).not.toBe(base);
});
