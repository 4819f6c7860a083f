import type { Market } from '../../domain/index.ts';
import { marketToWireRow } from '../../venue/schemas/index.ts';
import type { PaperContext } from '../context.ts';
import { EncodedBody, fail, ok, type Reply } from '../reply.ts';
import type { Route, RouteRequest } from '../router.ts';

/**
 * Each market's wire row as JSON text, kept by its `Market`: a `Market` is never changed in
 * place (the engine replaces it when it turns on or off), so its row text never goes stale. A
 * poller lists the markets every second and the listing seldom changes.
 */
type RowTexts = WeakMap<Market, string>;

function rowText(market: Market, texts: RowTexts): string {
  let text = texts.get(market);
  if (text === undefined) {
    text = JSON.stringify(marketToWireRow(market));
    texts.set(market, text);
  }
  return text;
}

function listMarkets(request: RouteRequest, context: PaperContext, texts: RowTexts): Reply {
  const selectors = request.query.getAll('type');
  if (selectors.length > 1) return fail(400, 'type: expected PERPETUAL or SPOT once, got it twice');
  const [type] = selectors;
  if (type !== undefined && type !== 'PERPETUAL' && type !== 'SPOT') {
    return fail(400, 'type: expected PERPETUAL or SPOT');
  }
  const rows = context.engine
    .listMarkets()
    .filter((market) => type === undefined || market.type === type)
    .map((market) => rowText(market, texts));
  // What JSON.stringify({ markets }) writes for these rows.
  return ok(new EncodedBody(`{"markets":[${rows.join(',')}]}`), 'Markets fetched successfully');
}

/**
 * `GET /api/v1/market` (docs/conventions.md §5): every market, inactive ones included, with the spec's
 * exact field names; `?type=PERPETUAL|SPOT` selects one kind, any other value is a 400.
 */
export function listMarketsRoute(context: PaperContext): Route {
  const texts: RowTexts = new WeakMap();
  return {
    method: 'GET',
    path: '/api/v1/market',
    handler: (request) => listMarkets(request, context, texts),
  };
}
