import { verifyRegistration } from '../../venue/signing/index.ts';
import { credentialsToWire } from '../../venue/schemas/index.ts';
import type { PaperContext } from '../context.ts';
import { headerValue } from '../credential-headers.ts';
import { parseJsonBody } from '../parse-json-body.ts';
import { fail, ok, type Reply } from '../reply.ts';
import type { Route, RouteRequest } from '../router.ts';

/** How far ahead a registration's `expiryTs` may lie (docs/conventions.md §3): 7 days. */
export const MAX_REGISTRATION_AHEAD_MS = 7 * 24 * 60 * 60 * 1000;

const BROKER_ID = /^(?:0|[1-9]\d*)$/;
const BROKER_ID_LIMIT = 2n ** 48n;

async function register(request: RouteRequest, context: PaperContext): Promise<Reply> {
  const header = context.headerNames.brokerId;
  const brokerText = headerValue(request.headers, header);
  if (brokerText === undefined) return fail(400, `${header} header: missing`);
  if (!BROKER_ID.test(brokerText) || BigInt(brokerText) >= BROKER_ID_LIMIT) {
    return fail(400, `${header} header: expected an integer 0 <= brokerId < 2^48`);
  }

  const json = parseJsonBody(request.body);
  if (!json.ok) return json.reply;
  // Signatures before the venue's own rules: nobody learns a subaccount's counter unsigned.
  const verification = await verifyRegistration(json.value, context.domain, {
    brokerId: BigInt(brokerText),
  });
  if (!verification.valid) return fail(400, verification.message);
  const { request: body, subaccount } = verification;

  const now = context.clock();
  if (body.expiryTs <= now) {
    return fail(400, `expiryTs: must be later than now (${now}), got ${body.expiryTs}`);
  }
  const latest = now + MAX_REGISTRATION_AHEAD_MS;
  if (body.expiryTs > latest) {
    return fail(400, `expiryTs: must be at most 7 days ahead (${latest}), got ${body.expiryTs}`);
  }

  // One engine account per subaccount, whatever letter case its address was written in.
  const accountId = `${subaccount.brokerId}_${subaccount.address.toLowerCase()}_${subaccount.index}`;
  const nonce = context.registry.register(accountId, body.signingKey, body.nonce);
  if (!nonce.ok) return fail(400, `invalid nonce: expected ${nonce.expected}`);

  const credentials = context.credentials.issue({
    brokerId: subaccount.brokerId,
    subaccountId: body.subaccountId,
    accountId,
    signer: body.signingKey,
    expiresAt: body.expiryTs,
  });
  return ok(credentialsToWire(credentials), 'Subaccount successfully registered');
}

/**
 * `POST /api/v1/auth` (docs/conventions.md §3): checks the `Broker-Id` header, the subaccount id, both
 * EIP-712 signatures, the expiry window (now, now + 7 days] and the nonce, then issues a fresh
 * credential pair that expires at `expiryTs`.
 */
export function registerRoute(context: PaperContext): Route {
  return {
    method: 'POST',
    path: '/api/v1/auth',
    handler: (request) => register(request, context),
  };
}
