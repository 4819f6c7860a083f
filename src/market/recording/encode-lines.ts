import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { Market, Quote, QuoteLevel } from '../../domain/index.ts';
import type { Snapshot } from '../snapshot.ts';
import { toTicks } from './price-ticks.ts';
import { encodeQuantityBlock } from './quantity-block.ts';
import { LineTag, type RecordingHeader } from './recording-format.ts';

/**
 * Encoders of the recording lines (format in `docs/recording-format.md`). Each returns one line
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
  // A reader refuses a negative quantity (`side-syntax.ts`): a book never holds one.
  if (field === 'quantity' && text.charCodeAt(0) === 45)
    throw new QuantaError(
      ErrorCodes.RECORDING_WRITE,
      `quote of market ${quote.marketId}: ${side}[${index}].quantity: ${JSON.stringify(text)} is negative`,
    );
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

/** What the version 2 encoder remembers of a side: the levels of the last snapshot that had it. */
interface SideMemory {
  readonly expo: number | undefined;
  readonly prices: readonly string[];
  readonly ticks: readonly (number | undefined)[];
  readonly quantities: readonly string[];
}

/**
 * The version 2 encoder's memory of one file: each market's last bid and ask sides. A new file
 * starts with a new one (files are self-contained).
 */
export type QuoteMemory = Map<
  number,
  { bids: SideMemory | undefined; asks: SideMemory | undefined }
>;

/** Version 2: a side unchanged since the market's previous quote in the file. */
export const UNCHANGED_SIDE = 0;

/**
 * One side in version 2, against the same side of the market's previous quote in the file:
 * `0` (a number) when every price and quantity is unchanged; otherwise `"p q p q …"` where each
 * `p` is the level's price in ticks of `10^-priceExpo` minus the ticks of the previous quote's
 * level at the same index (0 without one, or when the expo changed), or `@` and the literal
 * decimal when the price is not exactly on the grid; and each `q` is the quantity's decimal
 * string, or `=` when it equals the previous quote's quantity at that index.
 *
 * With `shifted` (version 4), a side whose levels all moved by the same number of ticks (as many
 * levels as before, every price on the grid) may instead be `"*<ticks> <quantity block>"`
 * (`quantity-block.ts`), or `"*<ticks> ="` when no quantity changed: written when it is the
 * shorter of the two, as it is unless only a few of many sizes changed.
 */
function encodeSideV2(
  quote: Quote,
  side: 'bids' | 'asks',
  previous: SideMemory | undefined,
  expo: number | undefined,
  shifted: boolean,
): { readonly encoded: string | typeof UNCHANGED_SIDE; readonly memory: SideMemory } {
  const levels = quote[side];
  const count = levels.length;
  const prices = new Array<string>(count);
  const quantities = new Array<string>(count);
  let same = previous !== undefined && previous.prices.length === count && previous.expo === expo;
  for (let i = 0; i < count; i++) {
    const level = levels[i] as QuoteLevel;
    prices[i] = levelText(level.price, quote, side, i, 'price');
    quantities[i] = levelText(level.quantity, quote, side, i, 'quantity');
    if (same && (previous?.prices[i] !== prices[i] || previous?.quantities[i] !== quantities[i]))
      same = false;
  }
  if (same && previous !== undefined) return { encoded: UNCHANGED_SIDE, memory: previous };
  const ticks = new Array<number | undefined>(count);
  const base = previous !== undefined && previous.expo === expo ? previous : undefined;
  let out = '';
  // Whether every quantity is the previous quote's at its index (each one written `=`).
  let quantitiesKept = true;
  for (let i = 0; i < count; i++) {
    const price = prices[i] as string;
    const tick = expo === undefined ? undefined : toTicks(price, expo);
    ticks[i] = tick;
    if (i > 0) out += ' ';
    out += tick === undefined ? `@${price}` : String(tick - (base?.ticks[i] ?? 0));
    out += ' ';
    const quantity = quantities[i] as string;
    const kept = previous?.quantities[i] === quantity;
    if (!kept) quantitiesKept = false;
    out += kept ? '=' : quantity;
  }
  const memory = { expo, prices, ticks, quantities };
  if (shifted && base !== undefined) {
    // (A shift needs as many levels as before, so `quantitiesKept` covers every one of them.)
    const shift = commonShift(ticks, base.ticks);
    const block =
      shift === undefined ? undefined : quantitiesKept ? '=' : encodeQuantityBlock(quantities);
    if (block !== undefined) {
      const compact = `*${String(shift)} ${block}`;
      if (compact.length < out.length) return { encoded: compact, memory };
    }
  }
  return { encoded: out, memory };
}

/** The ticks every level moved by since `before` (as many levels, all on the grid), or undefined. */
function commonShift(
  ticks: readonly (number | undefined)[],
  before: readonly (number | undefined)[],
): number | undefined {
  if (ticks.length === 0 || ticks.length !== before.length) return undefined;
  let shift: number | undefined;
  for (let i = 0; i < ticks.length; i++) {
    const now = ticks[i];
    const then = before[i];
    if (now === undefined || then === undefined) return undefined;
    if (shift === undefined) shift = now - then;
    else if (now - then !== shift) return undefined;
  }
  return shift;
}

/**
 * A version 2 snapshot line: as version 1, but each quote side encoded against the market's
 * previous quote in the file (`encodeSideV2`), so a moving book costs small integers and a still
 * one a `0`. `memory` is updated to this snapshot. A keyframe line (`tag` `"k"`, version 3) is
 * encoded against an empty `memory`.
 *
 * @throws QuantaError `QUANTA_RECORDING_WRITE` as `encodeSnapshotLine` (memory unchanged then).
 */
export function encodeSnapshotLineV2(
  snapshot: Snapshot,
  memory: QuoteMemory,
  tag: typeof LineTag.snapshot | typeof LineTag.keyframe = LineTag.snapshot,
  version: 2 | 3 | 4 | 5 = 3,
): string {
  // Version 4 and later: quote times as offsets from takenAt, and shifted sides.
  const compact = version >= 4;
  const line: unknown[] = [tag, snapshot.seq, snapshot.takenAt, snapshot.stale ? 1 : 0];
  if (snapshot.quotes !== undefined) {
    const quotes: unknown[] = [];
    const updates: [number, SideMemory, SideMemory][] = [];
    for (const quote of snapshot.quotes.values()) {
      const expo = snapshot.markets.get(quote.marketId)?.priceExpo;
      const known = memory.get(quote.marketId);
      const bids = encodeSideV2(quote, 'bids', known?.bids, expo, compact);
      const asks = encodeSideV2(quote, 'asks', known?.asks, expo, compact);
      updates.push([quote.marketId, bids.memory, asks.memory]);
      const time = compact ? quote.timestamp - snapshot.takenAt : quote.timestamp;
      // An offset must give the time back exactly (whole ms do; far-apart fractions may not).
      if (compact && time + snapshot.takenAt !== quote.timestamp)
        throw new QuantaError(
          ErrorCodes.RECORDING_WRITE,
          `snapshot ${snapshot.seq}: quote of market ${quote.marketId}: timestamp ${quote.timestamp} is not exact as an offset from takenAt ${snapshot.takenAt} (format 4 records whole ms; write format 3 for others)`,
        );
      quotes.push([quote.marketId, time, bids.encoded, asks.encoded]);
    }
    for (const [marketId, bids, asks] of updates) memory.set(marketId, { bids, asks });
    line.push(quotes);
  }
  return JSON.stringify(line);
}
