/**
 * `verifyDigestSigner` answers as noble's full recovery compared with the claimed signer, on its
 * first check of a signer and on later ones: for good signatures, the other `v`, the high `s`,
 * another digest, another signer, a changed `r`.
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import fc from 'fast-check';
import { numberToHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect, it } from 'vitest';
import { nobleRecoveredAddress, nobleSignature } from '../../../helpers/noble-reference.ts';
import { isCanonicalSignature } from '../../../../src/venue/signing/recover-signer.ts';
import {
  rememberOwnSignature,
  verifyDigestSigner,
} from '../../../../src/venue/signing/verify-digest-signer.ts';

const N = secp256k1.CURVE.n;

function addressOf(key: bigint): string {
  return privateKeyToAccount(numberToHex(key, { size: 32 })).address.toLowerCase();
}

/** What noble's recovery says: the signature is canonical and recovers to `signer`. */
function byRecovery(digest: Uint8Array, signature: string, signer: string): boolean {
  if (!isCanonicalSignature(signature)) return false;
  try {
    return nobleRecoveredAddress(digest, signature) === signer;
  } catch {
    return false;
  }
}

/** Variants of a good signature: each must be judged as a recovery judges it. */
function variants(signature: string): string[] {
  const r = BigInt(`0x${signature.slice(2, 66)}`);
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = signature.slice(130);
  const hex = (value: bigint): string => value.toString(16).padStart(64, '0');
  const otherV = v === '1b' ? '1c' : '1b';
  return [
    signature,
    `${signature.slice(0, 130)}${otherV}`,
    `0x${hex(r)}${hex(N - s)}${otherV}`,
    `0x${hex(r + 1n)}${hex(s)}${v}`,
    `0x${hex(r)}${hex(s - 1n)}${v}`,
    `0x${hex(r)}${hex(s)}1d`,
  ];
}

it('answers as a full recovery, for a signer seen before and one never seen', () => {
  const keyArb = fc.bigInt({ min: 1n, max: N - 1n });
  const digestArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
  let accepted = 0;
  let refused = 0;
  fc.assert(
    fc.property(
      keyArb,
      keyArb,
      fc.array(digestArb, { minLength: 3, maxLength: 4 }),
      (key, otherKey, digests) => {
        const signer = addressOf(key);
        const other = addressOf(otherKey);
        for (const digest of digests) {
          const signature = nobleSignature(digest, key);
          const wrongDigest = Uint8Array.from(digest, (byte, i) => (i === 31 ? byte ^ 1 : byte));
          for (const variant of variants(signature)) {
            for (const [d, who] of [
              [digest, signer],
              [wrongDigest, signer],
              [digest, other],
            ] as const) {
              const expected = byRecovery(d, variant, who);
              expect(verifyDigestSigner(d, variant, who)).toBe(expected);
              if (expected) accepted += 1;
              else refused += 1;
            }
          }
        }
      },
    ),
    { numRuns: 8 },
  );
  // Both answers were met, on the first check of a signer and on later ones.
  expect(accepted).toBeGreaterThanOrEqual(24);
  expect(refused).toBeGreaterThan(accepted);
});

it('keeps a signer only after a recovery gave it: a bad first signature teaches nothing', () => {
  const key = 0x1234n;
  const signer = addressOf(key);
  const digest = new Uint8Array(32).fill(7);
  const signature = nobleSignature(digest, key);
  const flipped = `${signature.slice(0, 130)}${signature.endsWith('1b') ? '1c' : '1b'}`;
  expect(verifyDigestSigner(digest, flipped, signer)).toBe(false);
  expect(verifyDigestSigner(digest, signature, signer)).toBe(true);
  // Fresh bytes, so the answers come from the signer's key kept by the recovery above, not
  // from the answers kept for the exact bytes of the two checks before.
  const later = new Uint8Array(32).fill(8);
  const laterSignature = nobleSignature(later, key);
  const laterFlipped = `${laterSignature.slice(0, 130)}${laterSignature.endsWith('1b') ? '1c' : '1b'}`;
  expect(verifyDigestSigner(later, laterFlipped, signer)).toBe(false);
  expect(verifyDigestSigner(later, laterSignature, signer)).toBe(true);
});

it('answers the same bytes again from what it kept, and only the same bytes', () => {
  const key = 0x5678n;
  const signer = addressOf(key);
  const other = addressOf(0x9abcn);
  const digest = new Uint8Array(32).fill(9);
  const signature = nobleSignature(digest, key);
  const otherDigest = Uint8Array.from(digest, (byte, i) => (i === 0 ? byte ^ 1 : byte));
  // Two digests in one buffer, the signed one second: the key reads each view's own bytes, so
  // the view at offset 0 is refused and the one at offset 32 accepted (a key that ignored the
  // offset would answer both alike).
  const buffer = new Uint8Array(64);
  buffer.set(otherDigest, 0);
  buffer.set(digest, 32);
  const before = buffer.subarray(0, 32);
  const inside = buffer.subarray(32);
  for (let round = 0; round < 2; round++) {
    expect(verifyDigestSigner(before, signature, signer)).toBe(false);
    expect(verifyDigestSigner(digest, signature, signer)).toBe(true);
    expect(verifyDigestSigner(inside, signature, signer)).toBe(true);
    // An accepted signature is no pass for another digest or another claimed signer.
    expect(verifyDigestSigner(otherDigest, signature, signer)).toBe(false);
    expect(verifyDigestSigner(digest, signature, other)).toBe(false);
    expect(verifyDigestSigner(digest, signature, `${signer}|`)).toBe(false);
  }
});

it('accepts a recorded own signature for its exact bytes only, never over a refusal', () => {
  const key = 0x2468n;
  const signer = addressOf(key);
  const other = addressOf(0x1357n);
  const digest = new Uint8Array(32).fill(11);
  const signature = nobleSignature(digest, key);
  rememberOwnSignature(digest, signature, signer);
  expect(verifyDigestSigner(digest, signature, signer)).toBe(true);
  // The record is no pass for another signer, another digest or another encoding.
  const otherDigest = Uint8Array.from(digest, (byte, i) => (i === 5 ? byte ^ 1 : byte));
  expect(verifyDigestSigner(digest, signature, other)).toBe(false);
  expect(verifyDigestSigner(otherDigest, signature, signer)).toBe(false);
  for (const variant of variants(signature).slice(1))
    expect(verifyDigestSigner(digest, variant, signer)).toBe(false);

  // A record of bytes already refused leaves the refusal (a wrong record: another key signed).
  const later = new Uint8Array(32).fill(12);
  const byOther = nobleSignature(later, 0x1357n);
  expect(verifyDigestSigner(later, byOther, signer)).toBe(false);
  rememberOwnSignature(later, byOther, signer);
  expect(verifyDigestSigner(later, byOther, signer)).toBe(false);
});

it('does not record a signature whose r might be R.x − n', () => {
  // Bytes the full check refuses, with an r below p − n: a record of them must not count.
  const key = 0x3579n;
  const signer = addressOf(key);
  const digest = new Uint8Array(32).fill(13);
  const good = nobleSignature(digest, key);
  const smallR = `0x${5n.toString(16).padStart(64, '0')}${good.slice(66)}`;
  expect(byRecovery(digest, smallR, signer)).toBe(false);
  rememberOwnSignature(digest, smallR, signer);
  expect(verifyDigestSigner(digest, smallR, signer)).toBe(false);
});

it("checks a signer's first recorded signature in full: a signer that signs wrong is refused", () => {
  // As if this process's signer were broken: the bytes it records are another key's signature.
  const signer = addressOf(0x4242n);
  const digest = new Uint8Array(32).fill(14);
  const wrong = nobleSignature(digest, 0x4343n);
  rememberOwnSignature(digest, wrong, signer);
  expect(verifyDigestSigner(digest, wrong, signer)).toBe(false);
  // Its good signature is then checked, accepted and the signer's key kept.
  const good = nobleSignature(digest, 0x4242n);
  rememberOwnSignature(digest, good, signer);
  expect(verifyDigestSigner(digest, good, signer)).toBe(true);
});
