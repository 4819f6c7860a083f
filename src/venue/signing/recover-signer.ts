import { recover } from 'tiny-secp256k1';
import {
  recoverTypedDataAddress,
  type Address,
  type TypedData,
  type TypedDataDefinition,
} from 'viem';

import { addressOfPublicKey } from './public-key-address.ts';

/** The order of the secp256k1 group. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/**
 * n and n/2 as 64 lowercase hex digits: two hex strings of one length compare as their numbers
 * do, so a signature's r and s are checked without parsing them (a venue checks every order's).
 */
const N_HEX = SECP256K1_N.toString(16).padStart(64, '0');
const HALF_N_HEX = (SECP256K1_N / 2n).toString(16).padStart(64, '0');
const ZERO_HEX = '0'.repeat(64);

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * True when `signature` is the one canonical encoding of its signature: 65 bytes, `v` 27 or 28,
 * `0 < r < n` and low `s` (`s <= n/2`).
 *
 * Why it matters: for every valid (r, s, v) the triple (r, n − s, v ^ 1) recovers the same
 * address. A venue whose replay guard (docs/conventions.md §4.3) keys on signature bytes would accept
 * that second encoding as a new order, so the verifier refuses it.
 */
export function isCanonicalSignature(signature: string): boolean {
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return false;
  const r = signature.slice(2, 66).toLowerCase();
  const s = signature.slice(66, 130).toLowerCase();
  const v = signature.slice(130, 132).toLowerCase();
  return (
    (v === '1b' || v === '1c') && r !== ZERO_HEX && r < N_HEX && s !== ZERO_HEX && s <= HALF_N_HEX
  );
}

/**
 * The address that made `signature` over `typedData`, or `undefined` when the signature is not
 * canonical or recovers nothing. Never throws for a bad signature: callers compare addresses.
 */
export async function recoverTypedDataSigner<
  const T extends TypedData | Record<string, unknown>,
  P extends keyof T | 'EIP712Domain',
>(typedData: TypedDataDefinition<T, P>, signature: string): Promise<Address | undefined> {
  if (!isCanonicalSignature(signature)) return undefined;
  try {
    return await recoverTypedDataAddress<T, P>({
      ...typedData,
      signature: signature as `0x${string}`,
    });
  } catch {
    return undefined;
  }
}

/**
 * The address (lowercase hex) that made `signature` over a 32-byte `digest`, or `undefined` when
 * the signature is not canonical or recovers nothing. Synchronous and without viem's per-call
 * dynamic import: the paper venue checks orders with it (through `verifyDigestSigner`). The
 * public key is recovered by libsecp256k1 (tiny-secp256k1's WebAssembly build) from r, s and
 * the parity v − 27: the key noble's `recoverPublicKey` gives (verify-digest-signer.test.ts
 * compares the two).
 */
export function recoverDigestSigner(digest: Uint8Array, signature: string): string | undefined {
  if (!isCanonicalSignature(signature)) return undefined;
  try {
    const recovery = Number.parseInt(signature.slice(130, 132), 16) - 27;
    const rs = Buffer.from(signature.slice(2, 130), 'hex');
    const point = recover(digest, rs, recovery === 1 ? 1 : 0, false);
    if (point === null) return undefined;
    return addressOfPublicKey(point);
  } catch {
    return undefined;
  }
}
