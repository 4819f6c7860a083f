import { z } from 'zod';
import type { OrderIntent } from './intent.ts';

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

const plainDecimal = z
  .string({
    error: (issue) =>
      typeof issue.input === 'number'
        ? `expected a decimal string like "0.05", got the number ${String(issue.input)} (a float cannot hold every decimal exactly: pass a string)`
        : 'expected a plain decimal string like "0.05"',
  })
  .regex(PLAIN_DECIMAL, 'expected a plain decimal string like "0.05"');

/**
 * The runtime check on what a strategy returns: plugins may be plain JavaScript, so the intent
 * shape is verified once, here, before anything sizes it.
 */
export const orderIntentSchema = z
  .object({
    marketId: z.number().int().nonnegative(),
    side: z.enum(['BUY', 'SELL']),
    type: z.enum(['MARKET', 'LIMIT']),
    amount: plainDecimal,
    price: plainDecimal.optional(),
    reduceOnly: z.boolean().optional(),
    expiresInMs: z.number().int().positive().optional(),
    tag: z.string().max(64).optional(),
  })
  .strict();

const INTENT_KEYS: ReadonlySet<string> = new Set(Object.keys(orderIntentSchema.shape));

function isDecimal(value: unknown): value is string {
  return typeof value === 'string' && PLAIN_DECIMAL.test(value);
}

/**
 * The intent when `raw` passes every rule of {@link orderIntentSchema} (checked by hand: every
 * intent of every strategy goes through it, and zod's object walk costs several times this),
 * else undefined: the caller then asks the schema, which decides and words the error. A copy,
 * keys in the schema's order, as zod gives it. An optional key present as `undefined` is left
 * to the schema. Exported for the tests that hold the two to the same verdicts.
 */
export function checkOrderIntentFast(raw: unknown): OrderIntent | undefined {
  if (typeof raw !== 'object' || raw === null || Object.getPrototypeOf(raw) !== Object.prototype) {
    return undefined;
  }
  const o = raw as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!INTENT_KEYS.has(key)) return undefined;
  const { marketId, side, type, amount, price, reduceOnly, expiresInMs, tag } = o;
  if (
    typeof marketId !== 'number' ||
    !Number.isSafeInteger(marketId) ||
    marketId < 0 ||
    (side !== 'BUY' && side !== 'SELL') ||
    (type !== 'MARKET' && type !== 'LIMIT') ||
    !isDecimal(amount)
  ) {
    return undefined;
  }
  const intent: {
    marketId: number;
    side: 'BUY' | 'SELL';
    type: 'MARKET' | 'LIMIT';
    amount: string;
    price?: string;
    reduceOnly?: boolean;
    expiresInMs?: number;
    tag?: string;
  } = { marketId, side, type, amount };
  if ('price' in o) {
    if (!isDecimal(price)) return undefined;
    intent.price = price;
  }
  if ('reduceOnly' in o) {
    if (typeof reduceOnly !== 'boolean') return undefined;
    intent.reduceOnly = reduceOnly;
  }
  if ('expiresInMs' in o) {
    if (typeof expiresInMs !== 'number' || !Number.isSafeInteger(expiresInMs) || expiresInMs <= 0)
      return undefined;
    intent.expiresInMs = expiresInMs;
  }
  if ('tag' in o) {
    if (typeof tag !== 'string' || tag.length > 64) return undefined;
    intent.tag = tag;
  }
  return intent;
}
