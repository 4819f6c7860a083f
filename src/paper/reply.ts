/**
 * What a paper venue route answers: the parts of the docs/conventions.md §2 envelope plus extra
 * headers. Routes return replies instead of throwing, so every outcome, refusals included, is a
 * value the pipeline writes the same way.
 */
export interface Reply {
  /** The HTTP status, repeated as the envelope's `status`. */
  readonly status: number;
  /** The envelope's `message`. Never holds a credential or a signature. */
  readonly message: string;
  /** The envelope's `body`; `null` for every error; an {@link EncodedBody} goes in as its text. */
  readonly body: unknown;
  /** Extra response headers, e.g. `Retry-After` or `Allow`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A 200 answer carrying `body`. */
export function ok(body: unknown, message: string): Reply {
  return { status: 200, message, body };
}

/** An error answer: `body` is `null`, `status` the HTTP status (docs/conventions.md §2). */
export function fail(
  status: number,
  message: string,
  headers?: Readonly<Record<string, string>>,
): Reply {
  return headers === undefined
    ? { status, message, body: null }
    : { status, message, body: null, headers };
}

/**
 * A body already written as JSON text, for an answer a route encodes once and serves many times
 * (the market listing): {@link envelopeText} puts the text in as it is.
 */
export class EncodedBody {
  /** The body as `JSON.stringify` would write it. */
  readonly json: string;

  constructor(json: string) {
    this.json = json;
  }
}

/**
 * The docs/conventions.md §2 envelope `{"body", "message", "status"}` of a reply as JSON text:
 * what every writer of a reply sends. An {@link EncodedBody} gives the same text as its value
 * would (`JSON.stringify` writes the three keys in this order, without spaces).
 */
export function envelopeText(reply: Reply): string {
  const { body, message, status } = reply;
  if (body instanceof EncodedBody) {
    return `{"body":${body.json},"message":${JSON.stringify(message)},"status":${JSON.stringify(status)}}`;
  }
  return JSON.stringify({ body, message, status });
}
