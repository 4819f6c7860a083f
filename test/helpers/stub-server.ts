/**
 * A purpose-built HTTP server on port 0 for transport tests: each route answers however the test
 * wants, including badly (no envelope, HTML, never ending, huge). Not the paper venue.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stub received. */
export interface StubRequest {
  readonly method: string;
  /** Path and query as sent. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Answers one request; `body` is the whole request body. */
export type StubHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A running stub server. */
export interface StubServer {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: StubRequest[];
  /** Closes the server, cutting connections that are still open (never-ending answers). */
  close(): Promise<void>;
}

/**
 * Starts a stub on 127.0.0.1, port 0. Routes are keyed by `"METHOD /path"` (query ignored);
 * unknown routes answer 404 in the docs/conventions.md §2 envelope.
 */
export async function startStubServer(
  routes: Readonly<Record<string, StubHandler>>,
): Promise<StubServer> {
  const requests: StubRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '/';
      requests.push({ method: req.method ?? '', url, headers: req.headers, body });
      // A client that gave up makes writes fail; that is expected here.
      res.on('error', () => undefined);
      const handler = routes[`${req.method ?? ''} ${url.split('?')[0] ?? ''}`];
      if (handler === undefined) {
        sendJson(res, 404, { body: null, message: `no route ${url}`, status: 404 });
        return;
      }
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Writes `value` as JSON with the given status. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  sendText(res, status, JSON.stringify(value), 'application/json');
}

/** Writes `text` with the given status and content type (none when undefined). */
export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  contentType: string | undefined,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, {
    ...(contentType === undefined ? {} : { 'content-type': contentType }),
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/**
 * A base URL on which nothing listens: a server is started on port 0 and closed again, so the
 * port was free a moment ago and connecting to it is refused.
 */
export async function closedPortUrl(): Promise<string> {
  const stub = await startStubServer({});
  await stub.close();
  return stub.url;
}
