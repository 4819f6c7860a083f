/**
 * What a backtest ran on: imported candles (no book: the candle fill rule), recorded or
 * imported quotes (top of book), or books with depth. The report names it with its fill rule.
 */
export type DataKind = 'candles' | 'quotes' | 'book';

/**
 * The candle fill rule (docs/recording-format.md, "Backtests on candles"), and its caveat. One
 * text: the report, the summary and the docs say the same.
 */
export const CANDLE_FILL_RULE =
  "orders made at a candle's close reach the venue at the next candle's open (the fill model's latency is not used); " +
  'MARKET orders fill whole at that open, plus the slippage; a LIMIT order the open crosses fills at the open, ' +
  'otherwise it rests and fills at its limit once a candle range (low to high) reaches it, the low first in a rising candle ' +
  '(close at or above open), the high first in a falling one; stop-loss and take-profit exits are checked at candle closes ' +
  'and fill at the next open (a stop gaps at the open). Caveat: a candle has no depth and no path: fills are not limited ' +
  'by volume, a touched limit fills in full, and a stop touched and recovered inside one candle is not seen';

const RULES: Readonly<Record<DataKind, string>> = {
  candles: CANDLE_FILL_RULE,
  quotes: 'orders fill against the recorded best bid and ask and their sizes',
  book: 'orders walk the recorded depth level by level',
};

/** The data kind and its fill rule in words, for the report and the summary. */
export function describeDataKind(kind: DataKind, timeframe?: string): string {
  const name = kind === 'candles' && timeframe !== undefined ? `candles (${timeframe})` : kind;
  return `${name}: ${RULES[kind]}`;
}
