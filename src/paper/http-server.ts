import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createClientErrorListener } from './client-error.ts';
import { capConnections } from './connection-cap.ts';
import { writeRawReply } from './raw-reply.ts';
import { fail } from './reply.ts';
import { sendReply } from './send-reply.ts';
import { checkIntervalMs, type ResolvedServerLimits } from './server-limits.ts';

/**
 * The paper venue's `node:http` server, hardened for clients that misbehave: headers and whole
 * requests (bodies included) must arrive within `limits`, at most `limits.maxConnections` are
 * open at once, and every answer Node would give on its own (a malformed request, headers too
 * large, a timeout, an unsupported `Expect`, `CONNECT`) is given in the docs/conventions.md §2 envelope
 * instead. `listener` serves every other request.
 */
export function createPaperHttpServer(
  limits: ResolvedServerLimits,
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  // The response in flight on each connection: an error after its head was written must not
  // be answered a second time on the same stream.
  const inFlight = new WeakMap<Duplex, ServerResponse>();
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: checkIntervalMs(limits),
    },
    (req, res) => {
      if (turnedAway(req.socket)) {
        // Already answered 503 and closing; its request is neither counted nor served.
        res.on('error', () => undefined);
        return;
      }
      inFlight.set(req.socket, res);
      res.once('close', () => {
        if (inFlight.get(req.socket) === res) inFlight.delete(req.socket);
      });
      listener(req, res);
    },
  );
  const turnedAway = capConnections(server, limits.maxConnections);
  server.on(
    'clientError',
    createClientErrorListener(limits, (socket) => inFlight.get(socket)),
  );
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    res.on('error', () => undefined);
    sendReply(res, fail(417, 'unsupported Expect header (only 100-continue)'), true);
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => undefined);
    writeRawReply(socket, fail(405, 'method CONNECT not allowed'));
  });
  return server;
}
