import fc from 'fast-check';
import { bytesToHex, hashTypedData, numberToHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../../src/errors/index.ts';
import {
  buildOrderTypedData,
  formatSubaccountId,
  orderDigest,
  orderSigningKey,
  signOrder,
  verifyOrderSignature,
} from '../../../../src/venue/signing/index.ts';
import type { OrderRequestBody, SigningDomainConfig } from '../../../../src/venue/types.ts';
import { addressArb, domainArb } from '../../../helpers/signing-arbitraries.ts';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const INT128_MAX = (1n << 127n) - 1n;
const X18 = 10n ** 18n;

const keyArb = fc.bigInt({ min: 1n, max: N - 1n }).map((k) => numberToHex(k, { size: 32 }));

/** A decimal string of an x18 value in [0, max]: integer part and up to 18 fraction digits. */
const decimalArb = (max: bigint): fc.Arbitrary<string> =>
  fc.tuple(fc.bigInt({ min: 0n, max }), fc.integer({ min: 0, max: 18 })).map(([x18, digits]) => {
    const unit = 10n ** BigInt(18 - digits);
    const value = (x18 / unit) * unit;
    const whole = (value / X18).toString();
    if (digits === 0) return whole;
    const fraction = (value % X18).toString().padStart(18, '0').slice(0, digits);
    return `${whole}.${fraction}`;
  });

const bodyArb: fc.Arbitrary<OrderRequestBody> = fc.record({
  marketId: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  isBuy: fc.boolean(),
  orderType: fc.constantFrom('MARKET' as const, 'LIMIT' as const),
  amount: fc.oneof(decimalArb(1_000_000n * X18), decimalArb(INT128_MAX)),
  price: fc.oneof(decimalArb(100_000n * X18), decimalArb(INT128_MAX)),
  expiryTs: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  isReduce: fc.boolean(),
});

const subaccountArb = fc
  .tuple(
    fc.bigInt({ min: 0n, max: 2n ** 48n - 1n }),
    addressArb,
    fc.bigInt({ min: 1n, max: 2n ** 48n - 1n }),
  )
  .map(([brokerId, address, index]) => formatSubaccountId({ brokerId, address, index }));

/** A domain for the fixed cases. */
const FIXED_DOMAIN: SigningDomainConfig = {
  name: 'TradingService',
  version: '1',
  registerVerifyingContract: '0x0000000000000000000000000000000000000001',
  orderVerifyingContract: '0x0000000000000000000000000000000000000002',
  orderChainId: 1,
};

describe('order signing (direct encoding + @noble/curves) against viem signTypedData', () => {
  it('gives viem’s digest and signature byte for byte on random orders, keys and domains', async () => {
    await fc.assert(
      fc.asyncProperty(
        keyArb,
        subaccountArb,
        bodyArb,
        domainArb,
        async (privateKey, subaccountId, body, domain) => {
          const account = privateKeyToAccount(privateKey);
          const typedData = buildOrderTypedData(
            { subaccountId, body, signer: account.address },
            domain,
          );
          const expected = await account.signTypedData(typedData);
          expect(bytesToHex(orderDigest(subaccountId, body, account.address, domain))).toBe(
            hashTypedData(typedData),
          );
          const key = orderSigningKey(privateKey);
          expect(key.address).toBe(account.address);
          expect(key.signOrderBody(subaccountId, body, domain)).toBe(expected);
          const signed = await signOrder({
            signingPrivateKey: privateKey,
            subaccountId,
            body,
            domain,
          });
          expect(signed).toEqual({ body, signature: expected, signer: account.address });
          expect(
            await verifyOrderSignature({
              subaccountId,
              body,
              signature: signed.signature,
              signer: signed.signer,
              domain,
            }),
          ).toBe(true);
        },
      ),
      { seed: 1717, numRuns: 300 },
    );
  });

  it('refuses what the struct cannot carry instead of signing a wrapped value', async () => {
    const key = orderSigningKey(`0x${'11'.repeat(32)}`);
    const domain = FIXED_DOMAIN;
    const sub = formatSubaccountId({ brokerId: 1, address: key.address, index: 1 });
    const body: OrderRequestBody = {
      marketId: 1,
      isBuy: true,
      orderType: 'LIMIT',
      amount: '1',
      price: '1',
      expiryTs: 1,
      isReduce: false,
    };
    const tooBig = ((INT128_MAX + 1n) / X18 + 1n).toString();
    expect(() => key.signOrderBody(sub, { ...body, amount: tooBig }, domain)).toThrow(
      /amount \d+ does not fit the signed struct \(int128\)/,
    );
    expect(() => key.signOrderBody(sub, { ...body, price: tooBig }, domain)).toThrow(/int128/);
    expect(() => key.signOrderBody(sub, { ...body, marketId: 2 ** 32 }, domain)).toThrow(/uint32/);
    expect(() => key.signOrderBody(sub, { ...body, amount: '-1' }, domain)).toThrow(
      /not a plain non-negative decimal/,
    );
    // The typed-data path refuses the same values.
    expect(() =>
      buildOrderTypedData(
        { subaccountId: sub, body: { ...body, price: tooBig }, signer: key.address },
        domain,
      ),
    ).toThrow(/int128/);
    // And the edge (signOrder) parses untrusted bodies with the wire schema.
    await expect(
      signOrder({
        signingPrivateKey: `0x${'11'.repeat(32)}`,
        subaccountId: sub,
        body: { ...body, expiryTs: -1 },
        domain,
      }),
    ).rejects.toMatchObject({ code: ErrorCodes.INVALID_WIRE_DATA });
  });

  it('derives each key once and never shows it when logged, serialized or refused', () => {
    const privateKey: Hex = `0x${'2a'.repeat(32)}`;
    const key = orderSigningKey(privateKey);
    expect(orderSigningKey(privateKey)).toBe(key);
    const shown = [inspect(key, { showHidden: true, depth: 5 }), JSON.stringify(key)];
    for (const text of shown) {
      expect(text.toLowerCase()).not.toContain('2a'.repeat(32));
      expect(text).not.toContain(BigInt(privateKey).toString());
    }
    expect(JSON.parse(JSON.stringify(key))).toEqual({ address: key.address });
    const bad = `0x${'f'.repeat(64)}`;
    let caught: unknown;
    try {
      orderSigningKey(bad);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(QuantaError);
    expect((caught as QuantaError).code).toBe(ErrorCodes.INVALID_PRIVATE_KEY);
    expect(inspect(caught, { depth: 5 })).not.toContain('f'.repeat(64));
  });
});

describe('orderDigest kept by its inputs', () => {
  const domain = FIXED_DOMAIN;
  const signer = privateKeyToAccount(`0x${'22'.repeat(32)}`).address;
  const other = privateKeyToAccount(`0x${'33'.repeat(32)}`).address;
  const sub = formatSubaccountId({ brokerId: 1, address: signer, index: 1 });
  const body: OrderRequestBody = {
    marketId: 1,
    isBuy: true,
    orderType: 'LIMIT',
    amount: '0.5',
    price: '3000.25',
    expiryTs: 1_767_225_600_000,
    isReduce: false,
  };
  const viemDigest = (
    subaccountId: string,
    order: OrderRequestBody,
    who: typeof signer,
    d: SigningDomainConfig,
  ): Hex => hashTypedData(buildOrderTypedData({ subaccountId, body: order, signer: who }, d));

  it('gives each input its own digest right after another one, and fresh bytes each time', () => {
    const first = orderDigest(sub, body, signer, domain);
    const again = orderDigest(sub, body, signer, domain);
    expect(again).not.toBe(first);
    expect(bytesToHex(again)).toBe(bytesToHex(first));
    again.fill(0);
    expect(bytesToHex(orderDigest(sub, body, signer, domain))).toBe(bytesToHex(first));
    // One input changed at a time, each computed right after the original was (kept).
    const cases: [string, OrderRequestBody, typeof signer, SigningDomainConfig][] = [
      [formatSubaccountId({ brokerId: 1, address: signer, index: 2 }), body, signer, domain],
      [sub, body, other, domain],
      [sub, body, signer, { ...domain, name: 'Other' }],
      [sub, body, signer, { ...domain, version: '2' }],
      [sub, body, signer, { ...domain, orderChainId: 2 }],
      [sub, body, signer, { ...domain, orderVerifyingContract: other }],
      [sub, { ...body, marketId: 2 }, signer, domain],
      [sub, { ...body, isBuy: false }, signer, domain],
      [sub, { ...body, orderType: 'MARKET' }, signer, domain],
      [sub, { ...body, amount: '0.6' }, signer, domain],
      [sub, { ...body, price: '3000.26' }, signer, domain],
      [sub, { ...body, expiryTs: body.expiryTs + 1 }, signer, domain],
      [sub, { ...body, isReduce: true }, signer, domain],
    ];
    for (const [subaccountId, order, who, d] of cases) {
      orderDigest(sub, body, signer, domain);
      const digest = bytesToHex(orderDigest(subaccountId, order, who, d));
      expect(digest).toBe(viemDigest(subaccountId, order, who, d));
      expect(digest).not.toBe(bytesToHex(first));
    }
  });
});
