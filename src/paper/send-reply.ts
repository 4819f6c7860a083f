import type { ServerResponse } from 'node:http';
import { envelopeText, type Reply } from './reply.ts';

/**
 * Writes a reply as the docs/conventions.md §2 envelope `{"body", "message", "status"}` with the same
 * HTTP status. Does nothing when the client is gone or an answer was already started.
 *
 * @param closeConnection - also asks the client to close the connection (used when the request
 *   body was not read to its end, so the connection cannot carry another request).
 */
export function sendReply(res: ServerResponse, reply: Reply, closeConnection = false): void {
  if (res.headersSent || res.destroyed) return;
  const text = envelopeText(reply);
  res.writeHead(reply.status, {
    ...reply.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...(closeConnection ? { connection: 'close' } : {}),
  });
  res.end(text);
}
