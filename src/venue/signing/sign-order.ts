import type { Address, Hex } from 'viem';
import type { OrderRequestBody, SigningDomainConfig } from '../types.ts';
import { buildOrderTypedData } from './order-typed-data.ts';
import { accountFromPrivateKey, signTypedDataWith } from './private-key.ts';
import { recoverTypedDataSigner } from './recover-signer.ts';

/** What `signOrder` needs. */
export interface SignOrderParams {
  /** The registered session signing key (never the wallet key). */
  readonly signingPrivateKey: Hex;
  readonly subaccountId: string;
  readonly body: OrderRequestBody;
  readonly domain: SigningDomainConfig;
}

/** A signed order: send `body` as JSON with `signature` and `signer` in the credential headers. */
export interface SignedOrder {
  /** The validated body, exactly what the signature covers. */
  readonly body: OrderRequestBody;
  /** The `Service-Signature` header value. */
  readonly signature: Hex;
  /** The `Service-Signer-Address` header value: the signing key's address. */
  readonly signer: Address;
}

/**
 * Signs an order request body with the session signing key (conventions §4.2). Deterministic:
 * the same inputs give the same signature, and a retry must resend these bytes, never re-sign
 * (conventions §4.3).
 *
 * @throws QuantaError `QUANTA_INVALID_PRIVATE_KEY` (never quoting the key),
 *   `QUANTA_INVALID_WIRE_DATA` for a bad body, `QUANTA_INVALID_SUBACCOUNT`,
 *   `QUANTA_SIGNING_FAILED`.
 */
export async function signOrder(params: SignOrderParams): Promise<SignedOrder> {
  const account = accountFromPrivateKey(params.signingPrivateKey, 'signing key');
  const typedData = buildOrderTypedData(
    { subaccountId: params.subaccountId, body: params.body, signer: account.address },
    params.domain,
  );
  const signature = await signTypedDataWith(
    account,
    typedData,
    `order on market ${params.body.marketId}`,
  );
  const { marketId, isBuy, orderType, amount, price, expiryTs, isReduce } = params.body;
  return {
    body: { marketId, isBuy, orderType, amount, price, expiryTs, isReduce },
    signature,
    signer: account.address,
  };
}

/** What `verifyOrderSignature` checks. */
export interface VerifyOrderParams {
  readonly subaccountId: string;
  readonly body: OrderRequestBody;
  /** The `Service-Signature` header. */
  readonly signature: string;
  /** The `Service-Signer-Address` header (the registered signing key). */
  readonly signer: Address;
  readonly domain: SigningDomainConfig;
}

/**
 * True when `signature` is a canonical signature by `signer` over this order (conventions
 * §4.2); addresses compare case-insensitively.
 *
 * @throws QuantaError `QUANTA_INVALID_WIRE_DATA` or `QUANTA_INVALID_SUBACCOUNT` when the body,
 *   signer or subaccount is malformed (validate those first); a bad signature gives `false`.
 */
export async function verifyOrderSignature(params: VerifyOrderParams): Promise<boolean> {
  const typedData = buildOrderTypedData(
    { subaccountId: params.subaccountId, body: params.body, signer: params.signer },
    params.domain,
  );
  const recovered = await recoverTypedDataSigner(typedData, params.signature);
  return recovered !== undefined && recovered.toLowerCase() === params.signer.toLowerCase();
}
