import fc from 'fast-check';
import { bytesToHex, numberToHex, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { SigningDomainConfig } from '../../src/venue/types.ts';

/** The order of the secp256k1 group. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Checksummed addresses of random keys. */
export const addressArb: fc.Arbitrary<Address> = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map(
    (bytes) =>
      privateKeyToAccount(
        numberToHex((BigInt(bytesToHex(bytes)) % (SECP256K1_N - 1n)) + 1n, { size: 32 }),
      ).address,
  );

/** Signing domains with random names and contracts. */
export const domainArb: fc.Arbitrary<SigningDomainConfig> = fc.record({
  name: fc.string({ maxLength: 24 }),
  version: fc.constantFrom('1', '2', 'v1.0'),
  registerVerifyingContract: addressArb,
  orderVerifyingContract: addressArb,
  orderChainId: fc.integer({ min: 0, max: 2 ** 40 }),
});
