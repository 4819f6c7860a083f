/**
 * The one HTTP call every venue operation goes through: timeout, caller abort, response size
 * cap, envelope parsing, and errors that never carry request headers (credentials travel there).
 */
import { systemClock } from '../../clock/clock.ts';
import { systemTimer } from '../../clock/timers.ts';
import type { VenueTimeProbe } from '../../clock/venue-clock.ts';
import { dateHeaderSample, httpDateMs } from '../../clock/venue-time.ts';
import { VenueError, venueAbortedError, venueResponseTooLargeError } from '../errors.ts';
import { isSuccess, parseEnvelope } from './envelope.ts';
import type { VenueEnvelope } from './envelope.ts';
import { RequestAbort, type StartTimer } from './request-abort.ts';
import { requestFailure } from './request-failure.ts';
import {
  buildHeaders,
  checkPositive,
  serializeBody,
  type PreparedRequest,
} from './request-parts.ts';
import { knownBase, requestUrl, type VenueQuery } from './request-url.ts';
import { CAP_HIT, readCapped } from './response-body.ts';

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
  query?: VenueQuery;
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
  startTimer?: StartTimer | undefined;
  /**
   * The host's wall clock: what a `Retry-After` date is measured from when the answer has no
   * `Date` header (with one, the venue's own time is); default the system's wall clock.
   */
  now?: (() => number) | undefined;
  /**
   * Told of each error answer the venue gave, before it is thrown: whatever request drew a 429,
   * every sender of the account must wait out its `Retry-After` (the bot pauses its rate budget).
   */
  answeredError?: ((error: VenueError) => void) | undefined;
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
  return withRequest(options, async (request, abort) =>
    toResponse(options, request, await fetchAnswer(options, request, abort)),
  );
}

/** A 2xx answer's exact text and what an endpoint decoded it into. */
export interface DecodedAnswer<T> {
  readonly text: string;
  readonly value: T;
}

/** Where an endpoint keeps its last decoded answer (see {@link venueRequestDecoded}). */
export interface AnswerMemo<T> {
  last: DecodedAnswer<T> | undefined;
}

/**
 * `venueRequest` and then `decode` of the answer's body, for a read whose answer often repeats
 * word for word (the market listing, polled every second): a 2xx answer whose text is exactly
 * the last decoded one's is neither parsed nor decoded again; `memo`'s value is returned. That
 * is what parsing it would give: the envelope's outcome depends only on the text once the HTTP
 * status is 2xx (the text that was stored passed with a 2xx), and `decode` only on the body.
 * Every other answer is parsed and decoded as `venueRequest` does, and a decoded one replaces
 * the memo.
 *
 * @param decode - turns the envelope's body into the value (a wire schema's parse).
 * @throws what `venueRequest` and `decode` throw.
 */
export async function venueRequestDecoded<T>(
  options: VenueRequestOptions,
  decode: (body: unknown) => T,
  memo: AnswerMemo<T>,
): Promise<T> {
  return withRequest(options, async (request, abort) => {
    const answer = await fetchAnswer(options, request, abort);
    const last = memo.last;
    if (last !== undefined && isSuccess(answer.response.status) && answer.text === last.text) {
      return last.value;
    }
    const value = decode(toResponse(options, request, answer).body);
    memo.last = { text: answer.text, value };
    return value;
  });
}

/** Prepares the request and runs `exchange` under its abort (caller, timeout, cap), released after. */
async function withRequest<T>(
  options: VenueRequestOptions,
  exchange: (request: PreparedRequest, abort: RequestAbort) => Promise<T>,
): Promise<T> {
  const request = prepareRequest(options);
  if (options.signal?.aborted === true) throw venueAbortedError(request.endpoint);
  const abort = new RequestAbort(
    options.signal,
    request.timeoutMs,
    options.startTimer ?? systemTimer,
  );
  try {
    return await exchange(request, abort);
  } finally {
    abort.release();
  }
}

/**
 * Checks and builds the request: URL, body, headers, timeout and cap.
 *
 * @throws VenueError `VENUE_HTTP` naming what cannot be sent.
 */
function prepareRequest(options: VenueRequestOptions): PreparedRequest {
  const { method, timeoutMs } = options;
  const endpoint = `${method} ${options.path.split('?')[0] ?? ''}`;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const { base, shownUrl } = knownBase(options.baseUrl, endpoint);
  const url = requestUrl(base, options.baseUrl, options.path, options.query);
  const body = serializeBody(options.body, endpoint);
  const headers = buildHeaders(options.headers ?? {}, body !== undefined, endpoint);
  const secrets = Object.values(options.headers ?? {});
  checkPositive('timeoutMs', timeoutMs, endpoint);
  checkPositive('maxResponseBytes', maxBytes, endpoint);
  return { endpoint, url, body, headers, secrets, shownUrl, timeoutMs, maxBytes };
}

/** An answer as read, before its envelope is parsed. */
interface RawAnswer {
  readonly response: Response;
  readonly text: string;
  readonly sentAt: number;
  readonly answeredAt: number;
}

/** Sends the request and reads its answer within the cap. */
async function fetchAnswer(
  options: VenueRequestOptions,
  request: PreparedRequest,
  abort: RequestAbort,
): Promise<RawAnswer> {
  const timing = options.timing;
  const sentAt = timing?.monotonic() ?? 0;
  let response: Response;
  try {
    response = await (options.fetchImpl ?? fetch)(request.url, {
      method: options.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: abort.signal,
      redirect: 'manual',
    });
  } catch (error) {
    throw requestFailure(abort.why, error, request);
  }
  // Every answer, an error's included, says what time the venue has.
  const answeredAt = timing?.monotonic() ?? 0;
  timing?.observe(dateHeaderSample(response.headers.get('date'), sentAt, answeredAt));
  const text = await readAnswer(response, request, abort);
  return { response, text, sentAt, answeredAt };
}

/** Parses the answer's envelope into the response, or throws the error it stands for. */
function toResponse(
  options: VenueRequestOptions,
  request: PreparedRequest,
  answer: RawAnswer,
): VenueResponse {
  const { response, sentAt, answeredAt } = answer;
  let envelope: ReturnType<typeof parseEnvelope>;
  try {
    envelope = parseEnvelope(
      response.status,
      answer.text,
      response.headers.get('content-type') ?? undefined,
      {
        endpoint: request.endpoint,
        retryAfter: response.headers.get('retry-after'),
        // A `Retry-After` date is the venue's time: measured against the answer's own `Date`, a
        // host clock off the venue's neither shortens nor stretches the wait (RFC 9110 §10.2.3).
        nowMs: httpDateMs(response.headers.get('date')) ?? (options.now ?? systemClock.now)(),
        secrets: request.secrets,
      },
    );
  } catch (error) {
    if (error instanceof VenueError) options.answeredError?.(error);
    throw error;
  }
  return {
    body: envelope.body,
    message: envelope.message,
    status: response.status,
    ...(options.timing === undefined ? {} : { timing: { sentAt, answeredAt } }),
  };
}

/**
 * The answer's body as text, within the cap.
 *
 * @throws VenueError `VENUE_RESPONSE_TOO_LARGE` past the cap (declared or read), else what
 *   `requestFailure` makes of a failed or aborted read.
 */
async function readAnswer(
  response: Response,
  request: PreparedRequest,
  abort: RequestAbort,
): Promise<string> {
  const { endpoint, maxBytes } = request;
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    abort.abort('cap');
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
        : await readCapped(response, maxBytes, abort.signal);
  } catch (error) {
    if (error === CAP_HIT) {
      abort.abort('cap');
      throw venueResponseTooLargeError(endpoint, response.status, maxBytes);
    }
    throw requestFailure(abort.why, error, request);
  }
  // An abort can also end the stream quietly instead of failing the read.
  if (abort.why !== undefined) throw requestFailure(abort.why, undefined, request);
  return text;
}
