import type { CredentialManager } from '../account/credential-manager.ts';
import type { OrderSigner } from '../execution/executor.ts';
import { orderSigningKey } from '../venue/signing/index.ts';
import type { OrderRequestBody, SigningDomainConfig } from '../venue/types.ts';

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
