import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { writeRawReply } from './raw-reply.ts';
import { fail, type Reply } from './reply.ts';
import type { ResolvedServerLimits } from './server-limits.ts';

/**
 * The envelope answer to an error Node's HTTP parser or its timeouts raised on a connection
 * (the server's `clientError` event), or `undefined` when there is nobody to answer. Node's own
 * answers to these carry no body; the venue's answers are all in the envelope.
 */
export function clientErrorReply(
  error: NodeJS.ErrnoException,
  limits: ResolvedServerLimits,
): Reply | undefined {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
    case 'HPE_INVALID_EOF_STATE':
      return undefined;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return fail(
        408,
        `request timeout: headers within ${seconds(limits.headersTimeoutMs)} and the whole request within ${seconds(limits.requestTimeoutMs)}`,
      );
    case 'HPE_HEADER_OVERFLOW':
      return fail(431, 'request headers too large');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return fail(413, 'request body: chunk extensions too large');
    default:
      // The parser's code names what was wrong; the bytes themselves are never echoed.
      return fail(400, `malformed request (${error.code ?? 'unreadable'})`);
  }
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/**
 * Answers parser errors and timeouts in the envelope. `responseOf` gives the response in flight
 * on a socket, if any: once its head has been written, a second answer would corrupt the
 * stream, so the connection is only cut.
 */
export function createClientErrorListener(
  limits: ResolvedServerLimits,
  responseOf: (socket: Duplex) => ServerResponse | undefined,
): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    const reply = clientErrorReply(error, limits);
    if (reply === undefined || responseOf(socket)?.headersSent === true) {
      socket.destroy();
      return;
    }
    writeRawReply(socket, reply);
  };
}
