import type { PaperContext } from '../context.ts';
import { EncodedBody, fail, ok, type Reply } from '../reply.ts';
import type { Route, RouteRequest } from '../router.ts';

const MARKET_ID = /^(?:0|[1-9]\d*)$/;

function quotes(request: RouteRequest, context: PaperContext): Reply {
  const selectors = request.query.getAll('marketId');
  if (selectors.length > 1) return fail(400, 'marketId: expected at most one, got it twice');
  const [idText] = selectors;
  let marketId: number | undefined;
  if (idText !== undefined) {
    marketId = Number(idText);
    if (!MARKET_ID.test(idText) || !Number.isSafeInteger(marketId)) {
      return fail(400, 'marketId: expected a non-negative integer');
    }
  }
  return ok(new EncodedBody(context.engine.quotesJson(marketId)), 'Quotes fetched successfully');
}

/**
 * `GET /api/v1/quotes` (docs/conventions.md §6 extension): the book of each active market, or of the
 * one named by `?marketId=` (an empty list when it is unknown or inactive), decimal strings,
 * best level first, depth ≤ 10.
 */
export function quotesRoute(context: PaperContext): Route {
  return {
    method: 'GET',
    path: '/api/v1/quotes',
    handler: (request) => quotes(request, context),
  };
}
