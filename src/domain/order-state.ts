/** An order's status as the venue (or the simulation) reports it (conventions §4.5). */
export type OrderStatus = 'OPEN' | 'PARTIAL' | 'FILLED' | 'CANCELLED';

/** Life of a journaled order (DESIGN "Core types"). */
// ACCEPTED extends DESIGN's list: the venue answered 409 "signature already used" to a retry, so an
// earlier attempt landed, but its answer (order id, fill) never reached us.
export type OrderState = 'PENDING' | 'SENT' | OrderStatus | 'ACCEPTED' | 'REJECTED' | 'UNKNOWN';
