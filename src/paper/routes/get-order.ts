import { authenticate } from '../authenticate.ts';
import type { PaperContext } from '../context.ts';
import { simOrderToWire } from '../order-to-wire.ts';
import { fail, ok, type Reply } from '../reply.ts';
import type { Route, RouteRequest } from '../router.ts';

const ORDER_ID = /^[1-9]\d*$/;
/** A signature as the order route admits it: 65 bytes, hex. */
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

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

function findOrder(request: RouteRequest, context: PaperContext): Reply {
  const auth = authenticate(request.headers, context);
  if (!auth.ok) return auth.reply;
  const signature = request.query.get('signature') ?? '';
  if (!SIGNATURE.test(signature)) {
    return fail(400, 'signature: expected 0x and 130 hex digits');
  }
  const id = context.replayGuard.orderIdOf(signature);
  const order = id === undefined ? undefined : context.engine.getOrder(auth.session.accountId, id);
  // Never accepted, or another subaccount's: "not found" either way.
  if (order === undefined) return fail(404, 'no order was created with this signature');
  return ok(simOrderToWire(order, auth.session), 'Order fetched successfully');
}

/**
 * `GET /api/v1/order?signature=0x…` (docs/conventions.md §6 extension): the subaccount's order
 * that an accepted request signed with this signature created, as it is now; 404 when the venue
 * never accepted one. How a client whose answer was lost (a 409 on the resend, or no answer
 * at all) learns the order's id and fills.
 */
export function findOrderRoute(context: PaperContext): Route {
  return {
    method: 'GET',
    path: '/api/v1/order',
    handler: (request) => findOrder(request, context),
  };
}
