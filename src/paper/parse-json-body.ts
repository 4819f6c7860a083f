import { fail, type Reply } from './reply.ts';

/** A parsed JSON body, or the 400 reply for one that is not JSON. */
export type JsonBodyResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reply: Reply };

/**
 * Decodes a request body as UTF-8 JSON (docs/conventions.md §2: malformed JSON is a 400). The message
 * says what is wrong without quoting the body, which may carry a signature or a key.
 */
export function parseJsonBody(bytes: Buffer): JsonBodyResult {
  const text = bytes.toString('utf8');
  if (text.trim() === '') {
    return { ok: false, reply: fail(400, 'request body: expected a JSON object, got nothing') };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reply: fail(400, 'request body: malformed JSON') };
  }
}
