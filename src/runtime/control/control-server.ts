import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { Logger } from '../../log/logger.ts';
import {
  ENDED_SESSION_COOKIE,
  roleOf,
  sessionCookie,
  type ControlRole,
  type ControlTokens,
} from './control-auth.ts';
import type { ControlHandlers, Session } from './control-handlers.ts';
import { HttpProblem, pathOf, sendAsset, sendJson } from './control-http.ts';
import { route } from './control-routes.ts';
import { LOGIN_PATHS, pageAsset } from './page/page-assets.ts';
import { crossSiteRefusal } from './request-guard.ts';

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

/** What `x-quanta-client` may name (the page and the CLI say who they are; others are `api`). */
const CLIENT_NAME = /^[a-z][a-z-]{0,19}$/;

/** Who made a request, for the params audit: the client, the token, the address. */
function requester(req: IncomingMessage, tokens: ControlTokens | undefined): string {
  const header = req.headers['x-quanta-client'];
  const client = typeof header === 'string' && CLIENT_NAME.test(header) ? header : 'api';
  const how = tokens === undefined ? 'no token (loopback)' : 'the act token';
  return `${client} with ${how} from ${req.socket.remoteAddress ?? 'an unknown address'}`;
}

/** The session of a request whose token gave it `role`. */
function sessionOf(
  req: IncomingMessage,
  tokens: ControlTokens | undefined,
  role: ControlRole,
): Session {
  return {
    by: requester(req, tokens),
    role,
    cookie:
      tokens === undefined
        ? ENDED_SESSION_COOKIE
        : sessionCookie(role === 'act' ? tokens.act : (tokens.watch ?? tokens.act)),
  };
}

/**
 * Answers a request without a valid token: the sign-in form and what it needs, and nothing
 * else (the page itself answers 401 with the form); 401 for anything else.
 */
function answerWithoutToken(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'GET' || req.method === 'HEAD') {
    const path = pathOf(req);
    const login = path === undefined ? undefined : LOGIN_PATHS.get(path);
    const asset = login === undefined ? undefined : pageAsset(login);
    if (asset !== undefined) {
      req.resume();
      return sendAsset(res, path === '/' ? 401 : 200, asset);
    }
  }
  res.setHeader('www-authenticate', 'Bearer realm="quanta"');
  sendJson(res, 401, { error: 'missing or wrong bearer token' });
  req.resume();
}

/** Answers what a route threw: its HttpProblem, or 500 (logged) for anything else. */
function answerFailure(
  req: IncomingMessage,
  res: ServerResponse,
  error: unknown,
  log: Logger,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error instanceof HttpProblem) return sendJson(res, error.status, { error: error.message });
  log.error({ err: error, path: req.url }, 'control request failed');
  sendJson(res, 500, { error: 'internal error' });
}

/** Listens on `host:port`; QUANTA_CONTROL_LISTEN_FAILED when the address cannot be bound. */
function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new QuantaError(
          ErrorCodes.CONTROL_LISTEN_FAILED,
          `control server: cannot listen on ${host}:${port} (${error.code ?? error.message})`,
          { cause: error },
        ),
      ),
    );
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
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
    if (role === undefined) return answerWithoutToken(req, res);
    route(req, res, handlers, sessionOf(req, tokens, role)).catch((error: unknown) =>
      answerFailure(req, res, error, log),
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const address = await listen(server, options.host, options.port);
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  log.info(
    { url, token: tokens !== undefined, readToken: tokens?.watch !== undefined },
    `control server listening on ${url}`,
  );
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  return { url, close };
}
