import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { isHaltMode, type HaltMode, type TradingMode } from '../../execution/trading-mode.ts';
import type { Logger } from '../../log/logger.ts';
import {
  ENDED_SESSION_COOKIE,
  roleOf,
  sessionCookie,
  type ControlRole,
  type ControlTokens,
} from './control-auth.ts';
import type { ParamsOutcome } from '../live-params.ts';
import type { FeedListener } from './live-feed.ts';
import { LOGIN_PATHS, pageAsset, type PageAsset } from './page/page-assets.ts';
import { crossSiteRefusal, setSecurityHeaders } from './request-guard.ts';
import { systemTimer } from '../../clock/timers.ts';

/** What the bot answers through the control server. */
export interface ControlHandlers {
  /** True while the bot's run loop runs. */
  live(): boolean;
  /** Why the bot is not ready to trade; empty when it is. */
  notReadyReasons(): string[];
  /** The status line's content plus open and latest orders (JSON-safe). */
  status(): unknown;
  /** The Prometheus exposition. */
  metrics(): Promise<{ contentType: string; body: string }>;
  halt(mode: HaltMode): TradingMode;
  resume(): TradingMode;
  resumeStrategy(name: string): 'resumed' | 'not-paused' | 'unknown';
  /** Every strategy's params in effect and every live change of them, oldest first. */
  params(): { params: unknown; changes: readonly { readonly strategy: string }[] };
  /** Changes some params of a strategy (`by`: who asked, for the audit). */
  setParams(name: string, changes: Record<string, unknown>, by: string): Promise<ParamsOutcome>;
  /** Adds a live page (`GET /events`); returns the function that removes it. */
  watch(listener: FeedListener): () => void;
}

/** Options of {@link startControlServer}. */
export interface ControlServerOptions {
  readonly host: string;
  readonly port: number;
  /** Bearer tokens a request must carry one of; undefined = none asked (loopback only). */
  readonly tokens: ControlTokens | undefined;
  readonly handlers: ControlHandlers;
  readonly log: Logger;
}

/** A listening control server. */
export interface ControlServer {
  /** `http://host:port` it listens on (the real port when 0 was asked). */
  readonly url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4096;
const BODY_TIMEOUT_MS = 5000;

/** What the request may do, and the cookie that would open a page session for it. */
interface Session {
  readonly role: ControlRole;
  readonly cookie: string;
  /** Who asked, as the params audit records it. */
  readonly by: string;
}

/** What `x-quanta-client` may name (the page and the CLI say who they are; others are `api`). */
const CLIENT_NAME = /^[a-z][a-z-]{0,19}$/;

/** Who made a request, for the params audit: the client, the token, the address. */
function requester(req: IncomingMessage, tokens: ControlTokens | undefined): string {
  const header = req.headers['x-quanta-client'];
  const client = typeof header === 'string' && CLIENT_NAME.test(header) ? header : 'api';
  const how = tokens === undefined ? 'no token (loopback)' : 'the act token';
  return `${client} with ${how} from ${req.socket.remoteAddress ?? 'an unknown address'}`;
}

/** HTTP status of a refused params change. */
const PARAMS_REFUSED: Record<Exclude<ParamsOutcome, { ok: true }>['why'], number> = {
  unknown: 404,
  invalid: 422,
  refused: 409,
};

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = `${JSON.stringify(body, null, 2)}\n`;
  setSecurityHeaders(res);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  const cancelTimer = systemTimer(BODY_TIMEOUT_MS, () => req.destroy());
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES)
        throw new HttpProblem(413, `body larger than ${MAX_BODY_BYTES} bytes`);
      chunks.push(chunk);
    }
  } finally {
    cancelTimer();
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpProblem(400, 'body is not JSON');
  }
}

/**
 * Routes of the control server. Reads: `GET /healthz` (200 while the run loop runs),
 * `GET /readyz` (503 with the reasons, 200 otherwise), `GET /status`, `GET /metrics`. Commands:
 * `POST /halt` with `{"mode": "halt" | "halt-entries" | "flatten"}`, `POST /resume`,
 * `POST /strategies/{name}/resume`, `POST /strategies/{name}/params` with `{"params": {...}}`
 * (each JSON with the `x-quanta-request` header); `GET /params` and `GET
 * /strategies/{name}/params` give the params in effect and their audit. The page's
 * session: `POST /session` (with a bearer token) sets its cookie, `DELETE /session` ends it.
 */
async function route(
  req: IncomingMessage,
  res: ServerResponse,
  handlers: ControlHandlers,
  session: Session,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://control').pathname;
  const method = req.method ?? 'GET';
  const get = method === 'GET' || method === 'HEAD';
  if (path === '/session') {
    // Opens a page session for the token the request carries (the page's sign-in form); the
    // cookie is HttpOnly, so no script, of this page or another, can read it.
    if (method === 'POST') {
      await readJsonBody(req);
      res.setHeader('set-cookie', session.cookie);
      return sendJson(res, 200, { role: session.role });
    }
    if (method === 'DELETE') {
      res.setHeader('set-cookie', ENDED_SESSION_COOKIE);
      return sendJson(res, 200, { ended: true });
    }
    throw new HttpProblem(405, `${method} not allowed on ${path}`);
  }
  if (!get && session.role !== 'act')
    throw new HttpProblem(403, 'this token may watch, not act (control.readTokenEnv)');
  if (path === '/healthz' && get) {
    const live = handlers.live();
    return sendJson(res, live ? 200 : 503, { status: live ? 'ok' : 'stopped' });
  }
  if (path === '/readyz' && get) {
    const reasons = handlers.notReadyReasons();
    return sendJson(res, reasons.length === 0 ? 200 : 503, {
      ready: reasons.length === 0,
      reasons,
    });
  }
  if (path === '/status' && get) return sendJson(res, 200, handlers.status());
  if (path === '/events' && get) return streamEvents(req, res, handlers);
  const asset = get ? pageAsset(path) : undefined;
  if (asset !== undefined) return sendAsset(res, 200, asset);
  if (path === '/metrics' && get) {
    const { contentType, body } = await handlers.metrics();
    res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
    res.end(body);
    return;
  }
  if (method === 'POST' && path === '/halt') {
    const body = await readJsonBody(req);
    const mode = (body as { mode?: unknown } | undefined)?.mode;
    if (!isHaltMode(mode))
      throw new HttpProblem(
        400,
        'expected a JSON body {"mode": "halt" | "halt-entries" | "flatten"}',
      );
    return sendJson(res, 200, { mode: handlers.halt(mode) });
  }
  if (method === 'POST' && path === '/resume') {
    return sendJson(res, 200, { mode: handlers.resume() });
  }
  if (path === '/params' && get) return sendJson(res, 200, handlers.params());
  const params = /^\/strategies\/([^/]+)\/params$/.exec(path);
  if (params?.[1] !== undefined) {
    const name = decodeURIComponent(params[1]);
    if (get) {
      const all = handlers.params();
      const current = (all.params as Record<string, unknown>)[name];
      if (current === undefined) throw new HttpProblem(404, `no strategy named ${name}`);
      const changes = all.changes.filter((change) => change.strategy === name);
      return sendJson(res, 200, { strategy: name, params: current, changes });
    }
    if (method === 'POST') return changeParams(req, res, handlers, name, session.by);
  }
  const strategy = /^\/strategies\/([^/]+)\/resume$/.exec(path);
  if (method === 'POST' && strategy?.[1] !== undefined) {
    const name = decodeURIComponent(strategy[1]);
    const outcome = handlers.resumeStrategy(name);
    if (outcome === 'unknown') throw new HttpProblem(404, `no strategy named ${name}`);
    return sendJson(res, 200, { strategy: name, resumed: outcome === 'resumed' });
  }
  const known = ['/healthz', '/readyz', '/status', '/metrics', '/halt', '/resume', '/session'];
  if (known.includes(path) || strategy !== null || params !== null)
    throw new HttpProblem(405, `${method} not allowed on ${path}`);
  throw new HttpProblem(404, `no route ${path}`);
}

/** `POST /strategies/{name}/params` with `{"params": {key: value, ...}}`. */
async function changeParams(
  req: IncomingMessage,
  res: ServerResponse,
  handlers: ControlHandlers,
  name: string,
  by: string,
): Promise<void> {
  const body = await readJsonBody(req);
  const changes = (body as { params?: unknown } | undefined)?.params;
  if (
    typeof changes !== 'object' ||
    changes === null ||
    Array.isArray(changes) ||
    Object.keys(changes).length === 0
  )
    throw new HttpProblem(
      400,
      'expected a JSON body {"params": {"key": value, ...}} naming at least one param',
    );
  const outcome = await handlers.setParams(name, changes as Record<string, unknown>, by);
  if (!outcome.ok)
    return sendJson(res, PARAMS_REFUSED[outcome.why], {
      error: outcome.error,
      details: outcome.details,
    });
  return sendJson(res, 200, { strategy: name, params: outcome.params, change: outcome.change });
}

/** Most bytes a slow page may leave unread before it is cut off (it reconnects and catches up). */
const MAX_UNSENT_BYTES = 1 << 20;

/** `GET /events`: the live page's server-sent events, until the page goes. */
function streamEvents(req: IncomingMessage, res: ServerResponse, handlers: ControlHandlers): void {
  setSecurityHeaders(res);
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
  res.write(': quanta live feed\n\n');
  const stop = handlers.watch((event, data) => {
    if (res.writableLength > MAX_UNSENT_BYTES) {
      res.destroy();
      return;
    }
    res.write(`event: ${event}\ndata: ${data}\n\n`);
  });
  req.on('close', stop);
  res.on('close', stop);
}

function sendAsset(res: ServerResponse, status: number, asset: PageAsset): void {
  setSecurityHeaders(res);
  res.writeHead(status, {
    'content-type': asset.type,
    'content-length': Buffer.byteLength(asset.body),
  });
  res.end(asset.body);
}

/**
 * Starts the bot's control server. Every answer carries the security headers of
 * `request-guard.ts`; a request another site could have made a browser send is refused first
 * (403/415); then, when tokens are set, every request needs `Authorization: Bearer <token>` or
 * the page's session cookie (401 otherwise), and a read-only token may only read (403).
 *
 * @throws QuantaError `QUANTA_CONTROL_LISTEN_FAILED` when the address cannot be bound.
 */
export async function startControlServer(options: ControlServerOptions): Promise<ControlServer> {
  const { handlers, tokens, log } = options;
  const server = createServer((req, res) => {
    res.on('error', () => undefined);
    const refusal = crossSiteRefusal(req, tokens === undefined);
    if (refusal !== undefined) {
      sendJson(res, refusal.status, { error: refusal.message });
      req.resume();
      return;
    }
    const role = roleOf(req.headers, tokens);
    const path = new URL(req.url ?? '/', 'http://control').pathname;
    if (role === undefined && (req.method === 'GET' || req.method === 'HEAD')) {
      // The sign-in form and what it needs, and nothing else, without a token: the page itself
      // answers 401 with the form.
      const login = LOGIN_PATHS.get(path);
      if (login !== undefined) {
        const asset = pageAsset(login);
        if (asset !== undefined) {
          req.resume();
          return sendAsset(res, path === '/' ? 401 : 200, asset);
        }
      }
    }
    if (role === undefined) {
      res.setHeader('www-authenticate', 'Bearer realm="quanta"');
      sendJson(res, 401, { error: 'missing or wrong bearer token' });
      req.resume();
      return;
    }
    const session: Session = {
      by: requester(req, tokens),
      role,
      cookie:
        tokens === undefined
          ? ENDED_SESSION_COOKIE
          : sessionCookie(role === 'act' ? tokens.act : (tokens.watch ?? tokens.act)),
    };
    route(req, res, handlers, session).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpProblem)
        return sendJson(res, error.status, { error: error.message });
      log.error({ err: error, path: req.url }, 'control request failed');
      sendJson(res, 500, { error: 'internal error' });
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new QuantaError(
          ErrorCodes.CONTROL_LISTEN_FAILED,
          `control server: cannot listen on ${options.host}:${options.port} (${error.code ?? error.message})`,
          { cause: error },
        ),
      ),
    );
    server.listen(options.port, options.host, () => resolve(server.address() as AddressInfo));
  });
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  log.info(
    { url, token: tokens !== undefined, readToken: tokens?.watch !== undefined },
    `control server listening on ${url}`,
  );
  let closing: Promise<void> | undefined;
  return {
    url,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
