import { ErrorCodes, isQuantaError, QuantaError } from '../errors/index.ts';
import {
  createOrder,
  findOrder,
  getOrder,
  getQuotes,
  listMarkets,
  newMarketListMemo,
  register,
  type OrderCredentials,
  type VenueConnection,
} from './endpoints/index.ts';
import type { SignedOrderRequest, VenueClient, VenueReads } from './venue-client.ts';

/**
 * The credentials order calls are sent with (account/credential-manager.ts keeps them): the
 * newest for lookups, the one of the key that signed an order for sending it.
 */
export interface VenueCredentials {
  current(): { readonly credentials: OrderCredentials };
  /**
   * The credential of `signer` while an order can still reach the venue before it expires;
   * `undefined` after (credential-manager.ts: its send margin).
   */
  forSigner(signer: string): { readonly credentials: OrderCredentials } | undefined;
  /**
   * The venue refused the credential of signing key `signer` (401: revoked, or expired by its
   * clock): it must not carry another order, and a new one is due. Must not throw.
   */
  refused(signer: string): void;
  /** Whether the venue refused the credential of signing key `signer`. */
  isRefused(signer: string): boolean;
  /**
   * The credential a lookup goes with: one the venue has not refused and that has not expired;
   * undefined: none (the lookup is not sent).
   */
  forLookup(): { readonly credentials: OrderCredentials } | undefined;
}

/**
 * The reads of {@link httpVenueClient} alone, which need no credentials (the recorder). The
 * listing is decoded again only when its text changed (endpoints/list-markets.ts).
 */
export function httpVenueReads(read: VenueConnection): VenueReads {
  const memo = newMarketListMemo();
  return {
    listMarkets: (signal) => listMarkets(read, { signal, memo }),
    getQuotes: (signal, marketId) => getQuotes(read, { signal, marketId }),
  };
}

/**
 * The registration of {@link httpVenueClient} alone, which needs no credentials (the credential
 * manager registers before there are any).
 */
export function httpVenueRegistrar(write: VenueConnection): Pick<VenueClient, 'register'> {
  return {
    register: (brokerId, request, signal) => register(write, brokerId, request, { signal }),
  };
}

/** What {@link httpVenueClient} talks to. */
export interface HttpVenueClientOptions {
  /** Reads: markets and quotes. */
  readonly read: VenueConnection;
  /** Order calls: create and look up, authenticated with `credentials`; registration. */
  readonly write: VenueConnection;
  readonly credentials: VenueCredentials;
}

/**
 * `request` itself, and `credentials` told when the venue refused the credential it went with
 * (401). A branch beside the request, not a wrapper around it: the caller's continuation runs
 * when it would without it (the simulator's schedules depend on that order), right after this
 * one. What the branch calls must not throw (it would go unhandled).
 */
function noteRefusal<T>(
  credentials: VenueCredentials,
  used: OrderCredentials,
  request: Promise<T>,
): Promise<T> {
  void request.catch((error: unknown) => {
    if (isQuantaError(error, ErrorCodes.VENUE_CREDENTIALS_REFUSED))
      credentials.refused(used.signerAddress);
  });
  return request;
}

/** The error of a lookup no credential can carry (all refused or expired): it is not sent. */
function noLookupCredential(): QuantaError {
  return new QuantaError(
    ErrorCodes.SIGNING_KEY_REFUSED,
    'no credentials to look an order up with: the venue refused them, or they expired; a new key is due',
  );
}

/**
 * The {@link VenueClient} of an HTTP venue (docs/trading-service-api.md, docs/conventions.md):
 * live venues and the paper venue alike. Each request carries its connection's timeout
 * (venue/http/request.ts); the caller's signal only cuts it shorter.
 *
 * Reads pass the caller's signal straight through: combining a long-lived run signal with a
 * fresh `AbortSignal.timeout` on every poll, as the poller once did with `AbortSignal.any`,
 * leaves the combined signals retained by the long-lived one on Node 20.
 *
 * An order is sent with the credential that belongs to the key that signed it (a renewal leaves
 * older keys valid until they expire, so their orders can be resent); a lookup with the newest
 * one the venue has not refused (`forLookup`). A 401 marks the key it went with refused.
 */
export function httpVenueClient(options: HttpVenueClientOptions): VenueClient {
  const { write, credentials } = options;
  return {
    ...httpVenueReads(options.read),
    ...httpVenueRegistrar(write),
    createOrder(request: SignedOrderRequest, signal: AbortSignal) {
      const active = credentials.forSigner(request.signer);
      if (active === undefined && credentials.isRefused(request.signer)) {
        return Promise.reject(
          new QuantaError(
            ErrorCodes.SIGNING_KEY_REFUSED,
            `signing key refused: the venue refused the credentials of signer ${request.signer} (revoked); the order was not sent and cannot be resent`,
          ),
        );
      }
      if (active === undefined) {
        return Promise.reject(
          // Its own code, not the venue's 401: nothing left, and the registry must know that.
          new QuantaError(
            ErrorCodes.SIGNING_KEY_EXPIRED,
            `signing key expired: no valid credential for signer ${request.signer} (or only one too close to its expiry to reach the venue in time)`,
            {
              details: [
                'The order was signed by a key whose credentials expired, or would expire before the request could reach the venue (within its timeout plus the clock skew allowed); it was not sent and cannot be resent.',
              ],
            },
          ),
        );
      }
      return noteRefusal(
        credentials,
        active.credentials,
        createOrder(
          write,
          active.credentials,
          { body: request.body, signature: request.signature },
          { signal },
        ),
      );
    },
    getOrder: (venueOrderId, signal) => {
      const used = credentials.forLookup()?.credentials;
      if (used === undefined) return Promise.reject(noLookupCredential());
      return noteRefusal(credentials, used, getOrder(write, used, venueOrderId, { signal }));
    },
    findOrder: (signature, signal) => {
      const used = credentials.forLookup()?.credentials;
      if (used === undefined) return Promise.reject(noLookupCredential());
      return noteRefusal(credentials, used, findOrder(write, used, signature, { signal }));
    },
  };
}
