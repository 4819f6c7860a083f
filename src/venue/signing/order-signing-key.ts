import type { Address, Hex } from 'viem';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { OrderRequestBody, SigningDomainConfig } from '../types.ts';
import { orderDigest } from './order-digest.ts';
import { keepBounded } from './bounded-cache.ts';
import { addressOfPrivateKey } from './private-key.ts';
import { privateKeyBytes, signDigest } from './sign-digest.ts';
import { rememberOwnSignature } from './verify-digest-signer.ts';

/**
 * A signing key made ready for signing orders: its address derived once (an elliptic-curve
 * multiplication, which viem's `privateKeyToAccount` repeats on every call) and its scalar kept
 * in a private field, so neither logging the object nor serializing it can show the key.
 */
export interface OrderSigningKey {
  /** The key's checksummed address: the order struct's sessionKey and `Service-Signer-Address`. */
  readonly address: Address;
  /**
   * Signs an order body that was already validated (built by the executor, or parsed with the
   * wire schema): the EIP-712 digest of `orderDigest`, signed with secp256k1 (RFC 6979, low s,
   * no extra entropy, as viem signs), serialized as viem does: `r ‖ s ‖ v` with v 27 or 28.
   *
   * @throws QuantaError `QUANTA_INVALID_DECIMAL`, `QUANTA_INVALID_WIRE_DATA` or
   *   `QUANTA_INVALID_SUBACCOUNT` for a value the struct cannot carry; `QUANTA_SIGNING_FAILED`.
   */
  signOrderBody(subaccountId: string, body: OrderRequestBody, domain: SigningDomainConfig): Hex;
}

class PreparedSigningKey implements OrderSigningKey {
  readonly address: Address;
  readonly #secret: Uint8Array;
  readonly #signer: string;

  constructor(secret: Uint8Array, address: Address) {
    this.#secret = secret;
    this.address = address;
    this.#signer = address.toLowerCase();
  }

  signOrderBody(subaccountId: string, body: OrderRequestBody, domain: SigningDomainConfig): Hex {
    const digest = orderDigest(subaccountId, body, this.address, domain);
    let hex: Hex;
    try {
      hex = signDigest(digest, this.#secret);
    } catch (error) {
      const kind = error instanceof Error ? error.name : typeof error;
      throw new QuantaError(
        ErrorCodes.SIGNING_FAILED,
        `order on market ${body.marketId}: signing failed (${kind})`,
      );
    }
    rememberOwnSignature(digest, hex, this.#signer);
    return hex;
  }

  toJSON(): { address: Address } {
    return { address: this.address };
  }
}

// The map's keys are the private keys themselves: it is module-private, never logged, and holds
// only keys the process already holds. Bounded: a bot uses one key at a time, a few over renewals.
const prepared = new Map<string, PreparedSigningKey>();
const PREPARED_LIMIT = 8;

/**
 * The order signer of a private key, prepared on first use and reused after (the cache is keyed
 * by the key; nothing in it is ever logged or quoted in an error).
 *
 * @param what - which key this is, for the error message (`signing key`).
 * @throws QuantaError `QUANTA_INVALID_PRIVATE_KEY` (never quoting the key).
 */
export function orderSigningKey(privateKey: string, what = 'signing key'): OrderSigningKey {
  const cached = prepared.get(privateKey);
  if (cached !== undefined) return cached;
  const address = addressOfPrivateKey(privateKey, what);
  const key = new PreparedSigningKey(privateKeyBytes(privateKey), address);
  keepBounded(prepared, privateKey, key, PREPARED_LIMIT);
  return key;
}
