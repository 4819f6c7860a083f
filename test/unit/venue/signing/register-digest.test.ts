import fc from 'fast-check';
import { bytesToHex, hashTypedData, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { registerDigest } from '../../../../src/venue/signing/register-digest.ts';
import {
  buildRegisterTypedData,
  formatSubaccountId,
  type RegisterTypedData,
} from '../../../../src/venue/signing/index.ts';
import type { SigningDomainConfig } from '../../../../src/venue/types.ts';
import { addressArb, domainArb } from '../../../helpers/signing-arbitraries.ts';

const fieldsArb = fc.record({
  wallet: addressArb,
  signingKey: addressArb,
  brokerId: fc.bigInt({ min: 0n, max: 2n ** 48n - 1n }),
  index: fc.bigInt({ min: 1n, max: 2n ** 48n - 1n }),
  expiryTs: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  nonce: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  chainId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  lowercase: fc.boolean(),
});

const DOMAIN: SigningDomainConfig = {
  name: 'TradingService',
  version: '1',
  registerVerifyingContract: '0x0000000000000000000000000000000000000001',
  orderVerifyingContract: '0x0000000000000000000000000000000000000002',
  orderChainId: 1,
};

function typedDataOf(domain: SigningDomainConfig = DOMAIN): RegisterTypedData {
  const wallet = privateKeyToAccount(`0x${'11'.repeat(32)}`).address;
  return buildRegisterTypedData(
    {
      subaccountId: formatSubaccountId({ brokerId: 1, address: wallet, index: 1 }),
      ethAddress: wallet,
      signingKey: privateKeyToAccount(`0x${'22'.repeat(32)}`).address,
      expiryTs: 1_800_000_000_000,
      nonce: 3,
      chainId: 42161,
    },
    domain,
  );
}

describe('registerDigest (direct encoding) against viem hashTypedData', () => {
  it('gives viem’s digest byte for byte on random registrations and domains', () => {
    fc.assert(
      fc.property(fieldsArb, domainArb, (fields, domain) => {
        const typedData = buildRegisterTypedData(
          {
            subaccountId: formatSubaccountId({
              brokerId: fields.brokerId,
              address: fields.wallet,
              index: fields.index,
            }),
            ethAddress: fields.lowercase ? fields.wallet.toLowerCase() : fields.wallet,
            signingKey: fields.lowercase ? fields.signingKey.toLowerCase() : fields.signingKey,
            expiryTs: fields.expiryTs,
            nonce: fields.nonce,
            chainId: fields.chainId,
          },
          domain,
        );
        expect(bytesToHex(registerDigest(typedData))).toBe(hashTypedData(typedData));
      }),
      { seed: 3131, numRuns: 300 },
    );
  });

  it('refuses what viem refuses: a bad address, a short subaccount word, an integer out of range', () => {
    const typedData = typedDataOf();
    const broken: RegisterTypedData[] = [
      { ...typedData, message: { ...typedData.message, userAddress: '0x1234' } },
      // Mixed case with a wrong checksum.
      {
        ...typedData,
        message: {
          ...typedData.message,
          sessionKey: `0xAb${typedData.message.sessionKey.slice(4).toLowerCase()}` as Address,
        },
      },
      { ...typedData, message: { ...typedData.message, subAccountId: '0x0102' } },
      { ...typedData, message: { ...typedData.message, nonce: 1n << 128n } },
      { ...typedData, message: { ...typedData.message, expiryTimeStamp: -1n } },
      { ...typedData, message: { ...typedData.message, chainId: 1n << 256n } },
      { ...typedData, domain: { ...typedData.domain, verifyingContract: '0xabc' } },
    ];
    for (const data of broken) {
      expect(() => hashTypedData(data)).toThrow();
      expect(() => registerDigest(data)).toThrow();
    }
    // The refused domain was not kept: the same domain refuses again.
    expect(() => registerDigest(broken.at(-1)!)).toThrow();
    expect(bytesToHex(registerDigest(typedData))).toBe(hashTypedData(typedData));
  });
});
