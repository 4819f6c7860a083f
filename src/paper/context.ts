import type { SimEngine } from '../sim/index.ts';
import type { SigningDomainConfig } from '../venue/types.ts';
import type { CredentialHeaderNames } from './credential-headers.ts';
import type { CredentialStore } from './credential-store.ts';
import type { ReplayGuard } from './replay-guard.ts';
import type { SubaccountRegistry } from './subaccount-registry.ts';

/** What the paper venue's routes share: the engine and the venue's own state. */
export interface PaperContext {
  readonly engine: SimEngine;
  /** Ms since the epoch: registration windows, credential expiry. */
  readonly clock: () => number;
  readonly domain: SigningDomainConfig;
  readonly headerNames: CredentialHeaderNames;
  readonly registry: SubaccountRegistry;
  readonly credentials: CredentialStore;
  readonly replayGuard: ReplayGuard;
}
