import type { Market, Quote } from '../domain/index.ts';
import type { RegistrationRequest } from './schemas/index.ts';
import type { ServiceCredentials, VenueOrder } from './types.ts';

/** The exact bytes of a signed order: sent, and resent, as they are. */
export interface SignedOrderRequest {
  readonly body: string;
  readonly signature: string;
  /** The address of the key that signed `body` (picks the credential that sends it). */
  readonly signer: string;
}

/**
 * Looks one order up by the venue's id (docs/conventions.md §6 extension): the venue's view of
 * it, or `undefined` when the venue does not know it. Rejects with a `VenueError` when asking
 * failed; `signal` (optional) aborts the question.
 */
export type OrderLookup = (
  venueOrderId: number,
  signal?: AbortSignal,
) => Promise<VenueOrder | undefined>;

/**
 * Looks one order up by the signature of the request that created it (docs/conventions.md §6
 * extension): the venue's view of it, or `undefined` when the venue never accepted that
 * signature. How an order whose answer was lost (ACCEPTED after a 409, or UNKNOWN) is
 * reconciled. Rejects with a `VenueError` when asking failed.
 */
export type OrderFinder = (
  signature: string,
  signal?: AbortSignal,
) => Promise<VenueOrder | undefined>;

/**
 * Registers a signing key for a subaccount (docs/trading-service-api.md §4.1): `request` is
 * signed by the wallet and the new key (`signRegistration`), for broker `brokerId`. Resolves to
 * the credential pair (its secret is never logged) or rejects with a `VenueError` carrying the
 * venue's reason (e.g. "invalid nonce: expected 1"). Needs no credentials of its own.
 */
export type Registrar = (
  brokerId: number,
  request: RegistrationRequest,
  signal?: AbortSignal,
) => Promise<ServiceCredentials>;

/**
 * The one seam between quanta and a venue: everything the poller, the dispatcher and the
 * executor ask of it, in domain types. Live and paper trading speak it over HTTP
 * (`httpVenueClient`, venue/http-venue-client.ts); a backtest speaks it to the simulation
 * engine in-process (backtest/latent-venue.ts). A new transport (another deployment, a
 * recorded-answer replayer) is one object implementing this; a wrapper around any client
 * (metrics, latency, injected faults, a recorder) is another, composed by
 * `BotOptions.venueClient` or `BacktestOptions.venueClient`.
 *
 * Failures are thrown as `VenueError`s (venue/errors.ts) with the HTTP venue's statuses, so
 * the retry policy and the executor take the same paths whichever client answered.
 *
 * Registration (credentials for a new signing key) goes through it too: the credential manager
 * (account/credential-manager.ts) registers and renews with `register`.
 */
export interface VenueClient {
  /** The market list (docs/trading-service-api.md §4.1); rejects when `signal` aborts. */
  listMarkets(signal: AbortSignal): Promise<Market[]>;
  /**
   * Quotes, or `undefined` when the venue has no quotes endpoint; rejects when `signal` aborts.
   * With `marketId`, that market's quote only (docs/conventions.md §6: `?marketId=`; an empty
   * list when it is unknown or inactive).
   */
  getQuotes(signal: AbortSignal, marketId?: number): Promise<Quote[] | undefined>;
  /**
   * Places signed order bytes once (docs/trading-service-api.md §4.2). Resolves to the venue's
   * order or rejects with a `VenueError`; a resend is another call with the same bytes.
   */
  createOrder(request: SignedOrderRequest, signal: AbortSignal): Promise<VenueOrder>;
  /** One order by the venue's id; see {@link OrderLookup}. */
  getOrder: OrderLookup;
  /**
   * One order by its request's signature; see {@link OrderFinder}. Absent where the venue has
   * no such lookup: orders whose answer was lost then stay unresolved (counted at full size).
   */
  findOrder?: OrderFinder;
  /** Registers a signing key; see {@link Registrar}. */
  register: Registrar;
}

/** The two reads a poll makes (the poller and the recorder need no more). */
export type VenueReads = Pick<VenueClient, 'listMarkets' | 'getQuotes'>;
