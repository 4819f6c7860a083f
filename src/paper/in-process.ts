import type { IncomingHttpHeaders } from 'node:http';
import type { SimEngine } from '../sim/index.ts';
import { dateHeaderCache } from './date-header.ts';
import { resolvePaperOptions, type PaperVenueOptions } from './options.ts';
import type { CredentialCheck } from './credential-store.ts';
import { buildPaperRoutes } from './paper-routes.ts';
import { SlidingWindowRateLimiter } from './rate-limiter.ts';
import { MAX_BODY_BYTES } from './read-body.ts';
import { envelopeText, fail, type Reply } from './reply.ts';
import type { RouteMethod } from './router.ts';

/** One answer of the in-process venue, as the HTTP server would write it. */
export interface InProcessAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The docs/conventions.md §2 envelope, as JSON text. */
  readonly text: string;
}

/** The paper venue without a socket: the simulator's venue (src/simulation). */
export interface InProcessPaperVenue {
  readonly engine: SimEngine;
  /**
   * Revokes every credential pair issued to engine account `accountId` (see
   * `CredentialStore.revokeAccount`); returns how many.
   */
  revokeCredentials(accountId: string): number;
  /**
   * Whether the venue would take `serviceKey` and `serviceSecret` now (its own clock), and why
   * not (`CredentialStore.check`): what the simulator's I5 asks of the bot's credentials.
   */
  checkCredentials(serviceKey: string, serviceSecret: string): CredentialCheck;
  /**
   * Answers one request as the HTTP server does: rate limit (429 with `Retry-After`), routing
   * (404/405), the body cap (413), the route; a route that throws answers 500.
   *
   * @param pathAndQuery - e.g. `/api/v1/market?type=PERPETUAL`.
   * @param headers - names lowercased.
   */
  answer(
    method: string,
    pathAndQuery: string,
    headers: IncomingHttpHeaders,
    body: Buffer,
  ): Promise<InProcessAnswer>;
}

function envelope(reply: Reply, date: string): InProcessAnswer {
  const text = envelopeText(reply);
  return {
    status: reply.status,
    headers: {
      ...reply.headers,
      date,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
    },
    text,
  };
}

/**
 * The paper venue's engine and routes answering in the caller's process: no socket, no
 * server, so a simulation of a whole bot runs on virtual time and decides every delivery
 * itself. The routes, checks and engine are the HTTP venue's ({@link buildPaperRoutes}).
 */
export function createInProcessPaperVenue(options: PaperVenueOptions = {}): InProcessPaperVenue {
  const resolved = resolvePaperOptions(options);
  const { engine, router, credentials } = buildPaperRoutes(resolved);
  const limiter =
    resolved.rateLimit === undefined
      ? undefined
      : new SlidingWindowRateLimiter(resolved.rateLimit, 1000, resolved.clock);
  const dateHeader = dateHeaderCache();
  return {
    engine,
    revokeCredentials: (accountId) => credentials.revokeAccount(accountId),
    checkCredentials: (serviceKey, serviceSecret) =>
      credentials.check(serviceKey, serviceSecret, resolved.clock()),
    async answer(method, pathAndQuery, headers, body) {
      const at = pathAndQuery.indexOf('?');
      const path = at === -1 ? pathAndQuery : pathAndQuery.slice(0, at);
      const query = new URLSearchParams(at === -1 ? '' : pathAndQuery.slice(at + 1));
      const date = dateHeader(resolved.clock());
      const decision = limiter?.take('in-process');
      if (decision !== undefined && !decision.allowed) {
        const wait = String(decision.retryAfterSeconds);
        return envelope(
          fail(429, `rate limited: retry after ${wait} s`, { 'retry-after': wait }),
          date,
        );
      }
      const match = router.match(method, path);
      if (!match.ok) return envelope(match.reply, date);
      if (body.length > MAX_BODY_BYTES)
        return envelope(fail(413, `request body: larger than ${MAX_BODY_BYTES} bytes`), date);
      try {
        const reply = await match.route.handler({
          method: method as RouteMethod,
          path,
          params: match.params,
          query,
          headers,
          body,
        });
        return envelope(reply, date);
      } catch {
        return envelope(fail(500, 'internal error'), date);
      }
    },
  };
}
