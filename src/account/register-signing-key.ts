import type { Hex } from 'viem';
import { systemSleep } from '../clock/timers.ts';
import { ErrorCodes, isQuantaError, QuantaError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';
import { VenueError } from '../venue/errors.ts';
import { signRegistration } from '../venue/signing/index.ts';
import type { SigningDomainConfig } from '../venue/types.ts';
import type { VenueClient } from '../venue/venue-client.ts';

/**
 * A registration the venue answered 429 is tried again after its `Retry-After`, this many times:
 * the venue refused it unread, so sending it again cannot register twice. A bot's registrations
 * take permits of its rate budget, but a process outside the budget (`quanta register`, another
 * tool on the same account) can still fill the venue's window: then this waits, not exits.
 */
const RATE_LIMITED_RETRIES = 5;
/** The longest single wait a 429 may ask of a registration. */
const MAX_RATE_LIMITED_WAIT_MS = 10_000;
/** The wait when a 429 names none. */
const DEFAULT_RATE_LIMITED_WAIT_MS = 1000;

const NONCE_HINT = /invalid nonce: expected (\d+)/;

/** What {@link registerSigningKey} needs: the credential manager's options, mostly. */
export interface SigningKeyRegistrar {
  readonly venue: Pick<VenueClient, 'register'>;
  readonly brokerId: number;
  readonly subaccountIndex: number;
  readonly chainId: number;
  readonly domain: SigningDomainConfig;
  readonly walletPrivateKey: Hex;
  /** Validity asked for (≤ 7 days). */
  readonly credentialTtlMs: number;
  readonly now: () => number;
  readonly log: Logger;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Runs one registration request (under a permit of the rate budget, when there is one). */
  readonly withPermit: <T>(send: () => Promise<T>) => Promise<T>;
}

/** A signing key the venue registered. */
export interface RegisteredKey {
  readonly signerAddress: string;
  readonly serviceKey: string;
  readonly serviceSecret: string;
  readonly expiryTs: number;
  /** The nonce it was registered with (the venue's, when the stored one lagged it). */
  readonly nonce: number;
}

/**
 * Registers `signingPrivateKey` for the subaccount at `nonce`. A 429 is waited out (its
 * `Retry-After`, at most 10 s, 5 times); an "invalid nonce: expected N" answer is taken once
 * (the stored counter can lag the venue's after a lost state dir).
 *
 * @throws VenueError or QuantaError when the venue refuses it otherwise.
 */
export async function registerSigningKey(
  registrar: SigningKeyRegistrar,
  signingPrivateKey: Hex,
  nonce: number,
  signal?: AbortSignal,
): Promise<RegisteredKey> {
  const { brokerId, venue, log, now } = registrar;
  let nonceTaken = false;
  let rateLimited = 0;
  for (;;) {
    const expiryTs = now() + registrar.credentialTtlMs;
    const request = await signRegistration({
      walletPrivateKey: registrar.walletPrivateKey,
      signingPrivateKey,
      brokerId,
      subaccountIndex: registrar.subaccountIndex,
      expiryTs,
      nonce,
      chainId: registrar.chainId,
      domain: registrar.domain,
    });
    try {
      const issued = await registrar.withPermit(() => venue.register(brokerId, request, signal));
      return {
        signerAddress: request.signingKey,
        serviceKey: issued.serviceKey,
        serviceSecret: issued.serviceSecret,
        expiryTs,
        nonce,
      };
    } catch (error) {
      if (
        error instanceof VenueError &&
        error.code === ErrorCodes.VENUE_RATE_LIMITED &&
        rateLimited < RATE_LIMITED_RETRIES
      ) {
        rateLimited += 1;
        const waitMs = Math.min(
          error.retryAfterMs ?? DEFAULT_RATE_LIMITED_WAIT_MS,
          MAX_RATE_LIMITED_WAIT_MS,
        );
        log.warn(
          { endpoint: error.endpoint, waitMs, retry: rateLimited, of: RATE_LIMITED_RETRIES },
          'registration rate-limited by the venue; trying again after its Retry-After',
        );
        await (registrar.sleep ?? systemSleep)(waitMs, signal);
        continue;
      }
      // The stored counter can lag the venue's (a lost state dir): take the venue's word once.
      const expected =
        error instanceof VenueError ? NONCE_HINT.exec(error.venueMessage ?? '') : null;
      if (!nonceTaken && expected?.[1] !== undefined && Number(expected[1]) !== nonce) {
        nonceTaken = true;
        log.warn(
          { storedNonce: nonce, venueNonce: Number(expected[1]) },
          "registration nonce out of step with the venue; using the venue's",
        );
        nonce = Number(expected[1]);
        continue;
      }
      if (isQuantaError(error)) throw error;
      throw new QuantaError(ErrorCodes.VENUE_BAD_RESPONSE, 'registration failed', {
        cause: error,
      });
    }
  }
}
