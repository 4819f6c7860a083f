/**
 * noble's secp256k1 as the reference the signing tests compare our signing and recovery with
 * (src/venue/signing runs libsecp256k1): a signature as viem makes it, and the address a
 * signature recovers to.
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak256Bytes } from '../../src/venue/signing/keccak256.ts';

/** noble's signature as viem serializes it: `0x` r ‖ s ‖ v, v = 27 + the recovery bit. */
export function nobleSignature(digest: Uint8Array, key: bigint): string {
  const { r, s, recovery } = secp256k1.sign(digest, key, { lowS: true, extraEntropy: false });
  const hex = (value: bigint): string => value.toString(16).padStart(64, '0');
  return `0x${hex(r)}${hex(s)}${recovery === 1 ? '1c' : '1b'}`;
}

/** The lowercase address `signature` over `digest` recovers to by noble; throws when none. */
export function nobleRecoveredAddress(digest: Uint8Array, signature: string): string {
  const point = secp256k1.Signature.fromCompact(signature.slice(2, 130))
    .addRecoveryBit(Number.parseInt(signature.slice(130), 16) - 27)
    .recoverPublicKey(digest);
  const hash = keccak256Bytes(point.toRawBytes(false).subarray(1));
  return `0x${Buffer.from(hash.subarray(12)).toString('hex')}`;
}
