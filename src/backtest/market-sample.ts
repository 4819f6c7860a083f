// Its own module so the trace and the online accumulators that read samples need not import each
// other.
/** One market's state right after a snapshot was processed. All x18, quote units for money. */
export interface MarketSample {
  readonly marketId: number;
  /** Signed position (base units). */
  readonly positionX18: bigint;
  /** Mid price of the recorded quote (0 when the market had no quote). */
  readonly markPriceX18: bigint;
  /** Average entry price of the open position (0 when flat). */
  readonly avgEntryPriceX18: bigint;
  /** Cumulative realized PnL before fees. */
  readonly realizedPnlX18: bigint;
  /** Cumulative fees. */
  readonly feesX18: bigint;
  /** Cumulative quote amount traded. */
  readonly turnoverX18: bigint;
}
