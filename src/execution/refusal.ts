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
  | 'ABOVE_MARKET_MAX_POSITION_VALUE'
  | 'ABOVE_MAX_ORDER_NOTIONAL'
  | 'ABOVE_MAX_POSITION'
  | 'REDUCE_ONLY_WITHOUT_POSITION'
  | 'KILL_SWITCH'
  | 'SEND_BACKLOG'
  | 'DAILY_LOSS_LIMIT';

/** A refused intent: the stable reason and a sentence a person can act on. */
export interface Refusal {
  readonly refused: true;
  readonly reason: RefusalReason;
  readonly detail: string;
}

export function refuse(reason: RefusalReason, detail: string): Refusal {
  return { refused: true, reason, detail };
}
