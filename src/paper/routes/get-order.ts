import { authenticate } from '../authenticate.ts';
import type { PaperContext } from '../context.ts';
import { simOrderToWire } from '../order-to-wire.ts';
import { fail, ok, type Reply } from '../reply.ts';
import type { Route, RouteRequest } from '../router.ts';

const ORDER_ID = /^[1-9]\d*$/;

function getOrder(request: RouteRequest, context: PaperContext): Reply {
  const auth = authenticate(request.headers, context);
  if (!auth.ok) return auth.reply;
  const idText = request.params['id'] ?? '';
  const id = Number(idText);
  if (!ORDER_ID.test(idText) || !Number.isSafeInteger(id)) {
    return fail(400, 'order id: expected a positive integer');
  }
  const order = context.engine.getOrder(auth.session.accountId, id);
  // Another subaccount's order is "not found" too: its existence is not this caller's business.
  if (order === undefined) return fail(404, `order ${id} not found`);
  return ok(simOrderToWire(order, auth.session), 'Order fetched successfully');
}

/**
 * `GET /api/v1/order/{id}` (docs/conventions.md §6 extension): the credential headers of §4.1 without a
 * signature; answers the subaccount's own order as it is now (later fills included), 404 for an
 * id it does not own.
 */
export function getOrderRoute(context: PaperContext): Route {
  return {
    method: 'GET',
    path: '/api/v1/order/:id',
    handler: (request) => getOrder(request, context),
  };
}
