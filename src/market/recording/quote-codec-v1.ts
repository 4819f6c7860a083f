/**
 * Quotes of format version 1: `[marketId, timestamp, bids, asks]`, each side one string of
 * `price quantity` pairs, cut into levels when first read.
 */
import type { Quote, QuoteLevel } from '../../domain/index.ts';
import { isSafeInteger, type InvalidLine } from './decode-values.ts';
import { RecordedQuote, TextLevels } from './recorded-quote.ts';
import { legacySideProblem } from './side-syntax.ts';

/** Where a quote stands, for messages: its line, its snapshot's seq, its index in the snapshot. */
export interface QuotePlace {
  readonly line: number;
  readonly seq: number;
  readonly index: number;
}

/** The message prefix of a quote's side: `snapshot 7: quotes[2].bids`. */
export function sideName(place: QuotePlace, side: string): string {
  return `snapshot ${place.seq}: quotes[${place.index}].${side}`;
}

/**
 * The market id and time of a quote row `[marketId, timestamp, bids, asks]`, checked.
 *
 * @throws QuantaError `QUANTA_RECORDING_INVALID` for another shape.
 */
export function quoteHead(
  raw: unknown,
  place: QuotePlace,
  invalid: InvalidLine,
): { marketId: number; timestamp: number; bids: unknown; asks: unknown } {
  const where = `snapshot ${place.seq}: quotes[${place.index}]`;
  if (!Array.isArray(raw) || raw.length !== 4)
    throw invalid(place.line, `${where}: expected [marketId, timestamp, bids, asks]`);
  const marketId: unknown = raw[0];
  const timestamp: unknown = raw[1];
  if (!isSafeInteger(marketId) || typeof timestamp !== 'number' || !Number.isFinite(timestamp))
    throw invalid(place.line, `${where}: expected an integer market id and a number timestamp`);
  return { marketId, timestamp, bids: raw[2], asks: raw[3] };
}

/**
 * A version 1 quote. Levels are cut from their string when first read: a backtest reads the
 * levels of the few markets it trades or charts, and a strategy those it looks at; the rest cost
 * nothing. A malformed side is reported (naming file, line and side) by the read that meets it.
 */
export function decodeQuoteV1(raw: unknown, place: QuotePlace, invalid: InvalidLine): Quote {
  const { marketId, timestamp, bids, asks } = quoteHead(raw, place, invalid);
  const notText = (name: string) =>
    invalid(place.line, `${sideName(place, name)}: expected a "price quantity …" string`);
  if (typeof bids !== 'string') throw notText('bids');
  if (typeof asks !== 'string') throw notText('asks');
  const side = (text: string, name: string): TextLevels => {
    const problem = legacySideProblem(text, 1);
    if (problem !== undefined) throw invalid(place.line, `${sideName(place, name)}${problem}`);
    return new TextLevels(text, (levels) => cutLevels(levels, place, name, invalid));
  };
  const bidLevels = side(bids, 'bids');
  return new RecordedQuote(marketId, timestamp, bidLevels, side(asks, 'asks'), 0);
}

function cutLevels(
  raw: string,
  place: QuotePlace,
  side: string,
  invalid: InvalidLine,
): QuoteLevel[] {
  if (raw === '') return [];
  // One string per side, cut here with indexOf/slice (twice as fast as split, which builds
  // an array first): far cheaper than JSON.parse making each value a string of its own.
  // Decimal contents are not re-checked: the writer took them from parsed wire data, and
  // whoever turns them into amounts (the simulation) parses them with src/money.
  const levels: QuoteLevel[] = [];
  let start = 0;
  for (;;) {
    const gap = raw.indexOf(' ', start);
    if (gap === -1) {
      throw invalid(
        place.line,
        `${sideName(place, side)}: expected price and quantity pairs, got an odd number of values`,
      );
    }
    const next = raw.indexOf(' ', gap + 1);
    const end = next === -1 ? raw.length : next;
    levels.push({ price: raw.slice(start, gap), quantity: raw.slice(gap + 1, end) });
    if (next === -1) break;
    start = next + 1;
  }
  return levels;
}
