/**
 * The one HTTP call every venue operation goes through: timeout, caller abort, response size
 * cap, envelope parsing, and errors that never carry request headers (credentials travel there).
 */
import { systemClock } from '../../clock/clock.ts';
import { systemTimer } from '../../clock/timers.ts';
import type { VenueTimeProbe } from '../../clock/venue-clock.ts';
import { dateHeaderSample } from '../../clock/venue-time.ts';
import { ErrorCodes } from '../../errors/index.ts';
import {
  VenueError,
  venueAbortedError,
  venueResponseTooLargeError,
  venueTimeoutError,
  venueUnreachableError,
} from '../errors.ts';
import { parseEnvelope } from './envelope.ts';
import type { VenueEnvelope } from './envelope.ts';
import { redactSecrets } from './redact.ts';

/** Default response cap: 4 MiB, far above any market list, far below trouble. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** HTTP methods the venue API uses. */
export type VenueMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Options of `venueRequest`. */
export interface VenueRequestOptions {
  /** Base URL of the venue, e.g. `https://venue.example` (a path prefix is kept). */
  baseUrl: string;
  /** HTTP method. */
  method: VenueMethod;
  /** Path below the base URL, starting with `/`, e.g. `/api/v1/order`. */
  path: string;
  /** Query parameters; undefined values are left out. */
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** Request headers. Never copied into an error; values of 8+ characters are masked out of anything the venue echoes. */
  headers?: Readonly<Record<string, string>>;
  /** Request body: a string is sent byte for byte (so a retry resends identical bytes), anything else as `JSON.stringify`. */
  body?: unknown;
  /** Give up after this many milliseconds, answer included. */
  timeoutMs: number;
  /** Caller's cancellation (e.g. shutdown). */
  signal?: AbortSignal | undefined;
  /** Stop reading and fail beyond this many response bytes; default 4 MiB. */
  maxResponseBytes?: number | undefined;
  /** The fetch to use; default the global one (the simulator's in-process venue: src/simulation). */
  fetchImpl?: typeof fetch | undefined;
  /**
   * Starts the request's timeout timer (calls `onFire` after `ms` unless the returned function
   * is called first); default the real one (clock/timers.ts). The simulator runs it on virtual time.
   */
  startTimer?: ((ms: number, onFire: () => void) => () => void) | undefined;
  /** Clock for `Retry-After` dates; default the system's wall clock. */
  now?: () => number;
  /** Told what each answer's `Date` header says about the venue's clock (the skew check). */
  timing?: VenueTimeProbe | undefined;
}

/** A successful venue answer. */
export interface VenueResponse extends VenueEnvelope {
  /** The HTTP status (2xx). */
  readonly status: number;
  /** When the request left and its answer came, on the `timing` probe's monotonic clock. */
  readonly timing?: { readonly sentAt: number; readonly answeredAt: number };
}

type AbortWhy = 'caller' | 'timeout' | 'cap';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_HEADER_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/**
 * Sends one request to the venue and returns the parsed envelope of a 2xx answer.
 *
 * The timeout covers the whole exchange, answer body included. Redirects are not followed
 * (credentials must not be forwarded to wherever a proxy points).
 *
 * @param options - see `VenueRequestOptions`.
 * @returns body, message and status of a successful answer.
 * @throws VenueError — `ABORTED` when `signal` fires, `VENUE_TIMEOUT`, `VENUE_UNREACHABLE`,
 *   `VENUE_RESPONSE_TOO_LARGE`, `VENUE_HTTP` when the request cannot be built (invalid URL,
 *   header or body), and everything `parseEnvelope` throws for the answer.
 * @example
 * ```ts
 * const { body } = await venueRequest({
 *   baseUrl: 'http://127.0.0.1:8080', method: 'GET', path: '/api/v1/market',
 *   query: { type: 'PERPETUAL' }, timeoutMs: 5000, signal,
 * });
 * ```
 */
export async function venueRequest(options: VenueRequestOptions): Promise<VenueResponse> {
  const { method, timeoutMs } = options;
  const endpoint = `${method} ${options.path.split('?')[0] ?? ''}`;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const { base, shownUrl } = knownBase(options.baseUrl, endpoint);
  const url =
    options.query === undefined
      ? knownUrl(base, options.baseUrl, options.path)
      : buildUrl(base, options.path, options.query);
  const body = serializeBody(options.body, endpoint);
  const headers = buildHeaders(options.headers ?? {}, body !== undefined, endpoint);
  const secrets = Object.values(options.headers ?? {});
  const now = options.now ?? systemClock.now;
  checkPositive('timeoutMs', timeoutMs, endpoint);
  checkPositive('maxResponseBytes', maxBytes, endpoint);

  const callerSignal = options.signal;
  if (callerSignal?.aborted === true) throw venueAbortedError(endpoint);

  // One controller with a remembered reason instead of AbortSignal.any: we must know which of
  // caller, timeout or cap fired, and a long-lived caller signal must not collect listeners.
  const controller = new AbortController();
  let why: AbortWhy | undefined;
  const abort = (reason: AbortWhy): void => {
    if (why !== undefined) return;
    why = reason;
    controller.abort();
  };
  const onCallerAbort = (): void => abort('caller');
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const cancelTimer = (options.startTimer ?? systemTimer)(timeoutMs, () => abort('timeout'));
  const failure = (error: unknown): VenueError => {
    if (why === 'caller') return venueAbortedError(endpoint);
    if (why === 'timeout') return venueTimeoutError(endpoint, timeoutMs);
    return networkError(error, endpoint, shownUrl, timeoutMs, secrets);
  };

  const timing = options.timing;
  const sentAt = timing?.monotonic() ?? 0;
  try {
    let response: Response;
    try {
      response = await (options.fetchImpl ?? fetch)(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: controller.signal,
        redirect: 'manual',
      });
    } catch (error) {
      throw failure(error);
    }
    // Every answer, an error's included, says what time the venue has.
    const answeredAt = timing?.monotonic() ?? 0;
    timing?.observe(dateHeaderSample(response.headers.get('date'), sentAt, answeredAt));

    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      abort('cap');
      await response.body?.cancel().catch(() => undefined);
      throw venueResponseTooLargeError(endpoint, response.status, maxBytes);
    }

    let text: string;
    try {
      // A declared length within the cap bounds the body (fetch never reads past it) unless the
      // body is compressed (the length is then the compressed size): read it whole.
      const encoding = response.headers.get('content-encoding');
      text =
        Number.isFinite(declared) && (encoding === null || encoding === 'identity')
          ? await response.text()
          : await readCapped(response, maxBytes, controller.signal);
    } catch (error) {
      if (error === CAP_HIT) {
        abort('cap');
        throw venueResponseTooLargeError(endpoint, response.status, maxBytes);
      }
      throw failure(error);
    }
    // An abort can also end the stream quietly instead of failing the read.
    if (why !== undefined) throw failure(undefined);

    const envelope = parseEnvelope(
      response.status,
      text,
      response.headers.get('content-type') ?? undefined,
      { endpoint, retryAfter: response.headers.get('retry-after'), nowMs: now(), secrets },
    );
    return {
      body: envelope.body,
      message: envelope.message,
      status: response.status,
      ...(timing === undefined ? {} : { timing: { sentAt, answeredAt } }),
    };
  } finally {
    cancelTimer();
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

const CAP_HIT = Symbol('response cap hit');

async function readCapped(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<string> {
  if (response.body === null) return '';
  // Node's types leave the chunk type open; fetch bodies are bytes.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const onAbort = (): void => {
    reader.cancel().catch(() => undefined);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  const decoder = new TextDecoder('utf-8');
  let size = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- internal sentinel, caught right above
        throw CAP_HIT;
      }
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

// Base URLs and order paths are few and sent again and again: parsed and built once each.
const CACHE_MAX = 32;
const bases = new Map<string, { base: URL; shownUrl: string }>();
const urls = new Map<string, string>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, value);
  return value;
}

function knownBase(baseUrl: string, endpoint: string): { base: URL; shownUrl: string } {
  const known = bases.get(baseUrl);
  if (known !== undefined) return known;
  const base = parseBaseUrl(baseUrl, endpoint);
  return remember(bases, baseUrl, {
    base,
    shownUrl: base.origin + base.pathname.replace(/\/+$/, ''),
  });
}

function knownUrl(base: URL, baseUrl: string, path: string): string {
  const key = `${baseUrl} ${path}`;
  return urls.get(key) ?? remember(urls, key, buildUrl(base, path, undefined));
}

function parseBaseUrl(baseUrl: string, endpoint: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw requestError(
      endpoint,
      `venue URL ${baseUrl.replace(/\/\/[^/@]*@/, '//')} is not an http(s) URL`,
      'check venue.writeUrl/readUrl',
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw requestError(
      endpoint,
      `venue URL ${url.host} carries a user name or password`,
      'remove user:password@ from venue.writeUrl/readUrl',
    );
  }
  return url;
}

function buildUrl(base: URL, path: string, query: VenueRequestOptions['query']): string {
  const url = new URL(base.href);
  const [pathname = '', search] = path.split('?', 2);
  url.pathname =
    base.pathname.replace(/\/+$/, '') + (pathname.startsWith('/') ? '' : '/') + pathname;
  url.search = search ?? '';
  url.hash = '';
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.append(key, String(value));
  }
  return url.href;
}

function serializeBody(body: unknown, endpoint: string): string | undefined {
  if (body === undefined || typeof body === 'string') return body;
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    throw requestError(
      endpoint,
      `request body for ${endpoint} cannot be sent as JSON: ${error instanceof Error ? error.message : 'not serializable'}`,
    );
  }
  if (text === undefined) {
    throw requestError(endpoint, `request body for ${endpoint} cannot be sent as JSON`);
  }
  return text;
}

function buildHeaders(
  given: Readonly<Record<string, string>>,
  hasBody: boolean,
  endpoint: string,
): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (hasBody) headers['content-type'] = 'application/json';
  for (const [name, value] of Object.entries(given)) {
    // fetch's own complaint about a bad header quotes the value; ours names only the header.
    if (!HEADER_NAME.test(name)) {
      throw requestError(
        endpoint,
        `request header name ${JSON.stringify(name)} is not a valid HTTP token`,
      );
    }
    if (typeof value !== 'string' || BAD_HEADER_VALUE.test(value)) {
      throw requestError(
        endpoint,
        `request header ${name} for ${endpoint} has an invalid value (control character or not a string); not sent`,
      );
    }
    headers[name.toLowerCase()] = value;
  }
  return headers;
}

function checkPositive(name: string, value: number, endpoint: string): void {
  if (!Number.isFinite(value) || value <= 0) {
    throw requestError(
      endpoint,
      `${name} for ${endpoint} must be a positive number (got ${String(value)})`,
    );
  }
}

function requestError(endpoint: string, shortMessage: string, detail?: string): VenueError {
  return new VenueError({
    code: ErrorCodes.VENUE_HTTP,
    shortMessage,
    endpoint,
    ...(detail === undefined ? {} : { details: [detail] }),
  });
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

function networkError(
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
