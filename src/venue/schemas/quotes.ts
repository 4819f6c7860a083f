import { z } from 'zod';
import { ErrorCodes } from '../../errors/index.ts';
import type { Quote, QuoteLevel } from '../../domain/index.ts';
import {
  decimalString,
  isCount,
  isJsonObject,
  isPlainDecimal,
  nonNegativeInteger,
  timestampMs,
} from './primitives.ts';
import { parseWire } from './wire-error.ts';

/** One level of a book: price and quantity as plain decimal strings. */
export const quoteLevelSchema = z.object({ price: decimalString, quantity: decimalString });

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
  return (
    checkQuotesFast(body) ??
    parseWire(quotesBodySchema, body, {
      code: ErrorCodes.INVALID_WIRE_DATA,
      what: 'quotes',
    }).quotes
  );
}

// The rules of `quotesBodySchema`, checked by hand: the quotes are polled every second and
// zod's walk over every level costs several times this. Only what the schema accepts passes;
// anything else goes to the schema, which decides and words the error. Values come out as zod
// gives them: new objects, keys in the schema's order, unknown keys dropped.

/** A level when it passes `quoteLevelSchema`, else undefined (exported for the agreement tests). */
export function checkQuoteLevelFast(raw: unknown): QuoteLevel | undefined {
  if (!isJsonObject(raw)) return undefined;
  const { price, quantity } = raw;
  return isPlainDecimal(price) && isPlainDecimal(quantity) ? { price, quantity } : undefined;
}

function levelsFast(raw: unknown): QuoteLevel[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const levels: QuoteLevel[] = [];
  for (const item of raw as unknown[]) {
    const level = checkQuoteLevelFast(item);
    if (level === undefined) return undefined;
    levels.push(level);
  }
  return levels;
}

/** A quote when it passes `wireQuoteSchema`, else undefined (exported for the agreement tests). */
export function checkWireQuoteFast(raw: unknown): Quote | undefined {
  if (!isJsonObject(raw)) return undefined;
  const { marketId, timestamp } = raw;
  if (!isCount(marketId) || !isCount(timestamp)) return undefined;
  const bids = levelsFast(raw.bids);
  const asks = bids === undefined ? undefined : levelsFast(raw.asks);
  return asks === undefined || bids === undefined ? undefined : { marketId, timestamp, bids, asks };
}

/** The quotes when `body` passes `quotesBodySchema`, else undefined (exported for the tests). */
export function checkQuotesFast(body: unknown): Quote[] | undefined {
  if (!isJsonObject(body) || !Array.isArray(body.quotes)) return undefined;
  const quotes: Quote[] = [];
  for (const item of body.quotes as unknown[]) {
    const quote = checkWireQuoteFast(item);
    if (quote === undefined) return undefined;
    quotes.push(quote);
  }
  return quotes;
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
