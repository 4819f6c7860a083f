import { systemClock } from '../clock/clock.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { SimEngine, SimListing } from '../sim/index.ts';
import type { Market } from '../domain/index.ts';
import type { PaperServerLimits } from './server-limits.ts';
import { DEFAULT_SIGNING_DOMAIN, type SigningDomainConfig } from '../venue/types.ts';

/** Options of `startPaperVenue`. All are optional. */
export interface PaperVenueOptions {
  /** The address to listen on. Default `127.0.0.1` (loopback: credentials travel in clear). */
  readonly host?: string;
  /** The port; default 0, any free port (read it from the returned `url`). */
  readonly port?: number;
  /**
   * Seeds the engine's price walks (when the venue builds the engine) and makes credentials
   * deterministic. Without it credentials come from the OS CSPRNG and the engine uses its
   * default seed.
   */
  readonly seed?: number;
  /**
   * Ms since the epoch. Default `Date.now`. Registration windows, credential expiry and the
   * rate limit read it; the engine the venue builds reads it too. Give an `engine` the same
   * clock.
   */
  readonly clock?: () => number;
  /** A simulation engine to serve; otherwise one is built from `seed`, `clock` and the options below. */
  readonly engine?: SimEngine;
  /**
   * Requests per second per client (remote address), over all endpoints, in a sliding window;
   * beyond it 429 with `Retry-After`. Default: no limit.
   */
  readonly rateLimit?: number;
  /**
   * Keep a log of every request (arrival time, path, whether the rate limit refused it), read
   * with `requestLog()`: how tests measure the rate a venue saw. Off by default (it grows).
   */
  readonly logRequests?: boolean;
  /** EIP-712 domain values (docs/conventions.md §3-§4). Default `DEFAULT_SIGNING_DOMAIN`. */
  readonly domain?: SigningDomainConfig;
  /** Prefix of the credential headers (docs/conventions.md §4.1). Default `Service-`. */
  readonly headerPrefix?: string;
  /** Markets of the built engine. Default: the docs/conventions.md §7 markets. Not with `engine`. */
  readonly markets?: readonly Market[];
  /** Price walk volatility of the built engine, basis points per step. Not with `engine`. */
  readonly volatilityBps?: number;
  /** Bid-ask spread of the built engine's books, basis points. Not with `engine`. */
  readonly spreadBps?: number;
  /** Notional of each level of the built engine's books, quote units (decimal string). Default "25000". Not with `engine`. */
  readonly levelNotional?: string;
  /** Markets of the built engine that turn active later (inactive until then). Not with `engine`. */
  readonly listings?: readonly SimListing[];
  /** Starting cash of every subaccount of the built engine, quote units. Default "100000". Not with `engine`. */
  readonly balance?: string;
  /** Connection cap and timeouts for slow clients. Default `DEFAULT_SERVER_LIMITS`. */
  readonly limits?: PaperServerLimits;
}

/** Checked options with defaults applied. */
export interface ResolvedPaperOptions {
  readonly host: string;
  readonly port: number;
  readonly seed: number | undefined;
  readonly clock: () => number;
  readonly engine: SimEngine | undefined;
  readonly rateLimit: number | undefined;
  readonly logRequests: boolean;
  readonly domain: SigningDomainConfig;
  readonly headerPrefix: string;
  readonly markets: readonly Market[] | undefined;
  readonly volatilityBps: number | undefined;
  readonly spreadBps: number | undefined;
  readonly levelNotional: string | undefined;
  readonly listings: readonly SimListing[] | undefined;
  readonly balance: string | undefined;
}

// RFC 9110 token characters: what a header name may be made of.
const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]*$/;

function invalid(message: string): QuantaError {
  return new QuantaError(ErrorCodes.PAPER_INVALID_OPTION, `paper venue option ${message}`);
}

/**
 * Checks `startPaperVenue` options and applies defaults.
 *
 * @throws QuantaError `QUANTA_PAPER_INVALID_OPTION` naming the option and the rule.
 */
export function resolvePaperOptions(options: PaperVenueOptions): ResolvedPaperOptions {
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host.trim() === '') {
    throw invalid('host: expected a host name or IP address');
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw invalid(`port: expected an integer from 0 to 65535, got ${String(port)}`);
  }
  const { seed, rateLimit } = options;
  if (seed !== undefined && (!Number.isSafeInteger(seed) || seed < 0)) {
    throw invalid(`seed: expected a non-negative safe integer, got ${String(seed)}`);
  }
  if (rateLimit !== undefined && (!Number.isSafeInteger(rateLimit) || rateLimit <= 0)) {
    throw invalid(
      `rateLimit: expected a positive integer of requests per second, got ${String(rateLimit)}`,
    );
  }
  const clock = options.clock ?? systemClock.now;
  if (typeof clock !== 'function') throw invalid('clock: expected a function returning ms');
  const headerPrefix = options.headerPrefix ?? 'Service-';
  if (typeof headerPrefix !== 'string' || !HEADER_TOKEN.test(headerPrefix)) {
    throw invalid('headerPrefix: expected header-name characters, e.g. "Service-"');
  }
  if (options.engine !== undefined) {
    const clash = (
      ['markets', 'volatilityBps', 'spreadBps', 'levelNotional', 'listings', 'balance'] as const
    ).filter((name) => options[name] !== undefined);
    if (clash.length > 0) {
      throw invalid(`${clash.join(', ')}: configure the engine itself when passing one as engine`);
    }
  }
  return {
    host,
    port,
    seed,
    clock,
    engine: options.engine,
    rateLimit,
    logRequests: options.logRequests === true,
    domain: options.domain ?? DEFAULT_SIGNING_DOMAIN,
    headerPrefix,
    markets: options.markets,
    volatilityBps: options.volatilityBps,
    spreadBps: options.spreadBps,
    levelNotional: options.levelNotional,
    listings: options.listings,
    balance: options.balance,
  };
}
