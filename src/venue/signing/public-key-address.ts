import { keccak256Bytes } from './keccak256.ts';

/**
 * The address (lowercase hex, `0x` + 40 digits) of an uncompressed secp256k1 public key (65
 * bytes, `04` ‖ x ‖ y): the last 20 bytes of the keccak-256 of x ‖ y.
 */
export function addressOfPublicKey(point: Uint8Array): `0x${string}` {
  const hash = keccak256Bytes(point.subarray(1));
  return `0x${Buffer.from(hash.buffer, hash.byteOffset + 12, 20).toString('hex')}`;
}
