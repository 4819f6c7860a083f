import type { Config } from '../config/index.ts';
import type { SigningDomainConfig } from '../venue/types.ts';

/** The EIP-712 domain values of a config (`venue.signing`). */
export function signingDomainOf(config: Config): SigningDomainConfig {
  const signing = config.venue.signing;
  return {
    name: signing.name,
    version: signing.version,
    registerVerifyingContract: signing.registerVerifyingContract,
    orderVerifyingContract: signing.orderVerifyingContract,
    orderChainId: signing.orderChainId,
  };
}
