import type { IncomingMessage, ServerResponse } from 'node:http';
import { isHaltMode } from '../../execution/trading-mode.ts';
import type { ParamsOutcome } from '../live-params.ts';
import { ENDED_SESSION_COOKIE } from './control-auth.ts';
import type { ControlHandlers, Session } from './control-handlers.ts';
import { HttpProblem, pathOf, readJsonBody, sendAsset, sendJson } from './control-http.ts';
import { pageAsset } from './page/page-assets.ts';
import { setSecurityHeaders } from './request-guard.ts';

/** One request as a route's handler sees it. */
interface RouteCall {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly handlers: ControlHandlers;
  readonly session: Session;
  /** The `{name}` of a pattern route's path, still percent-encoded; '' for the others. */
  readonly part: string;
}

type Handler = (call: RouteCall) => Promise<void> | void;

/** A path, what each method does there, and what any other method gets. */
interface Route {
  readonly path: string | RegExp;
  /** Answers HEAD as well. */
  readonly GET?: Handler;
  readonly POST?: Handler;
  readonly DELETE?: Handler;
  /** Another method: 405, or 404 as for an unknown path. */
  readonly others: 405 | 404;
  /** Open to a read-only token whatever the method (the page's session routes). */
  readonly anyRole?: true;
}

/** HTTP status of a refused params change. */
const PARAMS_REFUSED: Record<Exclude<ParamsOutcome, { ok: true }>['why'], number> = {
  unknown: 404,
  invalid: 422,
  refused: 409,
  unsaved: 503,
};

/** Most bytes a slow page may leave unread before it is cut off (it reconnects and catches up). */
const MAX_UNSENT_BYTES = 1 << 20;

// Opens a page session for the token the request carries (the page's sign-in form); the
// cookie is HttpOnly, so no script, of this page or another, can read it.
async function openSession({ req, res, session }: RouteCall): Promise<void> {
  await readJsonBody(req);
  res.setHeader('set-cookie', session.cookie);
  sendJson(res, 200, { role: session.role });
}

function endSession({ res }: RouteCall): void {
  res.setHeader('set-cookie', ENDED_SESSION_COOKIE);
  sendJson(res, 200, { ended: true });
}

function health({ res, handlers }: RouteCall): void {
  const live = handlers.live();
  sendJson(res, live ? 200 : 503, { status: live ? 'ok' : 'stopped' });
}

function readiness({ res, handlers }: RouteCall): void {
  const reasons = handlers.notReadyReasons();
  sendJson(res, reasons.length === 0 ? 200 : 503, { ready: reasons.length === 0, reasons });
}

/** `GET /events`: the live page's server-sent events, until the page goes. */
function streamEvents({ req, res, handlers }: RouteCall): void {
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

/** A strategy's name from its path part: 400, not a 500, when its percent-encoding is broken. */
function strategyNameOf(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new HttpProblem(400, 'the strategy name in the path is not valid percent-encoding');
  }
}

async function metrics({ res, handlers }: RouteCall): Promise<void> {
  const { contentType, body } = await handlers.metrics();
  // Like every other answer of the control server (sendJson, sendText, the event stream).
  setSecurityHeaders(res);
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(body);
}

async function halt({ req, res, handlers }: RouteCall): Promise<void> {
  const body = await readJsonBody(req);
  const mode = (body as { mode?: unknown } | undefined)?.mode;
  if (!isHaltMode(mode))
    throw new HttpProblem(
      400,
      'expected a JSON body {"mode": "halt" | "halt-entries" | "flatten"}',
    );
  sendJson(res, 200, { mode: handlers.halt(mode) });
}

function strategyParams({ res, handlers, part }: RouteCall): void {
  const name = strategyNameOf(part);
  const all = handlers.params();
  const current = (all.params as Record<string, unknown>)[name];
  if (current === undefined) throw new HttpProblem(404, `no strategy named ${name}`);
  const changes = all.changes.filter((change) => change.strategy === name);
  sendJson(res, 200, { strategy: name, params: current, changes });
}

/** `POST /strategies/{name}/params` with `{"params": {key: value, ...}}`. */
async function changeParams({ req, res, handlers, session, part }: RouteCall): Promise<void> {
  const name = strategyNameOf(part);
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
  const outcome = await handlers.setParams(name, changes as Record<string, unknown>, session.by);
  if (!outcome.ok)
    return sendJson(res, PARAMS_REFUSED[outcome.why], {
      error: outcome.error,
      details: outcome.details,
    });
  sendJson(res, 200, { strategy: name, params: outcome.params, change: outcome.change });
}

function resumeStrategy({ res, handlers, part }: RouteCall): void {
  const name = strategyNameOf(part);
  const outcome = handlers.resumeStrategy(name);
  if (outcome === 'unknown') throw new HttpProblem(404, `no strategy named ${name}`);
  sendJson(res, 200, { strategy: name, resumed: outcome === 'resumed' });
}

/**
 * Routes of the control server. Reads: `GET /healthz` (200 while the run loop runs),
 * `GET /readyz` (503 with the reasons, 200 otherwise), `GET /status`, `GET /metrics`. Commands:
 * `POST /halt` with `{"mode": "halt" | "halt-entries" | "flatten"}`, `POST /resume`,
 * `POST /strategies/{name}/resume`, `POST /strategies/{name}/params` with `{"params": {...}}`
 * (each JSON with the `x-quanta-request` header); `GET /params` and `GET
 * /strategies/{name}/params` give the params in effect and their audit. The page's
 * session: `POST /session` (with a bearer token) sets its cookie, `DELETE /session` ends it.
 * `GET /events` streams the live page's events; the page's own files answer GET too.
 */
const ROUTES: readonly Route[] = [
  { path: '/session', POST: openSession, DELETE: endSession, others: 405, anyRole: true },
  { path: '/healthz', GET: health, others: 405 },
  { path: '/readyz', GET: readiness, others: 405 },
  {
    path: '/status',
    GET: ({ res, handlers }) => sendJson(res, 200, handlers.status()),
    others: 405,
  },
  { path: '/events', GET: streamEvents, others: 404 },
  { path: '/metrics', GET: metrics, others: 405 },
  { path: '/halt', POST: halt, others: 405 },
  {
    path: '/resume',
    POST: ({ res, handlers }) => sendJson(res, 200, { mode: handlers.resume() }),
    others: 405,
  },
  {
    path: '/params',
    GET: ({ res, handlers }) => sendJson(res, 200, handlers.params()),
    others: 404,
  },
  { path: /^\/strategies\/([^/]+)\/params$/, GET: strategyParams, POST: changeParams, others: 405 },
  { path: /^\/strategies\/([^/]+)\/resume$/, POST: resumeStrategy, others: 405 },
];

/** The route whose path matches, with its `{name}` part. */
function routeOf(path: string): { route: Route; part: string } | undefined {
  for (const route of ROUTES) {
    if (typeof route.path === 'string') {
      if (route.path === path) return { route, part: '' };
      continue;
    }
    const part = route.path.exec(path)?.[1];
    if (part !== undefined) return { route, part };
  }
  return undefined;
}

function handlerOf(route: Route, method: string): Handler | undefined {
  if (method === 'GET' || method === 'HEAD') return route.GET;
  if (method === 'POST') return route.POST;
  if (method === 'DELETE') return route.DELETE;
  return undefined;
}

/**
 * Answers one authenticated request by the route table (`ROUTES`), else a page file.
 *
 * @throws HttpProblem 400 for a target that is not a URL, 403 for a command with a read-only token, 405 for a method a known path
 *   does not take, 404 for an unknown path, and whatever the route's handler throws.
 */
export async function route(
  req: IncomingMessage,
  res: ServerResponse,
  handlers: ControlHandlers,
  session: Session,
): Promise<void> {
  const path = pathOf(req);
  if (path === undefined) throw new HttpProblem(400, 'the request target is not a URL');
  const method = req.method ?? 'GET';
  const get = method === 'GET' || method === 'HEAD';
  const found = routeOf(path);
  if (found?.route.anyRole !== true && !get && session.role !== 'act')
    throw new HttpProblem(403, 'this token may watch, not act (control.readTokenEnv)');
  const handler = found === undefined ? undefined : handlerOf(found.route, method);
  if (found !== undefined && handler !== undefined)
    return handler({ req, res, handlers, session, part: found.part });
  const asset = get ? pageAsset(path) : undefined;
  if (asset !== undefined) return sendAsset(res, 200, asset);
  if (found?.route.others === 405) throw new HttpProblem(405, `${method} not allowed on ${path}`);
  throw new HttpProblem(404, `no route ${path}`);
}
