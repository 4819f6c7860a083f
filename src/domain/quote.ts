/** One price level of a quote: decimal strings, exactly as the venue or the simulation gives them. */
export interface QuoteLevel {
  readonly price: string;
  readonly quantity: string;
}

/** Top of book for one market: best level first on each side. */
export interface Quote {
  readonly marketId: number;
  /** When the book was read, ms since the epoch. */
  readonly timestamp: number;
  readonly bids: readonly QuoteLevel[];
  readonly asks: readonly QuoteLevel[];
}
