import { ErrorCodes } from '../../errors/index.ts';
import { VenueError } from '../errors.ts';

/** A request checked and built, ready to send, and what its errors may show. */
export interface PreparedRequest {
  /** `METHOD /path` (no query), as every error names the call. */
  readonly endpoint: string;
  readonly url: string;
  readonly body: string | undefined;
  readonly headers: Record<string, string>;
  /** The header values, masked out of anything the venue echoes. */
  readonly secrets: readonly string[];
  /** The base URL as errors show it. */
  readonly shownUrl: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_HEADER_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** The body as sent: a string byte for byte, anything else as JSON. */
export function serializeBody(body: unknown, endpoint: string): string | undefined {
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

/** The headers as sent, each checked (an error names the header, never its value). */
export function buildHeaders(
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

/** Refuses a request option (a timeout, a byte limit) that is not a positive finite number. */
export function checkPositive(name: string, value: number, endpoint: string): void {
  if (!Number.isFinite(value) || value <= 0) {
    throw requestError(
      endpoint,
      `${name} for ${endpoint} must be a positive number (got ${String(value)})`,
    );
  }
}

/** `VENUE_HTTP`: the request cannot be built as asked. */
export function requestError(endpoint: string, shortMessage: string, detail?: string): VenueError {
  return new VenueError({
    code: ErrorCodes.VENUE_HTTP,
    shortMessage,
    endpoint,
    ...(detail === undefined ? {} : { details: [detail] }),
  });
}
