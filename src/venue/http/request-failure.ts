import {
  venueAbortedError,
  venueTimeoutError,
  venueUnreachableError,
  type VenueError,
} from '../errors.ts';
import { redactSecrets } from './redact.ts';
import type { AbortWhy } from './request-abort.ts';
import type { PreparedRequest } from './request-parts.ts';

/**
 * The error of a request that failed with `error`: `ABORTED` when the caller aborted it,
 * `VENUE_TIMEOUT` when its timeout fired, otherwise what `networkError` makes of `error`.
 */
export function requestFailure(
  why: AbortWhy | undefined,
  error: unknown,
  request: PreparedRequest,
): VenueError {
  const { endpoint, timeoutMs } = request;
  if (why === 'caller') return venueAbortedError(endpoint);
  if (why === 'timeout') return venueTimeoutError(endpoint, timeoutMs);
  return networkError(error, endpoint, request.shownUrl, timeoutMs, request.secrets);
}

const UNREACHABLE_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the venue',
  UND_ERR_CLOSED: 'connection closed',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate cannot be verified',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host',
};
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * What a failed fetch or body read means: a timeout, an unreachable venue with the socket layer's
 * reason, or an unknown failure whose words are kept with `secrets` masked out.
 */
export function networkError(
  error: unknown,
  endpoint: string,
  shownUrl: string,
  timeoutMs: number,
  secrets: readonly string[],
): VenueError {
  const code = findErrorCode(error);
  if (code !== undefined && TIMEOUT_CODES.has(code)) return venueTimeoutError(endpoint, timeoutMs);
  const known = code === undefined ? undefined : UNREACHABLE_REASONS[code];
  if (known !== undefined && code !== undefined) {
    // These errors come from the socket layer and say nothing about the request's headers.
    return venueUnreachableError(endpoint, shownUrl, `${known} (${code})`, error);
  }
  // Unknown failure: keep its words (masked) but not the object, which we cannot vouch for.
  const words = describe(error);
  return venueUnreachableError(endpoint, shownUrl, redactSecrets(words, secrets));
}

function findErrorCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const e = queue.shift();
    if (typeof e !== 'object' || e === null || seen.has(e)) continue;
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code in UNREACHABLE_REASONS || TIMEOUT_CODES.has(code))) {
      return code;
    }
    queue.push((e as { cause?: unknown }).cause);
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner)) queue.push(...(inner as unknown[]));
  }
  return undefined;
}

function describe(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e instanceof Error; depth++) {
    parts.push(e.message);
    e = e.cause;
  }
  return parts.length === 0 ? 'request failed' : parts.join(': ');
}
