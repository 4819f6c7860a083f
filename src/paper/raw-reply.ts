import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { envelopeText, type Reply } from './reply.ts';

/**
 * Writes a reply straight onto a socket, for the answers Node gives before there is a request
 * object (a malformed request, headers too large, a timeout, one connection too many): the same
 * docs/conventions.md §2 envelope as every other answer, then the connection is closed. Does nothing
 * when the socket can no longer be written.
 */
export function writeRawReply(socket: Duplex, reply: Reply): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const text = envelopeText(reply);
  const headers = {
    ...reply.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    connection: 'close',
  };
  const head = [
    `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? 'Error'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  // Closed once written: whatever else the client sends is not read.
  socket.end(`${head}\r\n\r\n${text}`, () => socket.destroy());
}
