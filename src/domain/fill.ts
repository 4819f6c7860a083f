/**
 * Whether a fill took liquidity from the book (taker, at once) or was a resting order's fill
 * (maker). Fees depend on it, so it is recorded with the fill rather than guessed later.
 */
export type FillLiquidity = 'TAKER' | 'MAKER';
