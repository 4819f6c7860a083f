/**
 * The point tables of `verifyDigestSigner` (src/venue/signing/point-tables.ts) give what noble's
 * own arithmetic gives: a·G + b·Q for random and edge scalars (0, 1, n − 1, the largest halves
 * of a split), and the sums that meet a doubling or the point at infinity on the way; and k·G
 * for a secret k (a signature's nonce) as noble's constant-time `multiply` gives it.
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  addScalarMultiple,
  affineOf,
  emptySum,
  hasAffineX,
  PointTable,
  secretGeneratorMultiple,
} from '../../../../src/venue/signing/point-tables.ts';

const Point = secp256k1.ProjectivePoint;
const N = secp256k1.CURVE.n;
const G = Point.BASE.toAffine();
const generatorTable = new PointTable(G.x, G.y, 10);

/** a·G + b·Q by the tables, as affine coordinates (undefined at infinity). */
function byTables(table: PointTable, a: bigint, b: bigint): { x: bigint; y: bigint } | undefined {
  const sum = addScalarMultiple(addScalarMultiple(emptySum(), generatorTable, a), table, b);
  const affine = affineOf(sum);
  if (affine !== undefined) expect(hasAffineX(sum, affine.x)).toBe(true);
  return affine === undefined ? undefined : { ...affine };
}

/** k·X by noble's constant-time `multiply` (its `multiplyUnsafe` errs on a point with tables). */
function times(point: typeof Point.BASE, k: bigint): typeof Point.BASE {
  return k === 0n ? Point.ZERO : point.multiply(k);
}

/** a·G + b·Q by noble, Q = q·G. */
function byNoble(q: bigint, a: bigint, b: bigint): { x: bigint; y: bigint } | undefined {
  const sum = times(Point.BASE, a).add(times(times(Point.BASE, q), b));
  return sum.equals(Point.ZERO) ? undefined : { ...sum.toAffine() };
}

it('sums multiples as noble does, for random keys and scalars', () => {
  const scalar = fc.bigInt({ min: 0n, max: N - 1n });
  fc.assert(
    fc.property(fc.bigInt({ min: 1n, max: N - 1n }), scalar, scalar, (q, a, b) => {
      const point = Point.BASE.multiply(q).toAffine();
      const table = new PointTable(point.x, point.y, 5);
      expect(byTables(table, a, b)).toEqual(byNoble(q, a, b));
    }),
    { numRuns: 12 },
  );
});

it('meets doublings and the point at infinity as noble does', () => {
  // Q = G: a·G + b·G, with b = a (a doubling at the end) and b = n − a (infinity).
  const sameTable = new PointTable(G.x, G.y, 5);
  const edges = [0n, 1n, 2n, N - 1n, N - 2n, 1n << 128n, (1n << 128n) - 1n, N >> 1n];
  for (const a of edges) {
    for (const b of [a, (N - a) % N, 1n, 0n]) {
      expect(byTables(sameTable, a, b)).toEqual(byNoble(1n, a, b));
    }
  }
  expect(byTables(sameTable, 5n, N - 5n)).toBeUndefined();
  expect(hasAffineX(emptySum(), 0n)).toBe(false);
});

it('gives k·G for a secret k as noble does: random scalars, the edges, digits of zero', () => {
  const check = (k: bigint): void => {
    expect({ ...secretGeneratorMultiple(k) }).toEqual({ ...Point.BASE.multiply(k).toAffine() });
  };
  fc.assert(fc.property(fc.bigInt({ min: 1n, max: N - 1n }), check), { numRuns: 200 });
  // The edges of a split and of the windows: tiny scalars (whole halves of zero digits), n − 1,
  // the largest halves, powers of two (one nonzero digit) and their neighbours.
  const edges = [
    1n,
    2n,
    3n,
    N - 1n,
    N - 2n,
    N >> 1n,
    (N >> 1n) + 1n,
    1n << 128n,
    (1n << 128n) - 1n,
  ];
  for (let bit = 0n; bit < 256n; bit += 9n) edges.push(1n << bit, (1n << bit) + 1n);
  for (const k of edges) if (k > 0n && k < N) check(k);
  expect(() => secretGeneratorMultiple(0n)).toThrow(/0 mod n/);
});
