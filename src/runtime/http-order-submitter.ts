import type { CredentialManager } from '../account/credential-manager.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { OrderSubmitter, SignedOrderRequest } from '../execution/dispatcher.ts';
import type { OrderSigner } from '../execution/executor.ts';
import { createOrder, getOrder, type VenueConnection } from '../venue/endpoints/index.ts';
import { orderSigningKey } from '../venue/signing/index.ts';
import type { OrderRequestBody, SigningDomainConfig, VenueOrder } from '../venue/types.ts';

/**
 * Sends journaled orders over HTTP with the credential that belongs to the key that signed
 * them (a renewal leaves older keys valid until they expire, so their orders can be resent).
 */
export function httpOrderSubmitter(
  connection: VenueConnection,
  credentials: CredentialManager,
): OrderSubmitter {
  return {
    submit(request: SignedOrderRequest, signal: AbortSignal): Promise<VenueOrder> {
      const active = credentials.forSigner(request.signer);
      if (active === undefined) {
        return Promise.reject(
          // Its own code, not the venue's 401: nothing left, and the registry must know that.
          new QuantaError(
            ErrorCodes.SIGNING_KEY_EXPIRED,
            `signing key expired: no valid credential for signer ${request.signer}`,
            {
              details: [
                'The order was signed by a key whose credentials expired; it was not sent and cannot be resent.',
              ],
            },
          ),
        );
      }
      return createOrder(
        connection,
        active.credentials,
        { body: request.body, signature: request.signature },
        { signal },
      );
    },
  };
}

/** Looks orders up with the current credential (docs/conventions.md §6 extension). */
export function httpOrderLookup(
  connection: VenueConnection,
  credentials: CredentialManager,
  timeoutSignal: () => AbortSignal,
): (venueOrderId: number) => Promise<VenueOrder | undefined> {
  return (venueOrderId) =>
    getOrder(connection, credentials.current().credentials, venueOrderId, {
      signal: timeoutSignal(),
    });
}

/**
 * Signs orders with the current signing key. The bodies come from the executor, which built
 * them from checked, sized orders: they are signed as they are, without a second validation.
 */
export function credentialOrderSigner(
  credentials: CredentialManager,
  domain: SigningDomainConfig,
): OrderSigner {
  return {
    sign(body: OrderRequestBody) {
      try {
        const active = credentials.current();
        // Prepared once per key (the address derivation is the costly part), then reused.
        const key = orderSigningKey(active.signingPrivateKey, 'signing key');
        const signature = key.signOrderBody(active.subaccountId, body, domain);
        return Promise.resolve({ signature, signer: key.address });
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };
}
