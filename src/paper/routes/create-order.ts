import type { Address } from 'viem';
import { isQuantaError } from '../../errors/index.ts';
import { SimRejection, type SimOrder } from '../../sim/index.ts';
import { verifyOrderSignature } from '../../venue/signing/index.ts';
import { authenticate } from '../authenticate.ts';
import type { PaperContext } from '../context.ts';
import { headerValue } from '../credential-headers.ts';
import { orderBodyForSignature, parseOrderBody } from '../order-body.ts';
import { simOrderToWire } from '../order-to-wire.ts';
import { parseJsonBody } from '../parse-json-body.ts';
import { fail, ok, type Reply } from '../reply.ts';
import type { Route, RouteRequest } from '../router.ts';

function rejected(error: unknown): Reply {
  if (error instanceof SimRejection) return fail(400, error.shortMessage);
  throw error;
}

async function createOrder(request: RouteRequest, context: PaperContext): Promise<Reply> {
  const auth = authenticate(request.headers, context);
  if (!auth.ok) return auth.reply;
  const { session } = auth;

  const json = parseJsonBody(request.body);
  if (!json.ok) return json.reply;
  const parsed = parseOrderBody(json.value);
  if (!parsed.ok) return parsed.reply;

  // docs/conventions.md §4.4: every check of the order comes before its signature.
  try {
    context.engine.validateOrder(parsed.request);
  } catch (error) {
    return rejected(error);
  }

  const names = context.headerNames;
  const signature = headerValue(request.headers, names.signature);
  if (signature === undefined) return fail(400, `${names.signature} header: missing`);
  let signed: boolean;
  try {
    signed = await verifyOrderSignature({
      subaccountId: session.subaccountId,
      body: orderBodyForSignature(parsed.request),
      signature,
      // The registered key: it passed the address schema at registration.
      signer: session.signer as Address,
      domain: context.domain,
    });
  } catch (error) {
    if (!isQuantaError(error)) throw error;
    return fail(400, `${names.signature}: cannot be checked: ${error.shortMessage}`);
  }
  if (!signed) {
    return fail(400, `${names.signature}: not a signature by ${names.signer} over this order`);
  }

  // No await from here on: the check, the placement and the record happen as one step.
  if (context.replayGuard.has(signature)) return fail(409, 'signature already used');
  let order: SimOrder;
  try {
    // The clock may have moved during verification: the engine checks the order again.
    order = context.engine.placeOrder(session.accountId, parsed.request);
  } catch (error) {
    return rejected(error);
  }
  context.replayGuard.add(signature, order.id);
  return ok(simOrderToWire(order, session), 'Order created successfully');
}

/**
 * `POST /api/v1/order` (docs/conventions.md §4): credential headers (401/403), the body's shape, the
 * §4.4 checks in order, then the signature (400) and the replay guard (409); an accepted order
 * goes to the engine and is answered with `avgFillPricex18` (docs/conventions.md §6).
 */
export function createOrderRoute(context: PaperContext): Route {
  return {
    method: 'POST',
    path: '/api/v1/order',
    handler: (request) => createOrder(request, context),
  };
}
