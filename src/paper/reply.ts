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
  /** The envelope's `body`; `null` for every error. */
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
