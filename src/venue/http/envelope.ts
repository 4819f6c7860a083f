/**
 * Reading the venue's response envelope `{"body", "message", "status"}` (docs/conventions.md §2) out of
 * whatever a deployment actually sends: envelopes without `body`, bare `{"error": …}`, empty
 * bodies, HTML pages from a proxy, truncated JSON, JSON under the wrong content type, and an
 * envelope status that disagrees with the HTTP status.
 */
import { systemClock } from '../../clock/clock.ts';
import { venueBadResponseError, venueErrorFromStatus } from '../errors.ts';
import { redactSecrets } from './redact.ts';
import { parseRetryAfter } from './retry-after.ts';

/** A successful venue answer: the envelope's payload and message. */
export interface VenueEnvelope {
  /** The envelope's `body`, unchecked; undefined when the venue left it out. */
  readonly body: unknown;
  /** The envelope's `message`, or `""` when absent. */
  readonly message: string;
}

/** What `parseEnvelope` needs to know beyond the answer itself. */
export interface EnvelopeContext {
  /** Method and path for error messages, e.g. `GET /api/v1/market`. */
  endpoint?: string;
  /** The answer's `Retry-After` header, if any. */
  retryAfter?: string | null | undefined;
  /** The current time (ms since the epoch), for a `Retry-After` HTTP date. */
  nowMs?: number;
  /** Values (the request's header values) masked out of anything the venue echoes back. */
  secrets?: readonly string[];
}

type Parsed =
  | { kind: 'json'; value: unknown }
  | { kind: 'empty' }
  | { kind: 'html'; excerpt: string | undefined }
  | { kind: 'broken-json'; salvaged: string | undefined; raw: string }
  | { kind: 'text'; raw: string };

/**
 * Parses one venue answer into its envelope, or throws the `VenueError` it stands for.
 *
 * Success needs a 2xx status (the worse of HTTP and envelope `status`) and a JSON object that is
 * an envelope (has `body`, `message` or `status`). Anything else throws: error statuses map as in
 * `venueErrorFromStatus`, keeping whatever message can be found (`message`, `error`,
 * `error.message`, an HTML `<title>`, or the raw text); unusable 2xx answers and unexpected
 * statuses give `VENUE_BAD_RESPONSE`. When HTTP and envelope status disagree, the error's
 * `status` is the worse one and a detail line names both.
 *
 * @param status - the HTTP status.
 * @param text - the whole response body as text.
 * @param contentType - the `Content-Type` header, if any; only a hint, the text decides.
 * @param context - endpoint, `Retry-After` and clock for the error, if any.
 * @throws VenueError for every answer that is not a success.
 * @example
 * ```ts
 * parseEnvelope(200, '{"body":{"markets":[]},"message":"ok","status":200}', 'application/json')
 * // { body: { markets: [] }, message: 'ok' }
 * ```
 */
export function parseEnvelope(
  status: number,
  text: string,
  contentType: string | undefined,
  context: EnvelopeContext = {},
): VenueEnvelope {
  const endpoint = context.endpoint ?? 'venue request';
  const parsed = parseText(text, contentType);

  const envelope = parsed.kind === 'json' && isPlainObject(parsed.value) ? parsed.value : undefined;
  const envelopeStatus = envelope === undefined ? undefined : readStatus(envelope.status);
  const effective = worseStatus(status, envelopeStatus);
  // The common case first: a success envelope needs no message search and no masking (the
  // message found below only ever goes into an error).
  if (
    isSuccess(effective) &&
    envelope !== undefined &&
    ('body' in envelope || 'message' in envelope || 'status' in envelope)
  ) {
    const message = typeof envelope.message === 'string' ? envelope.message : '';
    return { body: envelope.body, message };
  }
  // A 2xx body may carry credentials (registration answers the service secret), so raw text of
  // a success status never goes into an error; only a message field or an HTML title does.
  const rawSaid =
    envelope === undefined ? messageOf(parsed, !isSuccess(effective)) : messageOfObject(envelope);
  // Masked before the excerpt is cut, so a cut can never leave half a secret behind.
  const said = rawSaid === undefined ? undefined : redactSecrets(rawSaid, context.secrets ?? []);

  if (isSuccess(effective)) {
    if (envelope === undefined) {
      throw venueBadResponseError(endpoint, status, unusableWhat(parsed), said);
    }
    if (!('body' in envelope) && !('message' in envelope) && !('status' in envelope)) {
      const what = 'error' in envelope ? 'an error in a success answer' : 'no envelope';
      throw venueBadResponseError(endpoint, status, what, said);
    }
    const message = typeof envelope.message === 'string' ? envelope.message : '';
    return { body: envelope.body, message };
  }

  const details =
    envelopeStatus !== undefined && envelopeStatus !== status
      ? [`HTTP status ${String(status)}, envelope status ${String(envelopeStatus)}`]
      : [];
  const retryAfterMs =
    effective === 429 || effective === 503
      ? parseRetryAfter(context.retryAfter, context.nowMs ?? systemClock.now())
      : undefined;
  if (effective < 400 || effective > 599) {
    details.push(
      'a redirect or informational status: point venue.writeUrl/readUrl at the final URL',
    );
  }
  throw venueErrorFromStatus({
    status: effective,
    endpoint,
    venueMessage: said,
    retryAfterMs,
    details,
  });
}

function parseText(raw: string, contentType: string | undefined): Parsed {
  const text = raw.replace(/^\uFEFF/, '').trim();
  if (text === '') return { kind: 'empty' };
  const type = (contentType ?? '').toLowerCase();
  if (text.startsWith('<')) return { kind: 'html', excerpt: htmlExcerpt(text) };
  try {
    // Before the content type: JSON mislabelled text/html is still the venue's envelope.
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    if (type.includes('html')) return { kind: 'html', excerpt: htmlExcerpt(text) };
    if (type.includes('json') || text.startsWith('{') || text.startsWith('[')) {
      return { kind: 'broken-json', salvaged: salvageMessage(text), raw: text };
    }
    return { kind: 'text', raw: text };
  }
}

function unusableWhat(parsed: Parsed): string {
  switch (parsed.kind) {
    case 'empty':
      return 'empty answer';
    case 'html':
      return 'HTML instead of JSON';
    case 'broken-json':
      return 'invalid or truncated JSON';
    case 'text':
      return 'text instead of JSON';
    case 'json':
      return 'JSON that is not an object';
  }
}

function messageOf(parsed: Parsed, rawAllowed: boolean): string | undefined {
  switch (parsed.kind) {
    case 'empty':
      return undefined;
    case 'html':
      return parsed.excerpt;
    case 'broken-json':
      return parsed.salvaged ?? (rawAllowed ? parsed.raw : undefined);
    case 'text':
      return rawAllowed ? parsed.raw : undefined;
    case 'json':
      return rawAllowed && typeof parsed.value === 'string' ? parsed.value : undefined;
  }
}

function messageOfObject(envelope: Record<string, unknown>): string | undefined {
  if (typeof envelope.message === 'string' && envelope.message.trim() !== '') {
    return envelope.message;
  }
  const error = envelope.error;
  if (typeof error === 'string' && error.trim() !== '') return error;
  if (isPlainObject(error) && typeof error.message === 'string') return error.message;
  return undefined;
}

function readStatus(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 599 ? n : undefined;
}

function severity(status: number): number {
  if (status >= 500) return 3;
  if (status >= 400) return 2;
  if (status >= 200 && status <= 299) return 0;
  return 1;
}

/** The worse of two statuses; on a tie the HTTP status wins. */
function worseStatus(http: number, envelope: number | undefined): number {
  if (envelope === undefined) return http;
  return severity(envelope) > severity(http) ? envelope : http;
}

/** Whether `status` is a 2xx. */
export function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
};

function decodeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|apos|nbsp|#39);/g,
    (_m, name: string) => ENTITIES[name] ?? '',
  );
}

/** A proxy's error page says what happened in its `<title>` (or `<h1>`); else its visible text. */
function htmlExcerpt(html: string): string | undefined {
  const heading =
    /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ??
    /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const source =
    heading ?? html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
  const text = decodeEntities(source.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? undefined : text;
}

/** Truncated JSON may still carry a complete `"message"` or `"error"` string near its start. */
function salvageMessage(text: string): string | undefined {
  const match = /"(?:message|error)"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text);
  if (match?.[1] !== undefined) {
    try {
      return JSON.parse(`"${match[1]}"`) as string;
    } catch {
      return match[1];
    }
  }
  return undefined;
}
