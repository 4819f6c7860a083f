import type { Address, Hex } from 'viem';
import { ErrorCodes, isQuantaError, QuantaError, summarizeError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';
import type { OrderCredentials } from '../venue/endpoints/index.ts';
import {
  addressOfPrivateKey,
  formatSubaccountId,
  generateSigningKey,
} from '../venue/signing/index.ts';
import type { SigningDomainConfig } from '../venue/types.ts';
import type { VenueClient } from '../venue/venue-client.ts';
import type { CredentialStore, StoredCredential } from './credential-store.ts';
import { logRefusal } from './refusal-log.ts';
import { RefusalSpacing, type CredentialRefusal } from './refusal-spacing.ts';
import { registerSigningKey } from './register-signing-key.ts';
import type { CredentialState } from './credential-state.ts';

/** Options of {@link CredentialManager}. */
export interface CredentialManagerOptions {
  readonly store: CredentialStore;
  /** The venue's base URL: the store keeps credentials per venue. */
  readonly venueUrl: string;
  /** Where keys are registered: the venue port (an HTTP client, or a wrapper around one). */
  readonly venue: Pick<VenueClient, 'register'>;
  readonly brokerId: number;
  readonly subaccountIndex: number;
  readonly chainId: number;
  readonly domain: SigningDomainConfig;
  readonly headerPrefix: string;
  readonly walletPrivateKey: Hex;
  /** Renew when fewer than this many ms of validity remain. */
  readonly renewMarginMs: number;
  /**
   * An order is sent with a credential only while it stays valid for longer than this: the
   * request's timeout plus the clock skew the bot allows (bot-credentials.ts). A request sent
   * closer to the expiry can reach the venue after it, with a credential the venue then calls
   * expired. Default 0: valid until the expiry itself.
   */
  readonly sendMarginMs?: number;
  /** Validity asked for at registration (≤ 7 days). */
  readonly credentialTtlMs: number;
  readonly now: () => number;
  /**
   * The monotonic clock, for the wait between registrations caused by refusals (a wall clock
   * stepped back must not stretch it); default `now`.
   */
  readonly monotonic?: () => number;
  readonly log: Logger;
  /**
   * Waits out a 429's `Retry-After` before a registration is tried again; injectable so tests
   * need no real sleeps. Default: a timer that stops when `signal` aborts.
   */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * A permit of the account's rate budget for each registration request (a renewal's too): the
   * venue counts them with the orders. Released when the answer comes (the budget holds the
   * slot on). Absent: registrations take none (`quanta register`, which runs alone).
   */
  readonly takePermit?: (signal: AbortSignal) => Promise<{ release(sent?: boolean): void }>;
  /**
   * Makes a new signing key; default a fresh one from the OS CSPRNG. The simulator derives
   * them from its seed, so a schedule replays with the same keys (and signatures).
   */
  readonly generateSigningKey?: () => Hex;
}

export type { CredentialRefusal } from './refusal-spacing.ts';
export type { CredentialState } from './credential-state.ts';

/** A usable credential: headers for order calls and the key that signs orders. */
export interface ActiveCredential {
  readonly credentials: OrderCredentials;
  readonly signingPrivateKey: Hex;
  readonly subaccountId: string;
  readonly expiryTs: number;
}

/**
 * Owns the subaccount's credentials: reuses stored ones while they stay valid for longer than
 * the margin, registers a new signing key (next nonce) otherwise, and keeps earlier keys usable
 * until they expire so orders signed with them can still be resent. A credential the venue
 * refused (a 401: revoked) is never used again, and kept so in the store (`refusedAt`); when it
 * is the newest, a new key is due: at once the first time, after a wait that doubles when
 * refusals keep coming (`RefusalSpacing`).
 */
export class CredentialManager {
  readonly #options: CredentialManagerOptions;
  readonly subaccountId: string;
  readonly walletAddress: Address;
  #all: StoredCredential[] = [];
  /** Signing keys (lowercase addresses) whose credentials the venue refused: never used again. */
  readonly #refused = new Set<string>();
  readonly #spacing = new RefusalSpacing();
  readonly #refusalListeners: ((refusal: CredentialRefusal) => void)[] = [];
  /** Registrations under way (a refusal that meets one words itself so). */
  #registering = 0;

  constructor(options: CredentialManagerOptions) {
    this.#options = options;
    // The address kept for this key (a bot derives its wallet key's at every start and
    // registration, private-key.ts); a bad key is a QuantaError that never shows it.
    this.walletAddress = addressOfPrivateKey(options.walletPrivateKey, 'wallet key');
    this.subaccountId = formatSubaccountId({
      brokerId: options.brokerId,
      address: this.walletAddress,
      index: options.subaccountIndex,
    });
  }

  #mine(): StoredCredential[] {
    const { venueUrl, brokerId } = this.#options;
    return this.#options.store
      .load()
      .filter(
        (c) =>
          c.venue === venueUrl && c.brokerId === brokerId && c.subaccountId === this.subaccountId,
      );
  }

  /**
   * The newest credential, if it is valid for longer than the renewal margin (and than the send
   * margin: a credential orders can no longer go out with is renewed whatever the config says).
   */
  #reusable(): StoredCredential | undefined {
    const newest = this.#all[0];
    if (newest === undefined || this.#isRefused(newest)) return undefined;
    const margin = Math.max(this.#options.renewMarginMs, this.#sendMarginMs());
    return newest.expiryTs - this.#options.now() > margin ? newest : undefined;
  }

  #sendMarginMs(): number {
    return this.#options.sendMarginMs ?? 0;
  }

  /**
   * Returns a valid credential, registering only when needed.
   * @returns the credential and whether the venue was called.
   * @throws VenueError when the venue refuses the registration; QuantaError for a bad store.
   */
  async ensure(
    signal?: AbortSignal,
  ): Promise<{ credential: ActiveCredential; registered: boolean }> {
    this.#all = this.#mine();
    const reusable = this.#reusable();
    if (reusable !== undefined) {
      this.#options.log.info(
        { serviceKey: reusable.serviceKey, expiryTs: reusable.expiryTs },
        'reusing stored credentials',
      );
      return { credential: this.#activate(reusable), registered: false };
    }
    const stored = await this.#registerNewKey(signal);
    return { credential: this.#activate(stored), registered: true };
  }

  #isRefused(credential: StoredCredential): boolean {
    return (
      credential.refusedAt !== undefined ||
      this.#refused.has(credential.signerAddress.toLowerCase())
    );
  }

  #monotonic(): number {
    return (this.#options.monotonic ?? this.#options.now)();
  }

  /**
   * True when the current credential is within the renewal margin (or the send margin) of its
   * expiry, or the venue refused it (then once the wait after repeated refusals has passed).
   */
  renewalDue(): boolean {
    if (this.#reusable() !== undefined) return false;
    const newest = this.#all[0];
    if (newest === undefined || !this.#isRefused(newest)) return true;
    return this.#spacing.mayRenew(this.#monotonic());
  }

  /**
   * How long until a new key may replace the newest one, when the venue refused it and refusals
   * came in a row (account/refusal-spacing.ts); 0 when the newest is not refused, or may be
   * replaced now.
   */
  refusalWaitMs(): number {
    const newest = this.#all[0];
    if (newest === undefined || !this.#isRefused(newest)) return 0;
    return this.#spacing.waitLeftMs(this.#monotonic());
  }

  /**
   * Why no order can be signed now, or undefined: the current credential was refused by the
   * venue, or expires before an order signed now can reach it: the send margin, plus `queuedMs`
   * it may wait to be sent. A new key is then due.
   */
  signingRefusal(queuedMs = 0): string | undefined {
    const newest = this.#all[0];
    if (newest === undefined) return 'no credentials yet';
    if (this.#isRefused(newest))
      return `the venue refused the credentials of signing key ${newest.signerAddress}; a new key is due`;
    if (newest.expiryTs <= this.#options.now() + this.#sendMarginMs() + queuedMs)
      return `the credentials of signing key ${newest.signerAddress} expire too soon for an order to reach the venue; a new key is due`;
    return undefined;
  }

  /**
   * The credential a lookup goes with: the newest the venue has not refused and that has not
   * expired by this host's clock; undefined when there is none (the lookup is not sent).
   */
  forLookup(): ActiveCredential | undefined {
    const now = this.#options.now();
    const usable = this.#all.find((c) => !this.#isRefused(c) && c.expiryTs > now);
    return usable === undefined ? undefined : this.#activate(usable);
  }

  /** The current credential. @throws when `ensure` has not succeeded yet. */
  current(): ActiveCredential {
    const newest = this.#all[0];
    if (newest === undefined)
      throw new QuantaError(ErrorCodes.CREDENTIAL_STORE, 'no credentials yet: call ensure() first');
    return this.#activate(newest);
  }

  /**
   * The credential whose signing key is `signer` (for sending and resending its orders), while it
   * stays valid for longer than the send margin; `undefined` after.
   */
  forSigner(signer: string): ActiveCredential | undefined {
    const usableUntil = this.#options.now() + this.#sendMarginMs();
    const key = signer.toLowerCase();
    const match = this.#all.find(
      (c) =>
        c.signerAddress.toLowerCase() === key && c.expiryTs > usableUntil && !this.#isRefused(c),
    );
    return match === undefined ? undefined : this.#activate(match);
  }

  /**
   * The credentials as `GET /status` shows them.
   * @throws QuantaError when `ensure` has not succeeded yet.
   */
  state(): CredentialState {
    const active = this.current();
    const newest = this.#all[0];
    const refused = newest !== undefined && this.#isRefused(newest);
    const signingRefusal = this.signingRefusal();
    return {
      signer: active.credentials.signerAddress,
      expiryTs: active.expiryTs,
      canSign: signingRefusal === undefined,
      signingRefusal,
      refusedKeys: this.#all.filter((c) => this.#isRefused(c)).length,
      newKeyInMs: refused ? this.refusalWaitMs() : undefined,
    };
  }

  /**
   * Calls `listener` at each refusal {@link refused} reports (alerts); a listener that throws is
   * logged, never stops the others.
   */
  onRefused(listener: (refusal: CredentialRefusal) => void): void {
    this.#refusalListeners.push(listener);
  }

  #tell(refusal: CredentialRefusal): void {
    for (const listener of this.#refusalListeners) {
      try {
        listener(refusal);
      } catch (error) {
        this.#options.log.error(
          { err: summarizeError(error) },
          'a credential refusal listener failed',
        );
      }
    }
  }

  /** Whether the venue refused the credentials of signing key `signer`. */
  isRefused(signer: string): boolean {
    const key = signer.toLowerCase();
    return (
      this.#refused.has(key) ||
      this.#all.some((c) => c.signerAddress.toLowerCase() === key && this.#isRefused(c))
    );
  }

  /**
   * The venue refused the credentials of signing key `signer` (a 401: revoked, or expired by its
   * clock): from now on they carry no order (`forSigner` says none, and `signingRefusal` while
   * they are the newest), the store keeps them refused, and when they are the newest a new key
   * is due (`renewalDue`): at once, unless the last registration caused by a refusal was less
   * than 10 minutes ago; then after 10 s, doubling with each such refusal up to 10 minutes, and
   * the log says what to check. Said once a key (to the log and to {@link onRefused}'s
   * listeners); never throws.
   */
  refused(signer: string): void {
    const key = signer.toLowerCase();
    if (this.#refused.has(key)) return;
    this.#refused.add(key);
    const { log, now } = this.#options;
    try {
      this.#options.store.markRefused(signer, now());
    } catch (error) {
      log.error({ err: summarizeError(error) }, 'could not mark refused credentials in the store');
    }
    const newest = this.#all[0]?.signerAddress.toLowerCase() === key;
    // Only a refusal of the newest key calls for a new one (spaced when refusals keep coming).
    const { waitMs, inARow } = newest
      ? this.#spacing.refused(this.#monotonic())
      : { waitMs: 0, inARow: 0 };
    const refusal: CredentialRefusal = {
      signer,
      newest,
      waitMs,
      inARow,
      signingRefusal: this.signingRefusal(),
      registering: this.#registering > 0,
    };
    logRefusal(log, refusal);
    this.#tell(refusal);
  }

  async #registerNewKey(signal?: AbortSignal): Promise<StoredCredential> {
    // Counted for the wording of a refusal that meets it (`refused`), in this one function: a
    // wrapper would add an await step to every registration, the simulator's included.
    this.#registering += 1;
    try {
      const { brokerId, venueUrl, log, now } = this.#options;
      const signingPrivateKey = (this.#options.generateSigningKey ?? generateSigningKey)();
      const issued = await registerSigningKey(
        {
          ...this.#options,
          withPermit: (send) => this.#withPermit(signal, send),
        },
        signingPrivateKey,
        this.#all.reduce((max, c) => Math.max(max, c.nonce + 1), 0),
        signal,
      );
      const stored: StoredCredential = {
        venue: venueUrl,
        brokerId,
        subaccountId: this.subaccountId,
        signerAddress: issued.signerAddress,
        signingPrivateKey,
        serviceKey: issued.serviceKey,
        serviceSecret: issued.serviceSecret,
        expiryTs: issued.expiryTs,
        nonce: issued.nonce,
      };
      try {
        this.#options.store.save(stored, now());
      } catch (error) {
        // The venue holds the key now: say so, whatever kept it from the store.
        throw new QuantaError(
          ErrorCodes.CREDENTIAL_STORE,
          `the venue registered signing key ${issued.signerAddress}, but it could not be stored: ${summarizeError(error).message}`,
          { cause: error, ...(isQuantaError(error) ? { details: error.details } : {}) },
        );
      }
      this.#all = this.#mine();
      log.info(
        {
          serviceKey: issued.serviceKey,
          signer: issued.signerAddress,
          nonce: issued.nonce,
          expiryTs: issued.expiryTs,
        },
        'registered a new signing key',
      );
      return stored;
    } finally {
      this.#registering -= 1;
    }
  }

  /** Runs one registration request under a permit of the rate budget, when there is one. */
  async #withPermit<T>(signal: AbortSignal | undefined, send: () => Promise<T>): Promise<T> {
    const take = this.#options.takePermit;
    if (take === undefined) return send();
    const permit = await take(signal ?? new AbortController().signal);
    try {
      return await send();
    } finally {
      permit.release();
    }
  }

  #activate(stored: StoredCredential): ActiveCredential {
    return {
      credentials: {
        brokerId: stored.brokerId,
        serviceKey: stored.serviceKey,
        serviceSecret: stored.serviceSecret,
        signerAddress: stored.signerAddress,
        headerPrefix: this.#options.headerPrefix,
      },
      signingPrivateKey: stored.signingPrivateKey as Hex,
      subaccountId: stored.subaccountId,
      expiryTs: stored.expiryTs,
    };
  }
}
