import { signRecoverable } from 'tiny-secp256k1';

/**
 * Signs a 32-byte digest with a 32-byte private key (big-endian, 1 ≤ d < n) and serializes the
 * signature as viem does: `0x` r ‖ s ‖ v, 32 + 32 + 1 bytes, v 27 or 28 (the parity of R's y,
 * flipped with s). The signature is libsecp256k1's (the tiny-secp256k1 package, its WebAssembly
 * build shipped in the package): nonce by RFC 6979 without extra data, s made low. That is what
 * noble's `sign` gives with `lowS: true` and no extra entropy, as viem asks of it: the same
 * bytes (sign-digest.test.ts compares them with noble's on random keys and digests, and
 * order-signing-key.test.ts with viem's). The library seeds its context's blinding with random
 * bytes when it loads; the blinding changes no result, so signatures stay deterministic.
 *
 * @throws Error for a digest that is not 32 bytes or a key out of range (the callers' keys were
 *   checked when they were read).
 */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): `0x${string}` {
  const { signature, recoveryId } = signRecoverable(digest, privateKey);
  const rs = Buffer.from(signature.buffer, signature.byteOffset, signature.byteLength);
  return `0x${rs.toString('hex')}${(recoveryId & 1) === 1 ? '1c' : '1b'}`;
}

/** The 32 bytes of a private key given as `0x` + 64 hex digits (a checked key), in its own buffer. */
export function privateKeyBytes(privateKey: string): Uint8Array {
  return Uint8Array.from(Buffer.from(privateKey.slice(2), 'hex'));
}
