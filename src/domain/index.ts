/**
 * The domain layer: what every other layer shares (markets, order terms, quotes, fills, order
 * states). It depends on nothing but `money/`; the wire code maps to it at the venue edge and
 * the simulation speaks it directly.
 */
export type { Market, MarketType } from './market.ts';
export type { OrderSide, OrderType } from './order-terms.ts';
export type { Quote, QuoteLevel } from './quote.ts';
export {
  QUOTE_LEVELS_X18,
  QUOTE_TOP_X18,
  quoteLevelsX18,
  quoteTopX18,
} from './quote-levels-x18.ts';
export type { Fill, FillLiquidity } from './fill.ts';
export type { OpenOrder } from './open-order.ts';
export type { ExitSpec, OrderIntent } from './intent.ts';
export { midPriceX18 } from './mid-price.ts';
export {
  IllegalOrderTransition,
  INITIAL_ORDER_STATE,
  IN_FLIGHT_STATES,
  OPEN_ORDER_STATES,
  ORDER_EVENTS,
  ORDER_STATES,
  ORDER_TRANSITIONS,
  eventLeadingTo,
  RESTING_STATES,
  UNFINISHED_STATES,
  UNRESOLVED_STATES,
  isFinalState,
  isInFlightState,
  isOpenOrderState,
  isOrderStatus,
  isRestingState,
  isUnresolvedState,
  transition,
  type OrderEvent,
  type OrderState,
  type OrderStatus,
} from './order-state.ts';
