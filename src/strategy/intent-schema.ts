import { z } from 'zod';

const plainDecimal = z
  .string({
    error: (issue) =>
      typeof issue.input === 'number'
        ? `expected a decimal string like "0.05", got the number ${String(issue.input)} (a float cannot hold every decimal exactly: pass a string)`
        : 'expected a plain decimal string like "0.05"',
  })
  .regex(/^\d+(\.\d+)?$/, 'expected a plain decimal string like "0.05"');

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
