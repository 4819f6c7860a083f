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

const exitLevel = z
  .string({ error: 'expected a price like "2950" or a percentage like "1.5%"' })
  .regex(/^\d+(\.\d+)?%?$/, 'expected a price like "2950" or a percentage like "1.5%"');

/** Protective exits (`ExitSpec`), as given with an intent or to `ctx.setExits`. */
export const exitSpecSchema = z
  .object({
    stopLoss: exitLevel.optional(),
    takeProfit: exitLevel.optional(),
    trailingStop: exitLevel.optional(),
    timeLimitMs: z.number().int().positive().optional(),
  })
  .strict();

/** The intent's fields and their forms; {@link orderIntentSchema} adds the rules across fields. */
const intentObject = z
  .object({
    marketId: z.number().int().nonnegative(),
    side: z.enum(['BUY', 'SELL']),
    type: z.enum(['MARKET', 'LIMIT']),
    amount: plainDecimal.optional(),
    notional: plainDecimal.optional(),
    risk: plainDecimal.optional(),
    stopDistance: plainDecimal.optional(),
    price: plainDecimal.optional(),
    reduceOnly: z.boolean().optional(),
    expiresInMs: z.number().int().positive().optional(),
    tag: z.string().max(64).optional(),
    exits: exitSpecSchema.optional(),
  })
  .strict();

/**
 * The runtime check on what a strategy returns: plugins may be plain JavaScript, so the intent
 * shape is verified once, here, before anything sizes it.
 */
export const orderIntentSchema = intentObject.superRefine((intent, ctx) => {
  const problem = sizeProblem(intent);
  if (problem !== undefined)
    ctx.addIssue({ code: 'custom', path: [problem.key], message: problem.message });
});

/** The size keys of an intent, of which exactly one is given. */
const SIZE_KEYS = ['amount', 'notional', 'risk'] as const;

/**
 * What is wrong with how an intent states its size, or undefined: exactly one of `amount`,
 * `notional` and `risk`, and `stopDistance` with `risk` only (one rule for the schema and the
 * fast check).
 */
function sizeProblem(intent: {
  readonly amount?: string | undefined;
  readonly notional?: string | undefined;
  readonly risk?: string | undefined;
  readonly stopDistance?: string | undefined;
  readonly exits?: { readonly stopLoss?: string | undefined } | undefined;
}): { readonly key: string; readonly message: string } | undefined {
  const given = SIZE_KEYS.filter((key) => intent[key] !== undefined);
  if (given.length !== 1) {
    return {
      key: given[1] ?? 'amount',
      message:
        given.length === 0
          ? 'expected the size: one of amount, notional or risk'
          : `expected one of amount, notional or risk, got ${given.join(' and ')}`,
    };
  }
  if (
    intent.risk !== undefined &&
    intent.stopDistance === undefined &&
    intent.exits?.stopLoss === undefined
  )
    return {
      key: 'stopDistance',
      message: 'risk sizing needs stopDistance (the price distance to the stop) or exits.stopLoss',
    };
  if (intent.risk === undefined && intent.stopDistance !== undefined)
    return { key: 'stopDistance', message: 'stopDistance is only read with risk' };
  return undefined;
}

const INTENT_KEYS: ReadonlySet<string> = new Set(Object.keys(intentObject.shape));
/** The decimal keys that state or help compute the size, in the schema's order. */
const SIZE_FIELDS = ['amount', 'notional', 'risk', 'stopDistance'] as const;

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
  const { marketId, side, type, price, reduceOnly, expiresInMs, tag } = o;
  if (
    typeof marketId !== 'number' ||
    !Number.isSafeInteger(marketId) ||
    marketId < 0 ||
    (side !== 'BUY' && side !== 'SELL') ||
    (type !== 'MARKET' && type !== 'LIMIT')
  ) {
    return undefined;
  }
  type Fields = {
    marketId: number;
    side: 'BUY' | 'SELL';
    type: 'MARKET' | 'LIMIT';
    amount?: string;
    notional?: string;
    risk?: string;
    stopDistance?: string;
    price?: string;
    reduceOnly?: boolean;
    expiresInMs?: number;
    tag?: string;
  };
  // Built from an empty literal, which has room for four fields in the object itself: one made
  // of these three put a fourth (the size) in a second block, 40 bytes more per intent, and a
  // backtest keeps every intent for its trace. (Its three required fields are set next.)
  const intent = {} as Fields;
  intent.marketId = marketId;
  intent.side = side;
  intent.type = type;
  for (const key of SIZE_FIELDS) {
    if (!(key in o)) continue;
    const value = o[key];
    if (!isDecimal(value)) return undefined;
    intent[key] = value;
  }
  if (sizeProblem(intent) !== undefined) return undefined;
  // Exits are rare and nested: the schema checks them.
  if ('exits' in o) return undefined;
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
