import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { Market, Quote, QuoteLevel } from '../../domain/index.ts';
import type { Snapshot } from '../snapshot.ts';
import { LineTag, type RecordingHeader } from './recording-format.ts';

/**
 * Encoders of the recording lines (format in `recording-writer.ts`). Each returns one line
 * without its `\n`. `JSON.stringify` does the escaping, so a symbol with a quote in it is safe.
 */

/** Line 1 of a file. */
export function encodeHeader(header: RecordingHeader): string {
  return JSON.stringify({
    format: header.format,
    version: header.version,
    createdAt: header.createdAt,
    source: header.source,
    part: header.part,
  });
}

/**
 * A market line: the fields of `Market` in a fixed order, x18 values as integer strings
 * (exact; JSON numbers are not).
 */
export function encodeMarketLine(market: Market): string {
  return JSON.stringify([
    LineTag.market,
    market.id,
    market.symbol,
    market.type,
    market.baseAsset,
    market.quoteAsset,
    market.amountExpo,
    market.priceExpo,
    market.minAmountX18.toString(),
    market.maxPositionValueX18.toString(),
    market.makerFeeX18.toString(),
    market.takerFeeX18.toString(),
    market.initialMarginX18.toString(),
    market.maintenanceMarginX18.toString(),
    market.isActive,
    market.createdAt,
    market.updatedAt,
    market.deletedAt,
  ]);
}

/** A removal line: the market left the listing. */
export function encodeRemovalLine(marketId: number): string {
  return JSON.stringify([LineTag.removal, marketId]);
}

/** An order line: the ids of the listing in the snapshot's order. */
export function encodeOrderLine(marketIds: readonly number[]): string {
  return JSON.stringify([LineTag.order, marketIds]);
}

function levelText(text: string, quote: Quote, side: string, index: number, field: string): string {
  if (text.includes(' ')) {
    // The space separates the values of a side; a decimal string never holds one.
    throw new QuantaError(
      ErrorCodes.RECORDING_WRITE,
      `quote of market ${quote.marketId}: ${side}[${index}].${field}: ${JSON.stringify(text)} is not a decimal string (it has a space)`,
    );
  }
  return text;
}

/** One side as `"price qty price qty …"`, best first; `""` for no levels. */
function encodeLevels(quote: Quote, side: 'bids' | 'asks'): string {
  const levels = quote[side];
  let out = '';
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] as QuoteLevel;
    if (i > 0) out += ' ';
    out += levelText(level.price, quote, side, i, 'price');
    out += ' ';
    out += levelText(level.quantity, quote, side, i, 'quantity');
  }
  return out;
}

function encodeQuote(quote: Quote): unknown[] {
  return [
    quote.marketId,
    quote.timestamp,
    encodeLevels(quote, 'bids'),
    encodeLevels(quote, 'asks'),
  ];
}

/**
 * A snapshot line: `["s", seq, takenAt, stale 0|1]`, plus the quotes as a fifth element when the
 * snapshot has them (an empty array for an empty quotes map).
 *
 * @throws QuantaError `QUANTA_RECORDING_WRITE` when a quote price or quantity holds a space (it
 *   would not read back as one value); wire-parsed quotes never do.
 */
export function encodeSnapshotLine(snapshot: Snapshot): string {
  const line: unknown[] = [
    LineTag.snapshot,
    snapshot.seq,
    snapshot.takenAt,
    snapshot.stale ? 1 : 0,
  ];
  if (snapshot.quotes !== undefined) {
    const quotes: unknown[] = [];
    for (const quote of snapshot.quotes.values()) quotes.push(encodeQuote(quote));
    line.push(quotes);
  }
  return JSON.stringify(line);
}
