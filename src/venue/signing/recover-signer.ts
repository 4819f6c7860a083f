import type { ProjPointType } from '@noble/curves/abstract/weierstrass';
import { secp256k1 } from '@noble/curves/secp256k1';
import {
  recoverTypedDataAddress,
  type Address,
  type TypedData,
  type TypedDataDefinition,
} from 'viem';

/** The order of the secp256k1 group. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
import { keccak256Bytes } from './keccak256.ts';

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
  const r = BigInt(`0x${signature.slice(2, 66)}`);
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130, 132), 16);
  return (v === 27 || v === 28) && r > 0n && r < SECP256K1_N && s > 0n && s <= SECP256K1_N / 2n;
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
 * The public key that made `signature` over a 32-byte `digest`, with its address (lowercase
 * hex), or `undefined` when the signature is not canonical or recovers nothing. Synchronous and
 * without viem's per-call dynamic import: the paper venue checks every order with it (through
 * `verifyDigestSigner`).
 */
export function recoverDigestPoint(
  digest: Uint8Array,
  signature: string,
): { readonly point: ProjPointType<bigint>; readonly address: string } | undefined {
  if (!isCanonicalSignature(signature)) return undefined;
  try {
    const recovery = Number.parseInt(signature.slice(130, 132), 16) - 27;
    const point = secp256k1.Signature.fromCompact(signature.slice(2, 130))
      .addRecoveryBit(recovery)
      .recoverPublicKey(digest);
    const hash = keccak256Bytes(point.toRawBytes(false).subarray(1));
    return { point, address: `0x${Buffer.from(hash.subarray(12)).toString('hex')}` };
  } catch {
    return undefined;
  }
}
