/**
 * `signDigest` (src/venue/signing/sign-digest.ts, libsecp256k1 through tiny-secp256k1) signs as
 * noble's secp256k1 `sign` with `lowS: true` and no extra entropy, as viem signs: the same r, s
 * and v, byte for byte, for random keys and digests and for the keys and digests at the edges;
 * and `recoverDigestSigner` (libsecp256k1 too) gives the address noble's recovery gives.
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { keccak256Bytes } from '../../../../src/venue/signing/keccak256.ts';
import { nobleRecoveredAddress, nobleSignature } from '../../../helpers/noble-reference.ts';
import { recoverDigestSigner } from '../../../../src/venue/signing/recover-signer.ts';
import { privateKeyBytes, signDigest } from '../../../../src/venue/signing/sign-digest.ts';

const N = secp256k1.CURVE.n;

function hex32(value: bigint): string {
  return value.toString(16).padStart(64, '0');
}

function bytes32(value: bigint): Uint8Array {
  return Uint8Array.from(Buffer.from(hex32(value), 'hex'));
}

function addressOf(d: bigint): string {
  const hash = keccak256Bytes(secp256k1.getPublicKey(d, false).subarray(1));
  return `0x${Buffer.from(hash.subarray(12)).toString('hex')}`;
}

it('gives noble’s signature byte for byte on random keys and digests, and recovers the key', () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: 1n, max: N - 1n }),
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      (d, digest) => {
        const signature = signDigest(digest, privateKeyBytes(`0x${hex32(d)}`));
        expect(signature).toBe(nobleSignature(digest, d));
        expect(BigInt(`0x${signature.slice(66, 130)}`) <= N >> 1n).toBe(true);
        const address = addressOf(d);
        expect(nobleRecoveredAddress(digest, signature)).toBe(address);
        expect(recoverDigestSigner(digest, signature)).toBe(address);
      },
    ),
    { seed: 31, numRuns: 300 },
  );
});

it('gives noble’s signature at the edges: keys 1 and n − 1, digests 0, n and 2²⁵⁶ − 1', () => {
  const keys = [1n, 2n, N - 1n, N >> 1n];
  const digests = [0n, 1n, N - 1n, N, N + 1n, (1n << 256n) - 1n].map(bytes32);
  for (const d of keys)
    for (const digest of digests)
      expect(signDigest(digest, bytes32(d))).toBe(nobleSignature(digest, d));
});

it('recovers what noble recovers from signatures it did not make: other v, other s, other r', () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: 1n, max: N - 1n }),
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      fc.bigInt({ min: 1n, max: (N >> 1n) - 1n }),
      (d, digest, delta) => {
        const good = nobleSignature(digest, d);
        const r = BigInt(`0x${good.slice(2, 66)}`);
        const s = BigInt(`0x${good.slice(66, 130)}`);
        const otherV = good.endsWith('1b') ? '1c' : '1b';
        const changed = [
          `${good.slice(0, 130)}${otherV}`,
          `0x${hex32((r + delta) % N || 1n)}${good.slice(66)}`,
          `0x${good.slice(2, 66)}${hex32(((s + delta) % (N >> 1n)) + 1n)}${good.slice(130)}`,
        ];
        for (const signature of changed) {
          let expected: string | undefined;
          try {
            expected = nobleRecoveredAddress(digest, signature);
          } catch {
            expected = undefined;
          }
          expect(recoverDigestSigner(digest, signature)).toBe(expected);
        }
      },
    ),
    { seed: 32, numRuns: 100 },
  );
});

it('refuses a key out of range and a digest that is not 32 bytes', () => {
  const digest = bytes32(5n);
  expect(() => signDigest(digest, bytes32(0n))).toThrow();
  expect(() => signDigest(digest, bytes32(N))).toThrow();
  expect(() => signDigest(new Uint8Array(31), bytes32(1n))).toThrow();
});
