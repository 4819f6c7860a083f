/**
 * `signDigest` (src/venue/signing/sign-digest.ts) signs as noble's secp256k1 `sign` with
 * `lowS: true` and no extra entropy: the same r, s and recovery bit for random keys and digests
 * and for the keys and digests at the edges, and its signatures verify and recover the key.
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { signDigest } from '../../../../src/venue/signing/sign-digest.ts';

const N = secp256k1.CURVE.n;

function bytes32(value: bigint): Uint8Array {
  return Uint8Array.from(Buffer.from(value.toString(16).padStart(64, '0'), 'hex'));
}

function byNoble(digest: Uint8Array, d: bigint) {
  const { r, s, recovery } = secp256k1.sign(digest, d, { lowS: true, extraEntropy: false });
  return { r, s, recovery };
}

it('gives noble’s signature on random keys and digests', () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: 1n, max: N - 1n }),
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      (d, digest) => {
        const signature = signDigest(digest, d);
        expect({ ...signature }).toEqual(byNoble(digest, d));
        expect(signature.s <= N >> 1n).toBe(true);
        const recovered = new secp256k1.Signature(signature.r, signature.s)
          .addRecoveryBit(signature.recovery)
          .recoverPublicKey(digest);
        expect(recovered.equals(secp256k1.ProjectivePoint.BASE.multiply(d))).toBe(true);
      },
    ),
    { seed: 31, numRuns: 300 },
  );
});

it('gives noble’s signature at the edges: keys 1 and n − 1, digests 0, n and 2²⁵⁶ − 1', () => {
  const keys = [1n, 2n, N - 1n, N >> 1n];
  const digests = [0n, 1n, N - 1n, N, N + 1n, (1n << 256n) - 1n].map(bytes32);
  for (const d of keys)
    for (const digest of digests) expect({ ...signDigest(digest, d) }).toEqual(byNoble(digest, d));
});

it('refuses a scalar out of range and a digest that is not 32 bytes', () => {
  const digest = bytes32(5n);
  expect(() => signDigest(digest, 0n)).toThrow(/out of range/);
  expect(() => signDigest(digest, N)).toThrow(/out of range/);
  expect(() => signDigest(new Uint8Array(31), 1n)).toThrow(/32 bytes/);
});
