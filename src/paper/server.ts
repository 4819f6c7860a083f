import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { resolvePaperOptions, type PaperVenueOptions } from './options.ts';
import { buildPaperRoutes } from './paper-routes.ts';
import type { SimEngine } from '../sim/index.ts';
import { SlidingWindowRateLimiter } from './rate-limiter.ts';
import { createPaperHttpServer } from './http-server.ts';
import { createRequestListener } from './request-listener.ts';
import { resolveServerLimits } from './server-limits.ts';

/** A running paper venue. */
export interface PaperVenue {
  /** Base URL of both the write and the read API, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** The simulation it serves (to inspect positions or move markets in tests). */
  readonly engine: SimEngine;
  /**
   * How many requests arrived, counted before any check (rate limit, routing, body, auth), per
   * path without the query, or in total without `path`. `requestCount('/api/v1/order') === 0`
   * proves that no order reached the wire.
   */
  requestCount(path?: string): number;
  /**
   * Every request in arrival order, with `logRequests: true` (empty otherwise): when it
   * arrived (the venue's clock), its path without the query, and whether the rate limit
   * refused it (429).
   */
  requestLog(): readonly PaperRequest[];
  /**
   * Revokes every credential pair issued to engine account `accountId` (an operator's action:
   * its requests are answered 401 "credentials revoked" until it registers again); returns how
   * many were revoked.
   */
  revokeCredentials(accountId: string): number;
  /** Stops listening and cuts open connections. Safe to call twice. */
  close(): Promise<void>;
}

/** One request as the paper venue saw it (see `PaperVenue.requestLog`). */
export interface PaperRequest {
  readonly at: number;
  readonly path: string;
  /** Refused by the rate limit (answered 429). */
  limited: boolean;
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(
        new QuantaError(
          ErrorCodes.PAPER_LISTEN_FAILED,
          `paper venue: cannot listen on ${host}:${port} (${error.code ?? error.message})`,
          { cause: error },
        ),
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Starts the paper venue: the simulation served over HTTP exactly per docs/conventions.md §2-§6, write
 * and read API on one port. Routes: `POST /api/v1/auth`, `POST /api/v1/order`,
 * `GET /api/v1/order/{id}`, `GET /api/v1/market`, `GET /api/v1/quotes`. Every answer is the
 * `{body, message, status}` envelope, Node's own included (malformed requests 400, headers too
 * large 431, timeouts 408, one connection beyond `limits.maxConnections` 503). Slow clients are
 * cut after `limits` (seconds by default, see `DEFAULT_SERVER_LIMITS`). Nothing is logged.
 *
 * @throws QuantaError `QUANTA_PAPER_INVALID_OPTION` for a bad option,
 *   `QUANTA_PAPER_LISTEN_FAILED` when the port cannot be bound, the engine's errors for bad
 *   engine options.
 * @example
 * const venue = await startPaperVenue({ seed: 7 });
 * const res = await fetch(`${venue.url}/api/v1/market?type=PERPETUAL`);
 * await venue.close();
 */
export async function startPaperVenue(options: PaperVenueOptions = {}): Promise<PaperVenue> {
  const resolved = resolvePaperOptions(options);
  const limits = resolveServerLimits(options.limits);
  const { engine, router, credentials } = buildPaperRoutes(resolved);
  const counts = new Map<string, number>();
  let total = 0;
  const log: PaperRequest[] = [];
  const limiter =
    resolved.rateLimit === undefined
      ? undefined
      : new SlidingWindowRateLimiter(resolved.rateLimit, 1000, resolved.clock);
  const server = createPaperHttpServer(
    limits,
    createRequestListener({
      router,
      clock: resolved.clock,
      limiter:
        limiter === undefined
          ? undefined
          : {
              take: (client) => {
                const decision = limiter.take(client);
                // The listener takes the decision right after counting this very request.
                const last = log[log.length - 1];
                if (!decision.allowed && last !== undefined) last.limited = true;
                return decision;
              },
            },
      onRequest: (path) => {
        total += 1;
        counts.set(path, (counts.get(path) ?? 0) + 1);
        if (resolved.logRequests) log.push({ at: resolved.clock(), path, limited: false });
      },
    }),
  );
  const address = await listen(server, resolved.host, resolved.port);
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    engine,
    requestCount: (path) => (path === undefined ? total : (counts.get(path) ?? 0)),
    requestLog: () => log,
    revokeCredentials: (accountId) => credentials.revokeAccount(accountId),
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
