import type { VenueTimeProbe } from '../../clock/venue-clock.ts';
import type { VenueRequestOptions } from '../http/index.ts';
import type { VenueError } from '../errors.ts';

/** Where and how to reach one side (read or write) of the venue. */
export interface VenueConnection {
  /** Base URL, e.g. `https://venue.example` (no trailing slash needed). */
  readonly baseUrl: string;
  /** Per-call timeout, answer included. */
  readonly timeoutMs: number;
  /** Response size cap in bytes (default 4 MiB). */
  readonly maxResponseBytes?: number;
  /** Told what each answer says about the venue's clock (the bot's skew check). */
  readonly timing?: VenueTimeProbe;
  /** The fetch to use; default the global one (the simulator's in-process venue). */
  readonly fetchImpl?: typeof fetch;
  /** Starts each request's timeout timer; default the real one (clock/timers.ts); the simulator injects its virtual clock's. */
  readonly startTimer?: (ms: number, onFire: () => void) => () => void;
  /** The host's wall clock (a `Retry-After` date without a `Date` header); default the system's. */
  readonly now?: () => number;
  /** Told of each error answer the venue gave (a 429 pauses every sender: see `venueRequest`). */
  readonly answeredError?: (error: VenueError) => void;
}

/** The request options every call on `connection` shares: where, how long, how much, on which fetch and timer. */
export function connectionOptions(
  connection: VenueConnection,
  signal: AbortSignal | undefined,
): Pick<
  VenueRequestOptions,
  | 'baseUrl'
  | 'timeoutMs'
  | 'maxResponseBytes'
  | 'fetchImpl'
  | 'startTimer'
  | 'timing'
  | 'now'
  | 'answeredError'
  | 'signal'
> {
  return {
    baseUrl: connection.baseUrl,
    timeoutMs: connection.timeoutMs,
    maxResponseBytes: connection.maxResponseBytes,
    fetchImpl: connection.fetchImpl,
    startTimer: connection.startTimer,
    timing: connection.timing,
    now: connection.now,
    answeredError: connection.answeredError,
    signal,
  };
}

/** The credential pair and signer that authenticate order calls (docs/conventions.md §4.1). */
export interface OrderCredentials {
  readonly brokerId: number;
  readonly serviceKey: string;
  readonly serviceSecret: string;
  /** The registered signing key's address. */
  readonly signerAddress: string;
  /** Header prefix, `Service-` unless a deployment names them differently. */
  readonly headerPrefix: string;
}

/** The credential headers of docs/conventions.md §4.1 (without the signature). */
export function credentialHeaders(credentials: OrderCredentials): Record<string, string> {
  const prefix = credentials.headerPrefix;
  return {
    'Broker-Id': String(credentials.brokerId),
    [`${prefix}Key`]: credentials.serviceKey,
    [`${prefix}Secret`]: credentials.serviceSecret,
    [`${prefix}Signer-Address`]: credentials.signerAddress,
  };
}
