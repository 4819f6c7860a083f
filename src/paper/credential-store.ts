import { hash, timingSafeEqual } from 'node:crypto';
import type { ServiceCredentials } from '../venue/types.ts';
import type { CredentialGenerator } from './credential-generator.ts';

/** What a credential pair stands for. */
export interface Session {
  /** The registration's broker id (the `Broker-Id` header it came with). */
  readonly brokerId: bigint;
  /** The subaccount id exactly as registered; orders echo it. */
  readonly subaccountId: string;
  /** The engine account of the subaccount: one per subaccount, whatever the address case. */
  readonly accountId: string;
  /** The registered signing key, as registered. */
  readonly signer: string;
  /** Ms since the epoch; the credentials are refused from then on (docs/conventions.md §3). */
  readonly expiresAt: number;
}

/** The outcome of checking a key and secret. */
export type CredentialCheck =
  | { readonly ok: true; readonly session: Session }
  | { readonly ok: false; readonly reason: 'unknown' | 'expired' | 'revoked' };

interface Entry {
  readonly secretDigest: Buffer;
  readonly session: Session;
  revoked: boolean;
}

/**
 * SHA-256 of the secret's UTF-8 bytes. The one-shot `hash` (node ≥ 20.12, what package.json's
 * engines ask) gives `createHash(…).update(…).digest()`'s bytes without a Hash object: the
 * venue computes one for every authenticated request (the simulator's bot: ~400 a schedule).
 */
function digest(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/**
 * The paper venue's issued credentials. Only a digest of each secret is kept, and secrets are
 * compared in constant time.
 */
export class CredentialStore {
  readonly #generate: CredentialGenerator;
  readonly #byKey = new Map<string, Entry>();

  constructor(generate: CredentialGenerator) {
    this.#generate = generate;
  }

  /** Issues a fresh pair for `session`. */
  issue(session: Session): ServiceCredentials {
    let credentials = this.#generate();
    // A repeat is astronomically unlikely from the CSPRNG; never hand out someone else's key.
    while (this.#byKey.has(credentials.serviceKey)) credentials = this.#generate();
    this.#byKey.set(credentials.serviceKey, {
      secretDigest: digest(credentials.serviceSecret),
      session,
      revoked: false,
    });
    return credentials;
  }

  /**
   * Revokes every pair issued to engine account `accountId` (an operator's action: a leaked
   * key, a compliance hold): they are refused from now on, expired or not. A registration
   * after it issues a fresh pair as usual.
   *
   * @returns how many pairs were revoked.
   */
  revokeAccount(accountId: string): number {
    let revoked = 0;
    for (const entry of this.#byKey.values()) {
      if (entry.session.accountId !== accountId || entry.revoked) continue;
      entry.revoked = true;
      revoked += 1;
    }
    return revoked;
  }

  /**
   * Checks a key and secret at `nowMs`: `unknown` when the key is not issued or the secret does
   * not match it, `revoked` once revoked, `expired` from the session's `expiresAt` on.
   */
  check(serviceKey: string, serviceSecret: string, nowMs: number): CredentialCheck {
    const entry = this.#byKey.get(serviceKey);
    const given = digest(serviceSecret);
    if (entry === undefined || !timingSafeEqual(entry.secretDigest, given)) {
      return { ok: false, reason: 'unknown' };
    }
    if (entry.revoked) return { ok: false, reason: 'revoked' };
    if (nowMs >= entry.session.expiresAt) return { ok: false, reason: 'expired' };
    return { ok: true, session: entry.session };
  }
}
