import { marketToWireRow } from '../../venue/schemas/index.ts';
import type { PaperContext } from '../context.ts';
import { fail, ok, type Reply } from '../reply.ts';
import type { Route, RouteRequest } from '../router.ts';

function listMarkets(request: RouteRequest, context: PaperContext): Reply {
  const selectors = request.query.getAll('type');
  if (selectors.length > 1) return fail(400, 'type: expected PERPETUAL or SPOT once, got it twice');
  const [type] = selectors;
  if (type !== undefined && type !== 'PERPETUAL' && type !== 'SPOT') {
    return fail(400, 'type: expected PERPETUAL or SPOT');
  }
  const markets = context.engine
    .listMarkets()
    .filter((market) => type === undefined || market.type === type)
    .map(marketToWireRow);
  return ok({ markets }, 'Markets fetched successfully');
}

/**
 * `GET /api/v1/market` (docs/conventions.md §5): every market, inactive ones included, with the spec's
 * exact field names; `?type=PERPETUAL|SPOT` selects one kind, any other value is a 400.
 */
export function listMarketsRoute(context: PaperContext): Route {
  return {
    method: 'GET',
    path: '/api/v1/market',
    handler: (request) => listMarkets(request, context),
  };
}
