import {
  getTypesForEIP712Domain,
  hashDomain,
  hashStruct,
  hashTypedData,
  recoverTypedDataAddress,
  type Address,
  type Hex,
} from 'viem';
import { describe, expect, it } from 'vitest';
import {
  ORDER_TYPES,
  REGISTER_TYPES,
  buildOrderTypedData,
  buildRegisterTypedData,
  formatSubaccountId,
  packSubaccountId,
  parseSubaccountId,
  signOrder,
  signRegistration,
  verifyOrderSignature,
  verifyRegistration,
} from '../../../../src/venue/signing/index.ts';
import type { OrderRequestBody, SigningDomainConfig } from '../../../../src/venue/types.ts';
import { readVector } from '../../../helpers/vectors.ts';

interface VectorDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Address;
}
interface RegistrationBody {
  subaccountId: string;
  signingKey: Address;
  ethAddress: Address;
  expiryTs: number;
  nonce: number;
  chainId: number;
  ethSignature: Hex;
  signingSignature: Hex;
}
interface Eip712Vectors {
  keys: Record<'wallet' | 'signingKey', { privateKey: Hex; address: Address }>;
  typeStrings: Record<'Register' | 'Order', string>;
  subaccountPacking: { subaccountId: string; bytes32: Hex }[];
  registrations: {
    request: { headers: { 'Broker-Id': string }; body: RegistrationBody };
    domain: VectorDomain;
    domainSeparator: Hex;
    structHash: Hex;
    digest: Hex;
  }[];
  orders: {
    subaccountId: string;
    body: OrderRequestBody;
    headers: { 'Broker-Id': string; 'Service-Signer-Address': Address; 'Service-Signature': Hex };
    domain: VectorDomain;
    signedStruct: Record<string, string | number | boolean>;
    digest: Hex;
  }[];
}

const vectors = readVector<Eip712Vectors>('eip712.json');
const { wallet, signingKey } = vectors.keys;

/** The configuration a deployment with these vectors' domains would have. */
function domainConfig(register: VectorDomain, order: VectorDomain): SigningDomainConfig {
  return {
    name: register.name,
    version: register.version,
    registerVerifyingContract: register.verifyingContract,
    orderVerifyingContract: order.verifyingContract,
    orderChainId: order.chainId,
  };
}
const firstOrder = vectors.orders[0]!;
const registerDomain = (domain: VectorDomain): SigningDomainConfig =>
  domainConfig(domain, firstOrder.domain);
const orderDomain = (domain: VectorDomain): SigningDomainConfig =>
  domainConfig(vectors.registrations[0]!.domain, domain);

/** EIP-712 `encodeType` for a struct without nested structs. */
function typeString(name: string, fields: readonly { name: string; type: string }[]): string {
  return `${name}(${fields.map((field) => `${field.type} ${field.name}`).join(',')})`;
}

function domainSeparator(domain: VectorDomain): Hex {
  return hashDomain<Record<string, unknown>>({
    domain,
    types: { EIP712Domain: getTypesForEIP712Domain({ domain }) },
  });
}

/** Flip a signature to its other valid encoding (r, n − s, v ^ 1): same signer, new bytes. */
function malleate(signature: Hex): Hex {
  const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130, 132), 16);
  const flippedS = (n - s).toString(16).padStart(64, '0');
  return `${signature.slice(0, 66)}${flippedS}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
}

describe('eip712.json: type strings', () => {
  it('Register and Order structs encode to the vector type strings', () => {
    expect(typeString('Register', REGISTER_TYPES.Register)).toBe(vectors.typeStrings.Register);
    expect(typeString('Order', ORDER_TYPES.Order)).toBe(vectors.typeStrings.Order);
  });
});

describe('eip712.json: subaccount packing', () => {
  it.each(vectors.subaccountPacking)('$subaccountId', ({ subaccountId, bytes32 }) => {
    expect(packSubaccountId(subaccountId)).toBe(bytes32);
    expect(packSubaccountId(parseSubaccountId(subaccountId))).toBe(bytes32);
    expect(formatSubaccountId(parseSubaccountId(subaccountId))).toBe(subaccountId);
  });
});

describe.each(vectors.registrations.map((vector, i) => ({ i, ...vector })))(
  'eip712.json: registration $i',
  (vector) => {
    const body = vector.request.body;
    const domain = registerDomain(vector.domain);
    const typedData = buildRegisterTypedData(body, domain);

    it('has the vector domain, domain separator, struct hash and digest', () => {
      expect(typedData.domain).toEqual(vector.domain);
      expect(domainSeparator(typedData.domain)).toBe(vector.domainSeparator);
      expect(
        hashStruct({ data: typedData.message, primaryType: 'Register', types: REGISTER_TYPES }),
      ).toBe(vector.structHash);
      expect(hashTypedData(typedData)).toBe(vector.digest);
    });

    it('signing the request with the vector keys reproduces the body byte for byte', async () => {
      const signed = await signRegistration({
        walletPrivateKey: wallet.privateKey,
        signingPrivateKey: signingKey.privateKey,
        brokerId: BigInt(vector.request.headers['Broker-Id']),
        subaccountIndex: parseSubaccountId(body.subaccountId).index,
        expiryTs: body.expiryTs,
        nonce: body.nonce,
        chainId: body.chainId,
        domain,
      });
      expect(signed.ethSignature).toBe(body.ethSignature);
      expect(signed.signingSignature).toBe(body.signingSignature);
      expect(signed).toEqual(body);
    });

    it('verification accepts the vector request', async () => {
      const result = await verifyRegistration(body, domain, {
        brokerId: BigInt(vector.request.headers['Broker-Id']),
      });
      expect(result).toMatchObject({ valid: true, subaccount: { brokerId: 1n, index: 1n } });
    });

    it.each([
      ['nonce', { nonce: body.nonce + 1 }],
      ['expiryTs', { expiryTs: body.expiryTs + 1 }],
      ['chainId', { chainId: body.chainId + 1 }],
      ['signingKey', { signingKey: wallet.address }],
      [
        'swapped signatures',
        { ethSignature: body.signingSignature, signingSignature: body.ethSignature },
      ],
    ])('verification rejects a tampered %s', async (_, change) => {
      const result = await verifyRegistration({ ...body, ...change }, domain);
      expect(result.valid).toBe(false);
      if (!result.valid) expect(result.reason).toMatch(/^BAD_(ETH|SIGNING)_SIGNATURE$/);
    });

    it('verification rejects a signature by the other key', async () => {
      // The signing key's signature is valid over the struct, but not by ethAddress.
      const result = await verifyRegistration(
        { ...body, ethSignature: body.signingSignature },
        domain,
      );
      expect(result).toEqual({
        valid: false,
        reason: 'BAD_ETH_SIGNATURE',
        message: 'ethSignature: not signed by ethAddress over this request',
      });
    });

    it('verification rejects the malleated (high-s) encoding of a valid signature', async () => {
      const flipped = malleate(body.ethSignature);
      // The raw recovery alone would accept it: that is what the canonical check is for.
      expect(await recoverTypedDataAddress({ ...typedData, signature: flipped })).toBe(
        wallet.address,
      );
      const result = await verifyRegistration({ ...body, ethSignature: flipped }, domain);
      expect(result).toMatchObject({ valid: false, reason: 'BAD_ETH_SIGNATURE' });
    });

    it('verification rejects a wrong Broker-Id and a subaccount of another address', async () => {
      expect(await verifyRegistration(body, domain, { brokerId: 2 })).toMatchObject({
        valid: false,
        reason: 'BROKER_MISMATCH',
      });
      const other = formatSubaccountId({ brokerId: 1, address: signingKey.address, index: 1 });
      expect(await verifyRegistration({ ...body, subaccountId: other }, domain)).toMatchObject({
        valid: false,
        reason: 'SUBACCOUNT_ADDRESS_MISMATCH',
      });
      expect(await verifyRegistration({ ...body, nonce: -1 }, domain)).toMatchObject({
        valid: false,
        reason: 'MALFORMED',
      });
    });
  },
);

describe.each(vectors.orders.map((vector, i) => ({ i, ...vector })))(
  'eip712.json: order $i',
  (vector) => {
    const domain = orderDomain(vector.domain);
    const signer = vector.headers['Service-Signer-Address'];
    const signature = vector.headers['Service-Signature'];
    const typedData = buildOrderTypedData(
      { subaccountId: vector.subaccountId, body: vector.body, signer },
      domain,
    );

    it('builds the vector domain and signed struct, and the vector digest', () => {
      expect(typedData.domain).toEqual(vector.domain);
      const expected = vector.signedStruct;
      expect(typedData.message).toEqual({
        subAccountId: expected.subAccountId,
        priceX18: BigInt(expected.priceX18 as string),
        amount: BigInt(expected.amount as string),
        expiration: BigInt(expected.expiration as string),
        isReduce: expected.isReduce,
        sessionKey: expected.sessionKey,
        chainId: BigInt(expected.chainId as string),
        productId: expected.productId,
      });
      expect(hashTypedData(typedData)).toBe(vector.digest);
    });

    it('signing the body with the vector signing key reproduces Service-Signature', async () => {
      const signed = await signOrder({
        signingPrivateKey: signingKey.privateKey,
        subaccountId: vector.subaccountId,
        body: vector.body,
        domain,
      });
      expect(signed.signature).toBe(signature);
      expect(signed.signer).toBe(signer);
      expect(signed.body).toEqual(vector.body);
    });

    it('verification accepts the vector signature, also with a lowercase signer', async () => {
      const params = {
        subaccountId: vector.subaccountId,
        body: vector.body,
        signature,
        signer,
        domain,
      };
      expect(await verifyOrderSignature(params)).toBe(true);
      expect(
        await verifyOrderSignature({ ...params, signer: signer.toLowerCase() as Address }),
      ).toBe(true);
    });

    it.each([
      ['amount', { amount: `${vector.body.amount}1` }],
      ['isBuy', { isBuy: !vector.body.isBuy }],
      ['marketId', { marketId: vector.body.marketId + 1 }],
      ['expiryTs', { expiryTs: vector.body.expiryTs + 1 }],
      ['isReduce', { isReduce: !vector.body.isReduce }],
    ])('verification rejects a tampered %s', async (_, change) => {
      const body = { ...vector.body, ...change };
      expect(
        await verifyOrderSignature({
          subaccountId: vector.subaccountId,
          body,
          signature,
          signer,
          domain,
        }),
      ).toBe(false);
    });

    it('verification rejects another signer, subaccount, domain and the malleated signature', async () => {
      const params = {
        subaccountId: vector.subaccountId,
        body: vector.body,
        signature,
        signer,
        domain,
      };
      expect(await verifyOrderSignature({ ...params, signer: wallet.address })).toBe(false);
      const otherSubaccount = formatSubaccountId({
        brokerId: 1,
        address: wallet.address,
        index: 2,
      });
      expect(await verifyOrderSignature({ ...params, subaccountId: otherSubaccount })).toBe(false);
      expect(
        await verifyOrderSignature({ ...params, domain: { ...domain, orderChainId: 2 } }),
      ).toBe(false);
      expect(await verifyOrderSignature({ ...params, signature: malleate(signature) })).toBe(false);
      expect(await verifyOrderSignature({ ...params, signature: '0x1234' })).toBe(false);
    });
  },
);
