import { createHmac } from 'node:crypto';
import { mod } from '@noble/curves/abstract/modular';
import {
  bytesToNumberBE,
  concatBytes,
  createHmacDrbg,
  numberToBytesBE,
} from '@noble/curves/abstract/utils';
import { secp256k1 } from '@noble/curves/secp256k1';
import { invert } from './mod-inverse.ts';
import { secretGeneratorMultiple } from './point-tables.ts';

const N = secp256k1.CURVE.n;
const HALF_N = N >> 1n;

/** A secp256k1 signature: r, low s, and the recovery bit viem writes as v − 27. */
export interface DigestSignature {
  readonly r: bigint;
  readonly s: bigint;
  readonly recovery: number;
}

/** A signature as viem serializes it: `0x` r ‖ s ‖ v, 32 + 32 + 1 bytes, v 27 or 28. */
export function signatureHex(signature: DigestSignature): `0x${string}` {
  const r = signature.r.toString(16).padStart(64, '0');
  const s = signature.s.toString(16).padStart(64, '0');
  return `0x${r}${s}${signature.recovery === 1 ? '1c' : '1b'}`;
}

/** HMAC-SHA256 of the concatenated `messages` under `key`, by node (OpenSSL). */
function hmacSha256(key: Uint8Array, ...messages: Uint8Array[]): Uint8Array {
  const hmac = createHmac('sha256', key);
  for (const message of messages) hmac.update(message);
  const digest = hmac.digest();
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
}

/**
 * Signs a 32-byte digest with the private scalar `d` (1 ≤ d < n) as noble's secp256k1 `sign`
 * does with `lowS: true` and no extra entropy (what viem asks of it): the nonce k by RFC 6979
 * (noble's own HMAC-DRBG, on node's HMAC-SHA256), r = (k·G).x mod n, s = k⁻¹(h + r·d) mod n made
 * low, and the recovery bit. The same signatures, byte for byte (sign-digest.test.ts compares
 * them with noble's on random keys and digests, and order-signing-key.test.ts with viem's); only
 * k·G is computed differently: through the generator's affine table (point-tables.ts), a mixed
 * addition in every window, in about half the time of noble's projective wNAF.
 *
 * @throws Error for a scalar out of range (the callers' keys were checked when they were read).
 */
export function signDigest(digest: Uint8Array, d: bigint): DigestSignature {
  if (digest.length !== 32) throw new Error('signDigest: the digest must be 32 bytes');
  if (d <= 0n || d >= N) throw new Error('signDigest: private scalar out of range');
  // A 32-byte digest is the whole integer h (bits2int of 256 bits), reduced mod n.
  const h = mod(bytesToNumberBE(digest), N);
  const seed = concatBytes(numberToBytesBE(d, 32), numberToBytesBE(h, 32));
  const drbg = createHmacDrbg<DigestSignature>(32, 32, hmacSha256);
  return drbg(seed, (kBytes) => signWithNonce(bytesToNumberBE(kBytes), h, d));
}

/** noble's `k2sig`: the signature for nonce k, or undefined when k or the result is unusable. */
function signWithNonce(k: bigint, h: bigint, d: bigint): DigestSignature | undefined {
  if (k <= 0n || k >= N) return undefined;
  const q = secretGeneratorMultiple(k);
  const r = mod(q.x, N);
  if (r === 0n) return undefined;
  const e = mod(h + r * d, N);
  const s = mod(invert(k, N) * e, N);
  if (s === 0n) return undefined;
  // s·k = h + r·d: one multiplication proves the inverse (mod-inverse.ts is ours, not noble's),
  // as the paper venue of `quanta sim` no longer checks every signature this process makes
  // (verify-digest-signer.ts rememberOwnSignature).
  if (mod(s * k, N) !== e) throw new Error('signDigest: s·k ≠ h + r·d; refusing the signature');
  // Bit 1: q.x was at least n (r is q.x − n); bit 0: q.y's parity, flipped with s.
  const recovery = (q.x === r ? 0 : 2) | Number(q.y & 1n);
  return s > HALF_N ? { r, s: N - s, recovery: recovery ^ 1 } : { r, s, recovery };
}
