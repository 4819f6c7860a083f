/**
 * A fault-injecting HTTP proxy for the venue's reads (the poller's market listing and quotes),
 * to stand beside the harness's order proxy. Every other request passes through unchanged.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeProxyAnswer } from './proxy-answer.ts';

/**
 * What the proxy does with the n-th read request (from 1):
 * - `forward`: pass it to the venue and its answer back;
 * - `error`: answer 500 in the venue's envelope without forwarding;
 * - `slow`: forward it, but answer only after {@link ReadFaultProxyOptions.slowMs} (longer than
 *   the client's timeout: the client gives up first);
 * - `garbage`: answer 200 with an HTML page instead of JSON;
 * - `wrong-shape`: answer 200 with a well-formed envelope whose body has the wrong shape;
 * - `truncated`: forward it and answer 200 with the first half of the venue's JSON.
 */
export type ReadAction = 'forward' | 'error' | 'slow' | 'garbage' | 'wrong-shape' | 'truncated';

/** One read request the proxy saw. */
export interface SeenRead {
  readonly path: string;
  /** The query string, `?` included (`''` when none). */
  readonly query: string;
  readonly action: ReadAction;
  readonly at: number;
}

/** Options of {@link startReadFaultProxy}. */
export interface ReadFaultProxyOptions {
  /** How long a `slow` answer is held before it is sent. */
  readonly slowMs: number;
}

/** A read-fault proxy in front of a venue. */
export interface ReadFaultProxy {
  readonly url: string;
  /** Read requests (market listing and quotes) in arrival order, with what was done to them. */
  readonly reads: SeenRead[];
  close(): Promise<void>;
}

/** The reads a poll makes: these get faults, nothing else does. */
const READ_PATHS = new Set(['/api/v1/market', '/api/v1/quotes']);

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'keep-alive',
  'transfer-encoding',
]);

function forwardHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (HOP_BY_HOP.has(name) || value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Starts a proxy on 127.0.0.1 port 0 that forwards every request to `target`, except that
 * `GET /api/v1/market` and `GET /api/v1/quotes` (query strings included) are handled per
 * `decide(n, path)`, n counting those reads from 1.
 */
export async function startReadFaultProxy(
  target: string,
  decide: (n: number, path: string) => ReadAction,
  options: ReadFaultProxyOptions,
): Promise<ReadFaultProxy> {
  const reads: SeenRead[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    res.on('error', () => undefined);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = req.url ?? '/';
      const queryAt = url.indexOf('?');
      const path = queryAt === -1 ? url : url.slice(0, queryAt);
      const query = queryAt === -1 ? '' : url.slice(queryAt);
      let action: ReadAction = 'forward';
      if (req.method === 'GET' && READ_PATHS.has(path)) {
        action = decide(reads.length + 1, path);
        reads.push({ path, query, action, at: Date.now() });
      }
      const answer = (
        status: number,
        text: string,
        type = 'application/json',
        date?: string | null,
      ): void => writeProxyAnswer(res, status, text, type, date);
      if (action === 'error') {
        return answer(
          500,
          JSON.stringify({ body: null, message: 'proxy: injected read fault', status: 500 }),
        );
      }
      if (action === 'garbage') {
        return answer(
          200,
          '<html><title>502 Bad Gateway</title><body>oops</body></html>',
          'text/html',
        );
      }
      if (action === 'wrong-shape') {
        return answer(
          200,
          JSON.stringify({ body: { rows: 'not a list', count: -1 }, message: 'ok', status: 200 }),
        );
      }
      void (async () => {
        const upstream = await fetch(`${target}${req.url ?? '/'}`, {
          method: req.method ?? 'GET',
          headers: forwardHeaders(req.headers),
          ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
        });
        const text = await upstream.text();
        const type = upstream.headers.get('content-type') ?? 'application/json';
        const date = upstream.headers.get('date');
        if (action === 'truncated')
          return answer(200, text.slice(0, Math.floor(text.length / 2)), type, date);
        if (action === 'slow') {
          const timer = setTimeout(() => {
            timers.delete(timer);
            answer(upstream.status, text, type, date);
          }, options.slowMs);
          timers.add(timer);
          return;
        }
        answer(upstream.status, text, type, date);
      })().catch(() =>
        answer(502, JSON.stringify({ body: null, message: 'proxy: upstream failed', status: 502 })),
      );
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    reads,
    close: () =>
      new Promise<void>((done) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
