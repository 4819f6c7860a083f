/**
 * The venue error taxonomy: every failed venue call, whatever went wrong on the wire, ends as one
 * `VenueError` with a stable code. Messages keep the venue's own words (a short excerpt) and the
 * endpoint, never request headers or query strings, which is where credentials travel.
 */
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { ErrorCode } from '../errors/index.ts';

/** Longest venue message excerpt kept on an error, in characters. */
const VENUE_MESSAGE_MAX_CHARS = 200;

/** Fields of a `VenueError`. */
export interface VenueErrorInit {
  /** Stable code from `ErrorCodes`. */
  code: ErrorCode;
  /** One line saying what failed, naming the endpoint. */
  shortMessage: string;
  /** Method and path, e.g. `POST /api/v1/order`; never the query string. */
  endpoint: string;
  /** HTTP status the error stands for; undefined for network failures, timeouts and aborts. */
  status?: number | undefined;
  /** What the venue said; cut to `VENUE_MESSAGE_MAX_CHARS` on construction. */
  venueMessage?: string | undefined;
  /** How long the venue asked to wait before the next call (429), in milliseconds. */
  retryAfterMs?: number | undefined;
  /** Extra lines telling the user what to do. */
  details?: readonly string[];
  /** The underlying error, for diagnosis. Must not carry request headers. */
  cause?: unknown;
}

/**
 * A venue call that did not give a usable answer. `code` says what kind of failure it is (see
 * the table in `venueErrorFromStatus`; what a code means for an order, a retry and the exit
 * code is in the error registry, `ErrorMeanings`), `status` the HTTP status (undefined when no
 * answer came), `endpoint` the method and path, `venueMessage` a short excerpt of what the
 * venue said.
 *
 * @example
 * ```ts
 * try { await venueRequest({ ... }) } catch (e) {
 *   if (e instanceof VenueError && e.code === ErrorCodes.VENUE_SIGNATURE_USED) {
 *     // the first attempt of this order landed
 *   }
 * }
 * ```
 */
export class VenueError extends QuantaError {
  override name = 'VenueError';
  /** HTTP status; undefined for network failures, timeouts and aborts. */
  readonly status: number | undefined;
  /** Method and path, e.g. `POST /api/v1/order`. */
  readonly endpoint: string;
  /** Excerpt (≤ 200 characters) of the venue's message, when it said something. */
  readonly venueMessage: string | undefined;
  /** Wait the venue asked for before the next call, in milliseconds (429 `Retry-After`). */
  readonly retryAfterMs: number | undefined;

  constructor(init: VenueErrorInit) {
    super(init.code, init.shortMessage, {
      cause: init.cause,
      ...(init.details === undefined ? {} : { details: init.details }),
    });
    this.status = init.status;
    this.endpoint = init.endpoint;
    this.venueMessage = venueExcerpt(init.venueMessage);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * Cuts what a venue said down to one line of at most `VENUE_MESSAGE_MAX_CHARS` characters.
 *
 * @param text - the raw message, possibly multi-line or huge.
 * @returns the excerpt, or undefined when nothing printable is left.
 */
function venueExcerpt(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const flat = text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
  if (flat === '') return undefined;
  if (flat.length <= VENUE_MESSAGE_MAX_CHARS) return flat;
  return flat.slice(0, VENUE_MESSAGE_MAX_CHARS - 1) + '…';
}

/** Input of `venueErrorFromStatus`. */
export interface VenueStatusErrorInput {
  /** The HTTP status (or the worse of HTTP and envelope status), 400..599. */
  status: number;
  /** Method and path. */
  endpoint: string;
  /** What the venue said, if anything. */
  venueMessage?: string | undefined;
  /** Parsed `Retry-After`, in milliseconds. */
  retryAfterMs?: number | undefined;
  /** Extra lines, e.g. that HTTP and envelope status disagreed. */
  details?: readonly string[];
}

const SIGNATURE_USED = /signature already used/i;

/**
 * Turns an error status from the venue into a `VenueError`:
 *
 * | status | code |
 * |---|---|
 * | 400, 413, other 4xx | `VENUE_REJECTED` |
 * | 400 saying "signature already used", 409 | `VENUE_SIGNATURE_USED` |
 * | 401 | `VENUE_CREDENTIALS_REFUSED` |
 * | 403 | `VENUE_FORBIDDEN` |
 * | 404 | `VENUE_NOT_FOUND` |
 * | 429 | `VENUE_RATE_LIMITED` |
 * | 5xx | `VENUE_SERVER_ERROR` |
 * | anything else | `VENUE_BAD_RESPONSE` |
 *
 * @example
 * ```ts
 * venueErrorFromStatus({ status: 400, endpoint: 'POST /api/v1/order', venueMessage: 'market 9 not found' })
 * // message: "venue refused POST /api/v1/order (400): market 9 not found"
 * ```
 */
export function venueErrorFromStatus(input: VenueStatusErrorInput): VenueError {
  const { status, endpoint } = input;
  const said = venueExcerpt(input.venueMessage);
  const tail = said === undefined ? '' : `: ${said}`;
  const details = [...(input.details ?? [])];
  const make = (code: ErrorCode, shortMessage: string): VenueError =>
    new VenueError({
      code,
      shortMessage,
      endpoint,
      status,
      venueMessage: said,
      retryAfterMs: input.retryAfterMs,
      details,
    });

  if (status === 409 || (status === 400 && said !== undefined && SIGNATURE_USED.test(said))) {
    details.push('an earlier request with these exact signed bytes was accepted');
    return make(
      ErrorCodes.VENUE_SIGNATURE_USED,
      `venue has already seen this signature at ${endpoint} (${status})${tail}`,
    );
  }
  if (status === 401) {
    // Advice to "register again" is no use when the refused call was the registration.
    details.push(
      endpoint.endsWith('/api/v1/auth')
        ? 'check venue.brokerId, venue.subaccount and the wallet key named by wallet.privateKeyEnv'
        : 'register again (quanta register) or check venue.brokerId and the credentials',
    );
    return make(
      ErrorCodes.VENUE_CREDENTIALS_REFUSED,
      `venue refused the credentials for ${endpoint} (401)${tail}`,
    );
  }
  if (status === 403) {
    return make(ErrorCodes.VENUE_FORBIDDEN, `venue forbade ${endpoint} (403)${tail}`);
  }
  if (status === 404) {
    return make(ErrorCodes.VENUE_NOT_FOUND, `venue has nothing at ${endpoint} (404)${tail}`);
  }
  if (status === 429) {
    const wait =
      input.retryAfterMs === undefined ? '' : `, retry after ${String(input.retryAfterMs)} ms`;
    return make(
      ErrorCodes.VENUE_RATE_LIMITED,
      `venue rate-limited ${endpoint} (429${wait})${tail}`,
    );
  }
  if (status >= 400 && status <= 499) {
    return make(ErrorCodes.VENUE_REJECTED, `venue refused ${endpoint} (${String(status)})${tail}`);
  }
  if (status >= 500 && status <= 599) {
    return make(
      ErrorCodes.VENUE_SERVER_ERROR,
      `venue failed at ${endpoint} (${String(status)})${tail}`,
    );
  }
  return make(
    ErrorCodes.VENUE_BAD_RESPONSE,
    `venue answered ${endpoint} with unexpected HTTP status ${String(status)}${tail}`,
  );
}

/**
 * Builds the error for an answer that came but cannot be used: empty, not JSON, HTML, no
 * envelope, or an error hidden in a 2xx.
 *
 * @param endpoint - method and path.
 * @param status - the HTTP status of the answer.
 * @param what - what was wrong, e.g. `"empty answer"`.
 * @param venueMessage - excerpt of what was received, if any.
 */
export function venueBadResponseError(
  endpoint: string,
  status: number,
  what: string,
  venueMessage?: string,
): VenueError {
  const said = venueExcerpt(venueMessage);
  return new VenueError({
    code: ErrorCodes.VENUE_BAD_RESPONSE,
    shortMessage: `venue gave an unusable answer to ${endpoint} (${String(status)}): ${what}${
      said === undefined ? '' : `: ${said}`
    }`,
    endpoint,
    status,
    venueMessage: said,
  });
}

/** The error for a call that got no complete answer within `timeoutMs`. */
export function venueTimeoutError(endpoint: string, timeoutMs: number): VenueError {
  return new VenueError({
    code: ErrorCodes.VENUE_TIMEOUT,
    shortMessage: `venue did not answer ${endpoint} within ${String(timeoutMs)} ms`,
    endpoint,
    details: ['raise venue.timeoutMs if the venue is slow but healthy'],
  });
}

/**
 * The error for a call that could not reach the venue (connection refused, DNS failure, reset).
 *
 * @param endpoint - method and path.
 * @param url - the base URL tried, without credentials or query.
 * @param reason - what the network said, e.g. `"connection refused (ECONNREFUSED)"`.
 * @param cause - the network error; must not carry request headers.
 */
export function venueUnreachableError(
  endpoint: string,
  url: string,
  reason: string,
  cause?: unknown,
): VenueError {
  return new VenueError({
    code: ErrorCodes.VENUE_UNREACHABLE,
    shortMessage: `venue unreachable at ${url} for ${endpoint}: ${reason}`,
    endpoint,
    details: [`check that the venue runs there and that venue.writeUrl/readUrl point at it`],
    cause,
  });
}

/** The error for a call the caller's `AbortSignal` cancelled. */
export function venueAbortedError(endpoint: string): VenueError {
  return new VenueError({
    code: ErrorCodes.ABORTED,
    shortMessage: `${endpoint} aborted by the caller`,
    endpoint,
  });
}

/** The error for an answer larger than the response cap; reading stopped at the cap. */
export function venueResponseTooLargeError(
  endpoint: string,
  status: number,
  maxBytes: number,
): VenueError {
  return new VenueError({
    code: ErrorCodes.VENUE_RESPONSE_TOO_LARGE,
    shortMessage: `venue answer to ${endpoint} (${String(status)}) exceeds ${String(maxBytes)} bytes; stopped reading`,
    endpoint,
    status,
  });
}
