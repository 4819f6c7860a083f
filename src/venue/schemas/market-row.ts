import { z } from 'zod';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import { parseX18String } from '../../money/index.ts';
import type { Market } from '../../domain/index.ts';
import {
  isCount,
  isIso,
  isJsonObject,
  isX18,
  isoTimestamp,
  marketType,
  nonNegativeInteger,
  safeInteger,
  x18String,
} from './primitives.ts';
import { parseWire } from './wire-error.ts';

/** A conversion exponent: an integer in [-18, 18] (docs/conventions.md §1; expo > 18 is invalid). */
const conversionExpo = safeInteger
  .max(18, { error: (issue) => `expo above 18 (got ${String(issue.input)})` })
  .min(-18, { error: (issue) => `expo below -18 (got ${String(issue.input)})` });

/**
 * One market exactly as the venue lists it (docs/trading-service-api.md §2.6, docs/conventions.md §5): snake_case `id` and
 * timestamps, capitalised names for the rest, x18 values as non-negative integer strings.
 * Unknown extra fields are dropped.
 */
export const marketRowSchema = z.object({
  id: nonNegativeInteger,
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  deleted_at: isoTimestamp.nullable(),
  Symbol: z.string().min(1, { error: 'expected a non-empty symbol' }),
  Type: marketType,
  AmtToQtmConversionExpo: conversionExpo,
  PriceToQtmConversionExpo: conversionExpo,
  MaxPositionValuex18: x18String,
  MinAmountx18: x18String,
  BaseAsset: z.string(),
  QuoteAsset: z.string(),
  IsActive: z.boolean(),
  MakerFeeFractionx18: x18String,
  TakerFeeFractionx18: x18String,
  InitialMarginFractionx18: x18String,
  MaintenanceMarginFractionx18: x18String,
});

/** A market row in wire form. */
export type MarketRow = z.infer<typeof marketRowSchema>;

const marketListSchema = z.object({ markets: z.array(z.unknown()) });

/** `market 7`, or `market at index 3` when the id itself is unusable. */
function marketLabel(raw: unknown, index: number | undefined): string {
  if (typeof raw === 'object' && raw !== null && 'id' in raw) {
    const id = nonNegativeInteger.safeParse(raw.id);
    if (id.success) return `market ${id.data}`;
  }
  return index === undefined ? 'market (id unreadable)' : `market at index ${index}`;
}

function isExpo(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= -18 && value <= 18;
}

/**
 * The market row when `raw` passes every rule of `marketRowSchema` (checked by hand: a listing
 * is parsed at every start and whenever it changes, and zod's walk over 17 fields a row costs
 * several times this), else undefined: the caller then asks the schema, which decides and words
 * the error. Keys come out in the schema's order, unknown keys dropped, as zod gives them
 * (exported for the tests that hold the two to the same verdicts).
 */
export function checkMarketRowFast(raw: unknown): MarketRow | undefined {
  if (!isJsonObject(raw)) return undefined;
  const { id, created_at, updated_at, deleted_at, Symbol: symbol, Type: type } = raw;
  const { BaseAsset: base, QuoteAsset: quote, IsActive: active } = raw;
  const { AmtToQtmConversionExpo: amountExpo, PriceToQtmConversionExpo: priceExpo } = raw;
  const { MaxPositionValuex18: maxPosition, MinAmountx18: minAmount } = raw;
  const { MakerFeeFractionx18: maker, TakerFeeFractionx18: taker } = raw;
  const { InitialMarginFractionx18: initial, MaintenanceMarginFractionx18: maintenance } = raw;
  if (
    !isCount(id) ||
    !isIso(created_at) ||
    !isIso(updated_at) ||
    (deleted_at !== null && !isIso(deleted_at)) ||
    typeof symbol !== 'string' ||
    symbol.length === 0 ||
    (type !== 'PERPETUAL' && type !== 'SPOT') ||
    !isExpo(amountExpo) ||
    !isExpo(priceExpo) ||
    !isX18(maxPosition) ||
    !isX18(minAmount) ||
    typeof base !== 'string' ||
    typeof quote !== 'string' ||
    typeof active !== 'boolean' ||
    !isX18(maker) ||
    !isX18(taker) ||
    !isX18(initial) ||
    !isX18(maintenance)
  ) {
    return undefined;
  }
  return {
    id,
    created_at,
    updated_at,
    deleted_at,
    Symbol: symbol,
    Type: type,
    AmtToQtmConversionExpo: amountExpo,
    PriceToQtmConversionExpo: priceExpo,
    MaxPositionValuex18: maxPosition,
    MinAmountx18: minAmount,
    BaseAsset: base,
    QuoteAsset: quote,
    IsActive: active,
    MakerFeeFractionx18: maker,
    TakerFeeFractionx18: taker,
    InitialMarginFractionx18: initial,
    MaintenanceMarginFractionx18: maintenance,
  };
}

/**
 * Parses one wire market row into a `Market` with bigint x18 fields.
 *
 * @param raw - the row as decoded from JSON.
 * @param index - its position in the list, named in the message when the id is unreadable.
 * @throws QuantaError `QUANTA_INVALID_MARKET` naming the market and the field, e.g.
 *   `market 7: MinAmountx18: expected a non-negative integer x18 string, got "-5"`.
 * @example
 * const market = parseMarketRow(row); // market.minAmountX18 === 100000000000000n
 */
export function parseMarketRow(raw: unknown, index?: number): Market {
  const row =
    checkMarketRowFast(raw) ??
    parseWire(marketRowSchema, raw, {
      code: ErrorCodes.INVALID_MARKET,
      what: marketLabel(raw, index),
    });
  return {
    id: row.id,
    symbol: row.Symbol,
    type: row.Type,
    baseAsset: row.BaseAsset,
    quoteAsset: row.QuoteAsset,
    amountExpo: row.AmtToQtmConversionExpo,
    priceExpo: row.PriceToQtmConversionExpo,
    minAmountX18: parseX18String(row.MinAmountx18),
    maxPositionValueX18: parseX18String(row.MaxPositionValuex18),
    makerFeeX18: parseX18String(row.MakerFeeFractionx18),
    takerFeeX18: parseX18String(row.TakerFeeFractionx18),
    initialMarginX18: parseX18String(row.InitialMarginFractionx18),
    maintenanceMarginX18: parseX18String(row.MaintenanceMarginFractionx18),
    isActive: row.IsActive,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
}

/**
 * Parses the body of the market listing, `{ "markets": [...] }` (docs/conventions.md §5).
 *
 * @throws QuantaError `QUANTA_INVALID_WIRE_DATA` when the body is not that shape;
 *   `QUANTA_INVALID_MARKET` for the first bad row, or for an id listed twice.
 */
export function parseMarketList(body: unknown): Market[] {
  const { markets: rows } = parseWire(marketListSchema, body, {
    code: ErrorCodes.INVALID_WIRE_DATA,
    what: 'market list',
  });
  const seen = new Set<number>();
  return rows.map((row, index) => {
    const market = parseMarketRow(row, index);
    if (seen.has(market.id)) {
      // A snapshot keys markets by id: a second row would silently replace the first.
      throw new QuantaError(
        ErrorCodes.INVALID_MARKET,
        `market ${market.id}: id: listed more than once (again at index ${index})`,
      );
    }
    seen.add(market.id);
    return market;
  });
}

/**
 * The wire row for a `Market`, field for field the inverse of `parseMarketRow` (the paper venue
 * serves markets with it).
 */
export function marketToWireRow(market: Market): MarketRow {
  return {
    id: market.id,
    created_at: market.createdAt,
    updated_at: market.updatedAt,
    deleted_at: market.deletedAt,
    Symbol: market.symbol,
    Type: market.type,
    AmtToQtmConversionExpo: market.amountExpo,
    PriceToQtmConversionExpo: market.priceExpo,
    MaxPositionValuex18: market.maxPositionValueX18.toString(),
    MinAmountx18: market.minAmountX18.toString(),
    BaseAsset: market.baseAsset,
    QuoteAsset: market.quoteAsset,
    IsActive: market.isActive,
    MakerFeeFractionx18: market.makerFeeX18.toString(),
    TakerFeeFractionx18: market.takerFeeX18.toString(),
    InitialMarginFractionx18: market.initialMarginX18.toString(),
    MaintenanceMarginFractionx18: market.maintenanceMarginX18.toString(),
  };
}
