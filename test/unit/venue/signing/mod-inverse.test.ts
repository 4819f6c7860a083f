/**
 * `invert` (src/venue/signing/mod-inverse.ts, Lehmer's extended Euclid) gives noble's `invert`
 * for the two moduli signing uses (the curve's order n and its field's p) on random values of
 * every size and on the values at the edges, and refuses what has no inverse as noble does.
 */
import { invert as nobleInvert } from '@noble/curves/abstract/modular';
import { secp256k1 } from '@noble/curves/secp256k1';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { invert } from '../../../../src/venue/signing/mod-inverse.ts';

const N = secp256k1.CURVE.n;
const P = secp256k1.CURVE.Fp.ORDER;

it.each([
  ['n', N],
  ['p', P],
])('gives noble’s inverse mod %s on random values of every size', (_name, m) => {
  fc.assert(
    fc.property(
      fc
        .integer({ min: 1, max: 256 })
        .chain((bits) => fc.bigInt({ min: 1n, max: 1n << BigInt(bits) })),
      (value) => {
        const a = value % m === 0n ? 1n : value;
        const inverse = invert(a, m);
        expect(inverse).toBe(nobleInvert(a, m));
        expect(((((a % m) * inverse) % m) + m) % m).toBe(1n);
      },
    ),
    { seed: 31, numRuns: 3000 },
  );
});

/** The inverse, or the fact that there is none. */
function outcome(inverse: () => bigint): bigint | 'none' {
  try {
    return inverse();
  } catch {
    return 'none';
  }
}

it('gives noble’s inverse at the edges', () => {
  for (const m of [N, P, 3n, 97n, (1n << 127n) - 1n]) {
    const half = m >> 1n;
    for (const a of [1n, 2n, 3n, half, half + 1n, m - 2n, m - 1n, m + 1n, -1n, -m + 1n])
      expect(outcome(() => invert(a, m))).toBe(outcome(() => nobleInvert(a, m)));
  }
  // Consecutive Fibonacci numbers: the longest run of quotients 1 (no step certain in a
  // number's leading bits for long).
  const fib = [1n, 2n];
  while (fib.at(-1)! < P) fib.push(fib.at(-1)! + fib.at(-2)!);
  for (let i = 1; i < fib.length - 1; i++)
    expect(invert(fib[i - 1]!, fib[i]!)).toBe(nobleInvert(fib[i - 1]!, fib[i]!));
});

it('refuses what has no inverse', () => {
  expect(() => invert(0n, N)).toThrow('does not exist');
  expect(() => invert(N, N)).toThrow('does not exist');
  expect(() => invert(1000003n * 7n, 1000003n * 1000033n)).toThrow('does not exist');
  expect(() => invert(5n, 0n)).toThrow('positive modulus');
});
