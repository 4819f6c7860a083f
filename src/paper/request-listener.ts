import type { IncomingMessage, ServerResponse } from 'node:http';
import { isQuantaError } from '../errors/index.ts';
import type { SlidingWindowRateLimiter } from './rate-limiter.ts';
import { MAX_BODY_BYTES, readBody } from './read-body.ts';
import { fail, type Reply } from './reply.ts';
import type { RouteMethod, Router } from './router.ts';
import { sendReply } from './send-reply.ts';

/** What the request pipeline is made of. */
export interface RequestPipeline {
  readonly router: Router;
  /** Absent: no rate limit. */
  readonly limiter: Pick<SlidingWindowRateLimiter, 'take'> | undefined;
  /** Called with each request's path as it arrives, before any check. */
  readonly onRequest: (path: string) => void;
  /**
   * The venue's clock (ms since the epoch): every answer's `Date` header tells it, as a real
   * venue's does, so that a venue run on an offset clock looks offset to its clients too (Node
   * would write the host's time).
   */
  readonly clock: () => number;
}

function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const at = url.indexOf('?');
  return at === -1
    ? { path: url, query: new URLSearchParams() }
    : { path: url.slice(0, at), query: new URLSearchParams(url.slice(at + 1)) };
}

function internalError(error: unknown): Reply {
  // Our own errors carry no secrets by rule; anything else is not described.
  return fail(
    500,
    isQuantaError(error) ? `internal error: ${error.shortMessage}` : 'internal error',
  );
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  pipeline: RequestPipeline,
): Promise<void> {
  const { path, query } = splitUrl(req.url ?? '/');
  pipeline.onRequest(path);
  res.setHeader('date', new Date(pipeline.clock()).toUTCString());

  if (pipeline.limiter !== undefined) {
    const decision = pipeline.limiter.take(req.socket.remoteAddress ?? 'unknown');
    if (!decision.allowed) {
      const wait = String(decision.retryAfterSeconds);
      sendReply(res, fail(429, `rate limited: retry after ${wait} s`, { 'retry-after': wait }));
      return;
    }
  }

  const method = req.method ?? '';
  const match = pipeline.router.match(method, path);
  if (!match.ok) {
    sendReply(res, match.reply);
    return;
  }

  const body = await readBody(req, MAX_BODY_BYTES);
  if (body.kind === 'aborted') return;
  if (body.kind === 'too-large') {
    // The rest of the body stays unread, so this connection cannot carry another request.
    sendReply(res, fail(413, `request body: larger than ${MAX_BODY_BYTES} bytes`), true);
    return;
  }

  const reply = await match.route.handler({
    method: method as RouteMethod,
    path,
    params: match.params,
    query,
    headers: req.headers,
    body: body.bytes,
  });
  sendReply(res, reply);
}

/**
 * The paper venue's `node:http` request listener: counts the request, applies the rate limit
 * (429), routes it (404/405), reads the body within 64 KiB (413), runs the route and writes its
 * reply in the envelope; a route that throws gives a 500 envelope. Nothing is logged.
 */
export function createRequestListener(
  pipeline: RequestPipeline,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // A client that went away makes writes fail; there is nobody left to tell.
    res.on('error', () => undefined);
    handle(req, res, pipeline).catch((error: unknown) => {
      sendReply(res, internalError(error), true);
    });
  };
}
