import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { writeRawReply } from './raw-reply.ts';
import { fail } from './reply.ts';

/**
 * Caps the connections `server` keeps open at once. One more is answered 503 with
 * `Retry-After: 1` in the envelope and closed, rather than dropped without a word (Node's
 * `maxConnections`). Returns whether a socket was turned away, so its request is not served.
 */
export function capConnections(
  server: Server,
  maxConnections: number,
): (socket: Duplex) => boolean {
  const open = new Set<Socket>();
  const turnedAway = new WeakSet<Duplex>();
  server.on('connection', (socket: Socket) => {
    if (open.size >= maxConnections) {
      turnedAway.add(socket);
      socket.on('error', () => undefined);
      writeRawReply(
        socket,
        fail(503, `too many connections (at most ${maxConnections}): retry after 1 s`, {
          'retry-after': '1',
        }),
      );
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return (socket) => turnedAway.has(socket);
}
