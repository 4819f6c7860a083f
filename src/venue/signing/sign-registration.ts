import type { Hex } from 'viem';
import { ErrorCodes, isQuantaError, QuantaError } from '../../errors/index.ts';
import { parseRegistrationRequest, type RegistrationRequest } from '../schemas/index.ts';
import type { SigningDomainConfig } from '../types.ts';
import { addressOfPrivateKey } from './private-key.ts';
import { privateKeyBytes, signDigest } from './sign-digest.ts';
import { registerDigest as directRegisterDigest } from './register-digest.ts';
import { buildRegisterTypedData, type RegisterTypedData } from './register-typed-data.ts';
import { formatSubaccountId, parseSubaccountId, type SubaccountParts } from './subaccount.ts';
import { rememberOwnSignature, verifyDigestSigner } from './verify-digest-signer.ts';

/** What `signRegistration` needs. */
export interface SignRegistrationParams {
  /** The wallet's key; its address becomes `ethAddress` and the subaccount's address. */
  readonly walletPrivateKey: Hex;
  /** The new session signing key; its address becomes `signingKey`. */
  readonly signingPrivateKey: Hex;
  /** The broker id (also sent as the `Broker-Id` header). */
  readonly brokerId: number | bigint;
  /** The `n` of the subaccount id, 0 < n < 2^48. */
  readonly subaccountIndex: number | bigint;
  /** Milliseconds; the credentials expire then (docs/conventions.md §3). */
  readonly expiryTs: number;
  /** The subaccount's registration counter (docs/conventions.md §3). */
  readonly nonce: number;
  readonly chainId: number;
  readonly domain: SigningDomainConfig;
}

/**
 * Builds a complete, signed registration request body (docs/trading-service-api.md §2.2, docs/conventions.md §3): the wallet
 * signs the Register struct for `ethSignature`, the signing key signs the same struct for
 * `signingSignature`. Signatures are deterministic (RFC 6979): the same inputs give the same
 * bytes.
 *
 * @throws QuantaError `QUANTA_INVALID_PRIVATE_KEY` (never quoting the key),
 *   `QUANTA_INVALID_SUBACCOUNT`, `QUANTA_INVALID_WIRE_DATA` for a bad field,
 *   `QUANTA_SIGNING_FAILED`.
 * @example
 * const body = await signRegistration({
 *   walletPrivateKey, signingPrivateKey, brokerId: 1, subaccountIndex: 1,
 *   expiryTs: Date.now() + 86_400_000, nonce: 0, chainId: 42161, domain: DEFAULT_SIGNING_DOMAIN,
 * });
 */
export function signRegistration(params: SignRegistrationParams): Promise<RegistrationRequest> {
  try {
    return Promise.resolve(buildRegistration(params));
  } catch (error) {
    // What building throws reaches the caller as a rejection, as from the async function it was.
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** {@link signRegistration}'s work, synchronous. */
function buildRegistration(params: SignRegistrationParams): RegistrationRequest {
  const wallet = { address: addressOfPrivateKey(params.walletPrivateKey, 'wallet key') };
  const signer = { address: addressOfPrivateKey(params.signingPrivateKey, 'signing key') };
  const fields = {
    subaccountId: formatSubaccountId({
      brokerId: params.brokerId,
      address: wallet.address,
      index: params.subaccountIndex,
    }),
    signingKey: signer.address,
    ethAddress: wallet.address,
    expiryTs: params.expiryTs,
    nonce: params.nonce,
    chainId: params.chainId,
  };
  const typedData = buildRegisterTypedData(fields, params.domain);
  const digest = registerDigest(typedData);
  if (digest === undefined)
    throw new QuantaError(ErrorCodes.SIGNING_FAILED, 'registration: EIP-712 hashing failed');
  const ethSignature = signWith(digest, params.walletPrivateKey, 'registration (wallet)');
  const signingSignature = signWith(digest, params.signingPrivateKey, 'registration (signing key)');
  rememberOwnSignature(digest, ethSignature, wallet.address.toLowerCase());
  rememberOwnSignature(digest, signingSignature, signer.address.toLowerCase());
  return {
    subaccountId: fields.subaccountId,
    signingKey: fields.signingKey,
    signingSignature,
    ethAddress: fields.ethAddress,
    ethSignature,
    expiryTs: fields.expiryTs,
    nonce: fields.nonce,
    chainId: fields.chainId,
  };
}

/**
 * `digest` signed with `privateKey` (checked by `addressOfPrivateKey` already) by `signDigest`:
 * the bytes viem's `signTypedData` gives (RFC 6979, low s; the eip712 vectors pin them), without
 * its per-call dynamic import of noble and noble's slower signing.
 *
 * @throws QuantaError `QUANTA_SIGNING_FAILED`, naming only the error's class.
 */
function signWith(digest: Uint8Array, privateKey: Hex, what: string): Hex {
  try {
    return signDigest(digest, privateKeyBytes(privateKey));
  } catch (error) {
    const kind = error instanceof Error ? error.name : typeof error;
    throw new QuantaError(ErrorCodes.SIGNING_FAILED, `${what}: EIP-712 signing failed (${kind})`);
  }
}

/** Why a registration request was refused. */
export type RegistrationRejection =
  /** The body breaks the schema of docs/trading-service-api.md §2.2. */
  | 'MALFORMED'
  /** `subaccountId` is not `<brokerId>_<address>_<n>` within the limits. */
  | 'INVALID_SUBACCOUNT'
  /** The subaccount's address is not exactly `ethAddress`. */
  | 'SUBACCOUNT_ADDRESS_MISMATCH'
  /** The subaccount's brokerId is not the `Broker-Id` header. */
  | 'BROKER_MISMATCH'
  /** `ethSignature` was not made by `ethAddress` over this request (or is not canonical). */
  | 'BAD_ETH_SIGNATURE'
  /** `signingSignature` was not made by `signingKey` over this request (or is not canonical). */
  | 'BAD_SIGNING_SIGNATURE';

/** The outcome of `verifyRegistration`. */
export type RegistrationVerification =
  | {
      readonly valid: true;
      readonly request: RegistrationRequest;
      readonly subaccount: SubaccountParts;
    }
  | { readonly valid: false; readonly reason: RegistrationRejection; readonly message: string };

/** Options of `verifyRegistration`. */
export interface VerifyRegistrationOptions {
  /** The `Broker-Id` header; when given, the subaccount's brokerId must equal it. */
  readonly brokerId?: number | bigint;
}

function reject(reason: RegistrationRejection, message: string): RegistrationVerification {
  return { valid: false, reason, message };
}

function sameInteger(a: number | bigint, b: bigint): boolean {
  return typeof a === 'bigint' ? a === b : Number.isSafeInteger(a) && BigInt(a) === b;
}

/**
 * The Register struct's EIP-712 digest, or undefined when it cannot be computed. Both signatures
 * are checked against it with `verifyDigestSigner`: the answer comparing the address
 * `recoverTypedDataSigner` gives with the signer's would be (any letter case), without viem's
 * asynchronous recovery (it imports noble at every call) and with the digest hashed once. A
 * digest that cannot be computed refuses the signature, as that recovery's failure did. The
 * digest is viem's `hashTypedData`, computed directly (register-digest.ts).
 */
function registerDigest(typedData: RegisterTypedData): Uint8Array | undefined {
  try {
    return directRegisterDigest(typedData);
  } catch {
    return undefined;
  }
}

function signedBy(digest: Uint8Array | undefined, signature: string, address: string): boolean {
  return digest !== undefined && verifyDigestSigner(digest, signature, address.toLowerCase());
}

function checkRegistration(
  body: unknown,
  domain: SigningDomainConfig,
  options: VerifyRegistrationOptions,
): RegistrationVerification {
  let request: RegistrationRequest;
  let subaccount: SubaccountParts;
  try {
    request = parseRegistrationRequest(body);
  } catch (error) {
    return reject(
      'MALFORMED',
      isQuantaError(error) ? error.shortMessage : 'malformed registration request',
    );
  }
  try {
    subaccount = parseSubaccountId(request.subaccountId);
  } catch (error) {
    return reject(
      'INVALID_SUBACCOUNT',
      isQuantaError(error) ? error.shortMessage : 'invalid subaccount id',
    );
  }
  if (subaccount.address !== request.ethAddress) {
    return reject(
      'SUBACCOUNT_ADDRESS_MISMATCH',
      `subaccountId: address ${subaccount.address} is not exactly ethAddress ${request.ethAddress}`,
    );
  }
  if (options.brokerId !== undefined && !sameInteger(options.brokerId, subaccount.brokerId)) {
    return reject(
      'BROKER_MISMATCH',
      `subaccountId: brokerId ${subaccount.brokerId} is not the Broker-Id header ${String(options.brokerId)}`,
    );
  }
  const digest = registerDigest(buildRegisterTypedData(request, domain));
  if (!signedBy(digest, request.ethSignature, request.ethAddress)) {
    return reject('BAD_ETH_SIGNATURE', 'ethSignature: not signed by ethAddress over this request');
  }
  if (!signedBy(digest, request.signingSignature, request.signingKey)) {
    return reject(
      'BAD_SIGNING_SIGNATURE',
      'signingSignature: not signed by signingKey over this request',
    );
  }
  return { valid: true, request, subaccount };
}

/**
 * Checks a registration request body (docs/conventions.md §3): its shape, the subaccount id (address
 * exactly `ethAddress`, brokerId the header's when given), and that both signatures recover to
 * their addresses (case-insensitively) over the Register struct. Non-canonical signature
 * encodings (high s, v not 27/28) are refused. Expiry and nonce rules are the venue's.
 *
 * @returns `{ valid: true, request, subaccount }` or `{ valid: false, reason, message }`; never
 *   throws for bad input.
 */
export function verifyRegistration(
  body: unknown,
  domain: SigningDomainConfig,
  options: VerifyRegistrationOptions = {},
): Promise<RegistrationVerification> {
  try {
    return Promise.resolve(checkRegistration(body, domain, options));
  } catch (error) {
    // What the checks throw (never for bad input) still reaches the caller as a rejection.
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
