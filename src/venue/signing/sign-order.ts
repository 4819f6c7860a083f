import type { Address, Hex } from 'viem';
import { ErrorCodes } from '../../errors/index.ts';
import { hexAddress, parseOrderRequestBody, parseWire } from '../schemas/index.ts';
import type { OrderRequestBody, SigningDomainConfig } from '../types.ts';
import { orderDigest } from './order-digest.ts';
import { orderSigningKey } from './order-signing-key.ts';
import { verifyDigestSigner } from './verify-digest-signer.ts';

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
 * Signs an order request body with the session signing key (docs/conventions.md §4.2). Deterministic:
 * the same inputs give the same signature, and a retry must resend these bytes, never re-sign
 * (docs/conventions.md §4.3).
 *
 * @throws QuantaError `QUANTA_INVALID_PRIVATE_KEY` (never quoting the key),
 *   `QUANTA_INVALID_WIRE_DATA` for a bad body, `QUANTA_INVALID_SUBACCOUNT`,
 *   `QUANTA_SIGNING_FAILED`.
 */
export async function signOrder(params: SignOrderParams): Promise<SignedOrder> {
  const key = orderSigningKey(params.signingPrivateKey, 'signing key');
  // Untrusted input: parsed with the wire schema here, at the edge (the executor's hot path
  // signs bodies it built itself with `orderSigningKey(…).signOrderBody`).
  const { marketId, isBuy, orderType, amount, price, expiryTs, isReduce } = parseOrderRequestBody(
    params.body,
  );
  const body: OrderRequestBody = { marketId, isBuy, orderType, amount, price, expiryTs, isReduce };
  const signature = key.signOrderBody(params.subaccountId, body, params.domain);
  return Promise.resolve({ body, signature, signer: key.address });
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
 * True when `signature` is a canonical signature by `signer` over this order (docs/conventions.md
 * §4.2); addresses compare case-insensitively.
 *
 * @throws QuantaError `QUANTA_INVALID_WIRE_DATA` or `QUANTA_INVALID_SUBACCOUNT` when the body,
 *   signer or subaccount is malformed (validate those first); a bad signature gives `false`.
 */
export async function verifyOrderSignature(params: VerifyOrderParams): Promise<boolean> {
  // The same checks, in the same order and words, as building the typed data did.
  const body = parseOrderRequestBody(params.body);
  const signer = parseWire(hexAddress, params.signer, {
    code: ErrorCodes.INVALID_WIRE_DATA,
    what: 'order signer',
  }) as Address;
  const digest = orderDigest(params.subaccountId, body, signer, params.domain);
  return Promise.resolve(verifyDigestSigner(digest, params.signature, signer.toLowerCase()));
}
