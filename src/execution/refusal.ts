/**
 * Why an intent was not sent. Each reason is counted in metrics and logged with its detail;
 * none of them reaches the wire.
 */
export type RefusalReason =
  | 'INVALID_INTENT'
  | 'MARKET_NOT_FOUND'
  | 'MARKET_INACTIVE'
  | 'ZERO_AFTER_ROUNDING'
  | 'BELOW_MIN_AMOUNT'
  | 'NO_REFERENCE_PRICE'
  | 'NO_EQUITY'
  | 'ABOVE_MARKET_MAX_POSITION_VALUE'
  | 'ABOVE_MAX_ORDER_NOTIONAL'
  | 'ABOVE_MAX_POSITION'
  | 'REDUCE_ONLY_WITHOUT_POSITION'
  /** SPOT: a sell of more than the base asset held (docs/margin.md). */
  | 'SPOT_OVERSELL'
  /** The order's initial margin and fee exceed the account's free margin (docs/margin.md). */
  | 'INSUFFICIENT_MARGIN'
  /** As `INSUFFICIENT_MARGIN`, at the stricter fraction of a configured `risk.maxLeverage`. */
  | 'ABOVE_MAX_LEVERAGE'
  /** A held market without a mark (or listing): the margin is not known, exposure not added. */
  | 'MARGIN_UNKNOWN'
  | 'KILL_SWITCH'
  | 'HALTED'
  | 'ENTRIES_HALTED'
  | 'SEND_BACKLOG'
  | 'STRATEGY_THROTTLED'
  | 'DAILY_LOSS_LIMIT'
  | 'CLOCK_SKEW'
  /**
   * No credential to sign with that can carry an order to the venue now: the current one was
   * refused by the venue (revoked), or expires too soon; a new one is being registered.
   */
  | 'CREDENTIALS'
  /** The strategy's warm-up has not ended (its `warmup` bars, its indicators' first values). */
  | 'WARMING_UP';

/** A refused intent: the stable reason and a sentence a person can act on. */
export interface Refusal {
  readonly refused: true;
  readonly reason: RefusalReason;
  readonly detail: string;
}

export function refuse(reason: RefusalReason, detail: string): Refusal {
  return { refused: true, reason, detail };
}

/**
 * Refusals that follow from the trading mode: counted, never logged one by one (the mode change
 * was logged once, and every intent is refused while it lasts).
 */
export const MODE_REFUSALS: ReadonlySet<RefusalReason> = new Set([
  'KILL_SWITCH',
  'HALTED',
  'ENTRIES_HALTED',
]);

/**
 * Refusals counted, never logged one by one: the mode refusals, a strategy throttled to its
 * share of the rate budget (`StrategyShares` logs one line per episode; a flood would otherwise
 * mean one line per minute per strategy for as long as it lasts, and every intent counted), and
 * this host's clock off the venue's (`VenueClock` logs each change of its state).
 */
export const UNLOGGED_REFUSALS: ReadonlySet<RefusalReason> = new Set([
  ...MODE_REFUSALS,
  'STRATEGY_THROTTLED',
  'CLOCK_SKEW',
]);
