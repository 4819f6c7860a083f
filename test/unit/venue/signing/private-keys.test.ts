import fc from 'fast-check';
import { hexToBigInt, numberToHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../../src/errors/index.ts';
import {
  accountFromPrivateKey,
  addressOfPrivateKey,
  formatSubaccountId,
  generateSigningKey,
  signOrder,
  signRegistration,
  verifyOrderSignature,
  verifyRegistration,
} from '../../../../src/venue/signing/index.ts';
import { DEFAULT_SIGNING_DOMAIN, type OrderRequestBody } from '../../../../src/venue/types.ts';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const GOOD_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ORDER: OrderRequestBody = {
  marketId: 3,
  isBuy: false,
  orderType: 'LIMIT',
  amount: '1.5',
  price: '65000.5',
  expiryTs: 1790000000001,
  isReduce: true,
};

const keyArb = fc.bigInt({ min: 1n, max: N - 1n }).map((k) => numberToHex(k, { size: 32 }));

async function rejection(run: () => Promise<unknown>): Promise<QuantaError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    return error as QuantaError;
  }
  throw new Error('expected a rejection');
}

/** Every way a key could show up in an error: hex either case, and decimal. */
function expectNoKey(error: QuantaError, key: string): void {
  const hex = key.slice(2).toLowerCase();
  const shown = [error.message, String(error.stack), JSON.stringify(error), String(error.cause)]
    .join('\n')
    .toLowerCase();
  expect(shown).not.toContain(hex);
  // The library's own message prints the key in decimal; short numbers would match line numbers.
  const decimal = /^0x[0-9a-f]+$/i.test(key) ? hexToBigInt(key as Hex).toString() : '';
  if (decimal.length > 8) expect(shown).not.toContain(decimal);
  expect(error.cause).toBeUndefined();
}

describe('private keys', () => {
  const registration = (walletPrivateKey: Hex) =>
    signRegistration({
      walletPrivateKey,
      signingPrivateKey: GOOD_KEY,
      brokerId: 1,
      subaccountIndex: 1,
      expiryTs: 1790000000000,
      nonce: 0,
      chainId: 1,
      domain: DEFAULT_SIGNING_DOMAIN,
    });

  it.each([
    ['zero', `0x${'0'.repeat(64)}`],
    ['the curve order', `0x${N.toString(16)}`],
    ['all ones', `0x${'f'.repeat(64)}`],
    ['too short', '0x1234abcd'],
    ['not hex', `0x${'z'.repeat(64)}`],
  ])('a bad wallet key (%s) is refused without being quoted', async (_, key) => {
    const error = await rejection(() => registration(key as Hex));
    expect(error.code).toBe(ErrorCodes.INVALID_PRIVATE_KEY);
    expect(error.message).toMatch(/^wallet key: /);
    expectNoKey(error, key);
  });

  it('pins the two messages', async () => {
    expect(
      (await rejection(() => registration(`0x${'0'.repeat(64)}`))).message,
    ).toMatchInlineSnapshot(
      `"wallet key: not a valid secp256k1 private key (zero or not below the curve order)"`,
    );
    const error = await rejection(() =>
      signOrder({
        signingPrivateKey: '0x1234',
        subaccountId: formatSubaccountId({
          brokerId: 1,
          address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
          index: 1,
        }),
        body: ORDER,
        domain: DEFAULT_SIGNING_DOMAIN,
      }),
    );
    expect(error.message).toMatchInlineSnapshot(
      `"signing key: malformed private key (expected 0x + 64 hex digits, a valid secp256k1 private key)"`,
    );
  });

  it('a bad order body is refused before signing, naming the field', async () => {
    const error = await rejection(() =>
      signOrder({
        signingPrivateKey: GOOD_KEY,
        subaccountId: `1_0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266_1`,
        body: { ...ORDER, amount: '-1.5' },
        domain: DEFAULT_SIGNING_DOMAIN,
      }),
    );
    expect(error.code).toBe(ErrorCodes.INVALID_WIRE_DATA);
    expect(error.shortMessage).toMatchInlineSnapshot(
      `"order request: amount: expected a plain non-negative decimal string with at most 18 fraction digits, got "-1.5""`,
    );
  });

  it('derives a key’s account once: the same object for the same key, viem’s address', () => {
    const keys = Array.from({ length: 10 }, (_, i) =>
      numberToHex(BigInt(i + 1) * 7919n, { size: 32 }),
    );
    const first = accountFromPrivateKey(keys[0]!, 'wallet key');
    expect(first.address).toBe(privateKeyToAccount(keys[0]!).address);
    expect(accountFromPrivateKey(keys[0]!, 'signing key')).toBe(first);
    // Nine more keys: the first is no longer kept (eight at a time) and is derived again.
    for (const key of keys.slice(1))
      expect(accountFromPrivateKey(key, 'wallet key').address).toBe(
        privateKeyToAccount(key).address,
      );
    const again = accountFromPrivateKey(keys[0]!, 'wallet key');
    expect(again).not.toBe(first);
    expect(again.address).toBe(first.address);
    // A bad key is refused every time, never kept.
    for (let i = 0; i < 2; i++)
      expect(() => accountFromPrivateKey(`0x${'0'.repeat(64)}`, 'wallet key')).toThrow(QuantaError);
  });

  it('addressOfPrivateKey is viem’s checksummed address of the key (200 random keys and the edges)', () => {
    fc.assert(
      fc.property(keyArb, (key) => {
        expect(addressOfPrivateKey(key, 'signing key')).toBe(privateKeyToAccount(key).address);
      }),
      { numRuns: 200 },
    );
    for (const key of [numberToHex(1n, { size: 32 }), numberToHex(N - 1n, { size: 32 }), GOOD_KEY])
      expect(addressOfPrivateKey(key, 'wallet key')).toBe(privateKeyToAccount(key).address);
  });

  it('addressOfPrivateKey refuses a bad key as accountFromPrivateKey does, never quoting it', () => {
    const bad = [
      `0x${'0'.repeat(64)}`,
      numberToHex(N, { size: 32 }),
      `0x${'f'.repeat(64)}`,
      `${GOOD_KEY.slice(0, 65)}`,
      `${GOOD_KEY}00`,
      GOOD_KEY.slice(2),
    ];
    for (const key of bad) {
      let fast: unknown;
      let viem: unknown;
      try {
        addressOfPrivateKey(key, 'wallet key');
      } catch (error) {
        fast = error;
      }
      try {
        accountFromPrivateKey(key, 'wallet key');
      } catch (error) {
        viem = error;
      }
      expect(fast).toBeInstanceOf(QuantaError);
      expect((fast as QuantaError).code).toBe(ErrorCodes.INVALID_PRIVATE_KEY);
      expect((fast as QuantaError).message).toBe((viem as QuantaError).message);
      expect((fast as QuantaError).message).not.toContain(key.replace(/^0x/, '').slice(0, 16));
    }
  });

  it('generateSigningKey gives distinct well-formed keys', () => {
    const a = generateSigningKey();
    expect(a).toMatch(/^0x[0-9a-f]{64}$/);
    expect(generateSigningKey()).not.toBe(a);
  });

  it('any valid keys sign registrations and orders that verify (50 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(keyArb, keyArb),
        fc.integer({ min: 1, max: 1000 }),
        async ([walletKey, sessionKey], index) => {
          const body = await signRegistration({
            walletPrivateKey: walletKey,
            signingPrivateKey: sessionKey,
            brokerId: 7,
            subaccountIndex: index,
            expiryTs: 1790000000000,
            nonce: 3,
            chainId: 42161,
            domain: DEFAULT_SIGNING_DOMAIN,
          });
          expect(
            await verifyRegistration(body, DEFAULT_SIGNING_DOMAIN, { brokerId: 7 }),
          ).toMatchObject({ valid: true });
          const signed = await signOrder({
            signingPrivateKey: sessionKey,
            subaccountId: body.subaccountId,
            body: ORDER,
            domain: DEFAULT_SIGNING_DOMAIN,
          });
          expect(signed.signer).toBe(body.signingKey);
          expect(
            await verifyOrderSignature({
              subaccountId: body.subaccountId,
              body: signed.body,
              signature: signed.signature,
              signer: signed.signer,
              domain: DEFAULT_SIGNING_DOMAIN,
            }),
          ).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });
});
