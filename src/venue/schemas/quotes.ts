import { z } from 'zod';
import { ErrorCodes } from '../../errors/index.ts';
import type { Quote } from '../../domain/index.ts';
import { decimalString, nonNegativeInteger, timestampMs } from './primitives.ts';
import { parseWire } from './wire-error.ts';

const quoteLevelSchema = z.object({ price: decimalString, quantity: decimalString });

/** One market's quote (docs/conventions.md §6 extension): decimal strings, best level first. */
export const wireQuoteSchema = z.object({
  marketId: nonNegativeInteger,
  timestamp: timestampMs,
  bids: z.array(quoteLevelSchema),
  asks: z.array(quoteLevelSchema),
});

/** The quotes body, `{ "quotes": [...] }`. */
export const quotesBodySchema = z.object({ quotes: z.array(wireQuoteSchema) });

/** The quotes body in wire form. */
export type QuotesBody = z.infer<typeof quotesBodySchema>;

/**
 * Parses the body of `GET /api/v1/quotes`. Depth and level order are the venue's business and
 * are not re-checked here.
 *
 * @throws QuantaError `QUANTA_INVALID_WIRE_DATA` with the path, e.g.
 *   `quotes: quotes[0].bids[1].price: expected a plain non-negative decimal string …`.
 */
export function parseQuotes(body: unknown): Quote[] {
  return parseWire(quotesBodySchema, body, {
    code: ErrorCodes.INVALID_WIRE_DATA,
    what: 'quotes',
  }).quotes;
}

/** The wire body for quotes (the paper venue serves it); levels are copied as they are. */
export function quotesToWire(quotes: readonly Quote[]): QuotesBody {
  return {
    quotes: quotes.map((quote) => ({
      marketId: quote.marketId,
      timestamp: quote.timestamp,
      bids: quote.bids.map((level) => ({ price: level.price, quantity: level.quantity })),
      asks: quote.asks.map((level) => ({ price: level.price, quantity: level.quantity })),
    })),
  };
}
