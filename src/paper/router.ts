import type { IncomingHttpHeaders } from 'node:http';
import { fail, type Reply } from './reply.ts';

/** The methods the paper venue serves. */
export type RouteMethod = 'GET' | 'POST';

/** What a route handler sees of a request. */
export interface RouteRequest {
  readonly method: RouteMethod;
  /** The path without the query, e.g. `/api/v1/order/7`. */
  readonly path: string;
  /** Values of the `:name` segments of the route's path. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Node's headers: names lowercased. */
  readonly headers: IncomingHttpHeaders;
  /** The whole request body (at most the venue's cap). */
  readonly body: Buffer;
}

/** Answers one request; never throws on bad input (it returns an error reply). */
export type RouteHandler = (request: RouteRequest) => Reply | Promise<Reply>;

/** One endpoint: a method and a path pattern whose `:name` segments match one segment each. */
export interface Route {
  readonly method: RouteMethod;
  /** E.g. `/api/v1/order/:id`. */
  readonly path: string;
  readonly handler: RouteHandler;
}

/** A request matched to a route, or the 404/405 reply when there is none. */
export type RouteMatch =
  | {
      readonly ok: true;
      readonly route: Route;
      readonly params: Readonly<Record<string, string>>;
    }
  | { readonly ok: false; readonly reply: Reply };

// A path is echoed in 404/405 messages; a pathological one is cut, not copied whole.
const MAX_PATH_SHOWN = 200;

function matchPath(pattern: readonly string[], segments: readonly string[]) {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of pattern.entries()) {
    const segment = segments[i] ?? '';
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      params[part.slice(1)] = segment;
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}

/** A route table. */
export interface Router {
  /** The route for a method and path (no query), or the 404/405 reply. */
  match(method: string, path: string): RouteMatch;
}

/**
 * Builds the route table. `match` answers an unknown path with 404 and a known path asked with
 * another method with 405 and an `Allow` header, both in the envelope (docs/conventions.md §2).
 *
 * @example
 * const router = createRouter([{ method: 'GET', path: '/api/v1/order/:id', handler }]);
 * router.match('GET', '/api/v1/order/7'); // { ok: true, route, params: { id: '7' } }
 */
export function createRouter(routes: readonly Route[]): Router {
  const table = routes.map((route) => ({ route, pattern: route.path.split('/') }));
  return {
    match(method, path) {
      const segments = path.split('/');
      const allowed: string[] = [];
      for (const { route, pattern } of table) {
        const params = matchPath(pattern, segments);
        if (params === undefined) continue;
        if (route.method === method) return { ok: true, route, params };
        allowed.push(route.method);
      }
      const shown = path.length > MAX_PATH_SHOWN ? `${path.slice(0, MAX_PATH_SHOWN)}…` : path;
      if (allowed.length === 0) {
        return { ok: false, reply: fail(404, `no such path: ${shown}`) };
      }
      return {
        ok: false,
        reply: fail(
          405,
          `method ${method} not allowed on ${shown} (allowed: ${allowed.join(', ')})`,
          {
            allow: allowed.join(', '),
          },
        ),
      };
    },
  };
}
