import { z } from 'zod';
import { ErrorCodes, isQuantaError } from '../errors/index.ts';
import { formatX18, parseSignedDecimalToX18, tryParseSignedDecimalToX18 } from '../money/index.ts';
import type { SimOrderRequest } from '../sim/index.ts';
import {
  checkOrderRequestBodyFast,
  INT128_MAX,
  orderRequestBodySchema,
  parseWire,
  safeInteger,
} from '../venue/schemas/index.ts';
import type { OrderRequestBody } from '../venue/types.ts';
import { fail, type Reply } from './reply.ts';

// A sign is let through here so that the §4.4 steps run in their order: a negative amount that
// is also off the grid gets the grid message, as docs/conventions.md §4.4 lists the grid first.
const signedDecimal = z
  .string()
  .refine((value) => tryParseSignedDecimalToX18(value) !== undefined, {
    // The value is not quoted: a misplaced credential must not come back in the answer.
    error: 'expected a plain decimal string with at most 18 fraction digits',
  })
  .refine((value) => (tryParseSignedDecimalToX18(value) ?? 0n) <= INT128_MAX, {
    error: () => `expected at most ${formatX18(INT128_MAX)} (int128 x18)`,
  })
  .refine((value) => -(tryParseSignedDecimalToX18(value) ?? 0n) <= INT128_MAX, {
    error: () => `expected at least -${formatX18(INT128_MAX)} (int128 x18)`,
  });

const paperOrderBodySchema = orderRequestBodySchema.extend({
  amount: signedDecimal,
  price: signedDecimal,
  // Any integer: one in the past is "timestamp expired" (§4.4), not a shape error.
  expiryTs: safeInteger,
});

/** The order request as the engine takes it, or the 400 reply for a body of the wrong shape. */
export type OrderBodyResult =
  | { readonly ok: true; readonly request: SimOrderRequest }
  | { readonly ok: false; readonly reply: Reply };

/**
 * Checks the shape of an order request body (docs/trading-service-api.md §2.4) and converts it for the engine:
 * amounts and prices exactly to x18. Signs and past expiries pass, for the engine's §4.4 checks
 * to refuse in their order.
 */
export function parseOrderBody(raw: unknown): OrderBodyResult {
  // A body the signer's stricter schema passes (no sign, expiry not negative), checked by hand,
  // passes this one with the same values; only the others are walked by zod.
  let body: z.output<typeof paperOrderBodySchema> | undefined = checkOrderRequestBodyFast(raw);
  try {
    body ??= parseWire(paperOrderBodySchema, raw, {
      code: ErrorCodes.INVALID_WIRE_DATA,
      what: 'order request',
    });
  } catch (error) {
    if (!isQuantaError(error)) throw error;
    return { ok: false, reply: fail(400, error.shortMessage) };
  }
  return {
    ok: true,
    request: {
      marketId: body.marketId,
      side: body.isBuy ? 'BUY' : 'SELL',
      type: body.orderType,
      amountX18: parseSignedDecimalToX18(body.amount, 'amount'),
      priceX18: parseSignedDecimalToX18(body.price, 'price'),
      expiryTs: body.expiryTs,
      isReduce: body.isReduce,
    },
  };
}

/**
 * The body whose signature is checked: the request's values in canonical decimal form. The
 * signed struct carries x18 integers, so `"1.50"` and `"1.5"` sign alike. Call only for a
 * request that passed validation (no sign, expiry in the future).
 */
export function orderBodyForSignature(request: SimOrderRequest): OrderRequestBody {
  return {
    marketId: request.marketId,
    isBuy: request.side === 'BUY',
    orderType: request.type,
    amount: formatX18(request.amountX18),
    price: formatX18(request.priceX18),
    expiryTs: request.expiryTs,
    isReduce: request.isReduce,
  };
}
