/**
 * The listing a recording file builds with its market, removal and order lines (every version):
 * a Map of frozen `Market` objects that consecutive snapshots share until a line changes it.
 */
import { QuantaError } from '../../errors/index.ts';
import { parseMarketRow, type MarketRow } from '../../venue/schemas/index.ts';
import type { Market } from '../../domain/index.ts';
import { sameMarket } from '../same-market.ts';
import { describe, isSafeInteger, type InvalidLine } from './decode-values.ts';

const MARKET_LINE_LENGTH = 18;

/** The markets of one file as its lines leave them. */
export class RecordingListing {
  #markets = new Map<number, Market>();
  // True once #markets was handed to a snapshot: it is then copied before the next change, so
  // snapshots between two market changes share one Map and none ever sees it change.
  #shared = false;

  /**
   * @param reuse - markets of the previous file of the same recording: a rotated file repeats
   *   its market rows, and equal ones keep their object so identity holds across files.
   */
  constructor(
    private readonly reuse: ReadonlyMap<number, Market>,
    private readonly invalid: InvalidLine,
  ) {}

  /** The listing now (insertion order is the listing's order). */
  get markets(): ReadonlyMap<number, Market> {
    return this.#markets;
  }

  /** The listing for a snapshot: it is not changed in place after this. */
  share(): ReadonlyMap<number, Market> {
    this.#shared = true;
    return this.#markets;
  }

  decodeMarket(row: unknown[], line: number): void {
    if (row.length !== MARKET_LINE_LENGTH) {
      throw this.invalid(
        line,
        `market line: expected ${MARKET_LINE_LENGTH} elements, got ${row.length}`,
      );
    }
    // Rare line (a market changed): the wire schema checks every field, bigints included.
    const wire: Record<keyof MarketRow, unknown> = {
      id: row[1],
      Symbol: row[2],
      Type: row[3],
      BaseAsset: row[4],
      QuoteAsset: row[5],
      AmtToQtmConversionExpo: row[6],
      PriceToQtmConversionExpo: row[7],
      MinAmountx18: row[8],
      MaxPositionValuex18: row[9],
      MakerFeeFractionx18: row[10],
      TakerFeeFractionx18: row[11],
      InitialMarginFractionx18: row[12],
      MaintenanceMarginFractionx18: row[13],
      IsActive: row[14],
      created_at: row[15],
      updated_at: row[16],
      deleted_at: row[17],
    };
    let market: Market;
    try {
      market = parseMarketRow(wire);
    } catch (error) {
      if (!(error instanceof QuantaError)) throw error;
      throw this.invalid(line, error.shortMessage, error.details, error);
    }
    const previous = this.#markets.get(market.id) ?? this.reuse.get(market.id);
    const markets = this.#writable();
    if (previous !== undefined && sameMarket(previous, market)) {
      markets.set(market.id, previous);
    } else {
      markets.set(market.id, Object.freeze(market));
    }
  }

  decodeRemoval(row: unknown[], line: number): void {
    const id = row[1];
    if (row.length !== 2 || !isSafeInteger(id)) {
      throw this.invalid(line, 'removal line: expected ["r", marketId]');
    }
    if (!this.#markets.has(id)) {
      throw this.invalid(line, `removal line: market ${id} is not in the listing`);
    }
    this.#writable().delete(id);
  }

  decodeOrder(row: unknown[], line: number): void {
    const ids = row[1];
    if (row.length !== 2 || !Array.isArray(ids)) {
      throw this.invalid(line, 'order line: expected ["o", [marketId, …]]');
    }
    const reordered = new Map<number, Market>();
    for (const id of ids) {
      const market = isSafeInteger(id) ? this.#markets.get(id) : undefined;
      if (market === undefined) {
        throw this.invalid(line, `order line: market ${describe(id)} is not in the listing`);
      }
      reordered.set(id as number, market);
    }
    if (reordered.size !== this.#markets.size) {
      throw this.invalid(
        line,
        `order line: lists ${reordered.size} distinct markets, the listing has ${this.#markets.size}`,
      );
    }
    this.#markets = reordered;
    this.#shared = false;
  }

  #writable(): Map<number, Market> {
    if (this.#shared) {
      this.#markets = new Map(this.#markets);
      this.#shared = false;
    }
    return this.#markets;
  }
}
