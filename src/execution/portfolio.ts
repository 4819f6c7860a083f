import { markPriceX18 } from '../market/mark-price.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { absX18, fillFeeX18 } from '../money/index.ts';
import type { Market, OrderSide, OrderType } from '../domain/index.ts';
import type { OrderRecord } from './order-record.ts';
import { PositionBook, unrealizedPnlX18 } from './positions.ts';

/** Whether a fill added liquidity (a resting LIMIT order) or took it. */
export type Liquidity = 'maker' | 'taker';

/** One fill to book: who, what, at what price, and the fee it cost. */
export interface BookedFill {
  readonly strategy: string;
  readonly marketId: number;
  readonly side: OrderSide;
  readonly amountX18: bigint;
  readonly priceX18: bigint;
  readonly feeX18: bigint;
}

/**
 * Positions, fills, fees and PnL of one account and of each strategy instance in it. Knows
 * nothing of orders in flight (risk does) or of the journal (recovery feeds it). Fees are
 * charged once, when a fill is booked live, and then kept in the journal with the order, so a
 * restart books exactly what was charged (never re-estimated as taker, never 0).
 */
export class Portfolio {
  readonly #account = new PositionBook();
  readonly #byStrategy = new Map<string, PositionBook>();
  readonly #markets = new Map<number, Market>();

  /** The account-wide position book. */
  get account(): PositionBook {
    return this.#account;
  }

  /** One strategy's own positions (what its `ctx.position` reports). */
  strategy(name: string): PositionBook {
    let book = this.#byStrategy.get(name);
    if (book === undefined) {
      book = new PositionBook();
      this.#byStrategy.set(name, book);
    }
    return book;
  }

  /** Remembers a market's parameters (fees) for fills of orders sent on it. */
  rememberMarket(market: Market): void {
    this.#markets.set(market.id, market);
  }

  /** A remembered market's parameters (its tick and quantum for what logs show). */
  market(marketId: number): Market | undefined {
    return this.#markets.get(marketId);
  }

  /**
   * The fee of a fill at the market's maker or taker rate, rounded up. A LIMIT order's fill is
   * maker when the order had rested on the venue before it filled; everything else is taker.
   * Undefined when the market's parameters are unknown (the caller must not guess 0).
   */
  feeOf(
    marketId: number,
    type: OrderType,
    liquidity: Liquidity,
    amountX18: bigint,
    priceX18: bigint,
  ): bigint | undefined {
    const market = this.#markets.get(marketId);
    if (market === undefined) return undefined;
    const fraction =
      type === 'LIMIT' && liquidity === 'maker' ? market.makerFeeX18 : market.takerFeeX18;
    return fillFeeX18(amountX18, priceX18, fraction);
  }

  /**
   * Books what a journal row says was filled (its whole filled amount at its average price)
   * with the fee given; nothing when the row has no fill.
   */
  bookRecord(record: OrderRecord, feeX18: bigint): void {
    if (record.filledX18 === 0n || record.avgFillPriceX18 === null) return;
    this.book({
      strategy: record.strategy,
      marketId: record.marketId,
      side: record.side,
      amountX18: record.filledX18,
      priceX18: record.avgFillPriceX18,
      feeX18,
    });
  }

  /** Books a fill into the account and its strategy's book. */
  book(fill: BookedFill): void {
    this.#account.apply(fill);
    this.strategy(fill.strategy).apply(fill);
  }

  /**
   * Books a closure the venue made on its own (a liquidation, docs/margin.md): every strategy's
   * position in `marketId` closed at `priceX18`, the venue's fee shared by amount closed (the
   * last strategy takes the rounding remainder). Returns the fills booked, by strategy name.
   */
  bookClosure(marketId: number, priceX18: bigint, feeX18: bigint): BookedFill[] {
    const open = [...this.#byStrategy.entries()]
      .map(([strategy, book]) => ({ strategy, amountX18: book.amountX18(marketId) }))
      .filter(({ amountX18 }) => amountX18 !== 0n)
      .sort((a, b) => (a.strategy < b.strategy ? -1 : a.strategy > b.strategy ? 1 : 0));
    const total = open.reduce((sum, { amountX18 }) => sum + absX18(amountX18), 0n);
    let feeLeft = feeX18;
    const fills = open.map(({ strategy, amountX18 }, index): BookedFill => {
      const share = index === open.length - 1 ? feeLeft : (feeX18 * absX18(amountX18)) / total;
      feeLeft -= share;
      return {
        strategy,
        marketId,
        side: amountX18 > 0n ? 'SELL' : 'BUY',
        amountX18: absX18(amountX18),
        priceX18,
        feeX18: share,
      };
    });
    for (const fill of fills) this.book(fill);
    return fills;
  }

  /** Unrealized PnL of the account at the mark price of `snapshot` (markets without a mark count 0). */
  unrealizedX18(snapshot: Snapshot): bigint {
    let total = 0n;
    for (const [marketId, position] of this.#account.sortedEntries()) {
      if (position.amountX18 === 0n) continue;
      const mark = markPriceX18(snapshot.quotes?.get(marketId));
      if (mark !== undefined) total += unrealizedPnlX18(position, mark);
    }
    return total;
  }
}
