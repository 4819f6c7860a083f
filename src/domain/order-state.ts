import { ErrorCodes, QuantaError } from '../errors/index.ts';

/**
 * An order's status as a venue (or the simulation) reports it: resting with nothing filled,
 * resting with part filled, completely filled, or cancelled (docs/conventions.md §4.5; the wire calls
 * `PARTIALLY_FILLED` `PARTIAL`, and the venue schemas map between the two).
 */
export type OrderStatus = 'OPEN' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELLED';

/**
 * Life of an order (docs/design.md §3). Only {@link transition} moves an order from one state
 * to the next.
 *
 * - `PENDING`: journaled with its signed bytes; no byte has left.
 * - `SENT`: at least one attempt left (or was about to: the attempt is journaled first).
 * - `ACCEPTED`: the venue answered a resend "signature already used": an earlier attempt landed,
 *   but its answer (order id, fill) never reached us.
 * - `OPEN`, `PARTIALLY_FILLED`, `FILLED`, `CANCELLED`: what the venue reported.
 * - `REJECTED`: refused for good, by the venue or before any byte left.
 * - `EXPIRED`: its expiry passed while it was known not to rest at the venue (never sent, or
 *   not found there by its signature).
 * - `UNKNOWN`: an attempt may have landed and no answer can be had any more: "check the venue".
 */
export type OrderState =
  'PENDING' | 'SENT' | 'ACCEPTED' | OrderStatus | 'REJECTED' | 'EXPIRED' | 'UNKNOWN';

/**
 * What can happen to an order, named for what happened (not for the state it leads to):
 *
 * - `sent`: an attempt is leaving (the first, or a resend of the identical signed bytes);
 * - `landed`: the venue said it had already seen the signature: an earlier attempt landed;
 * - `opened`: the venue reports it resting with nothing filled;
 * - `partiallyFilled`: the venue reports part of it filled, the rest resting;
 * - `filled`: the venue reports it completely filled;
 * - `cancelled`: the venue reports it cancelled (the unfilled rest of a MARKET order, a
 *   reduce-only order with nothing left to reduce, expiry at the venue), or it was withdrawn
 *   before it was ever sent;
 * - `rejected`: refused for good: the venue's final answer, or a refusal before any byte left;
 * - `expired`: its expiry passed before it was sent or before an answer confirmed it;
 * - `outcomeUnknown`: no answer can be had any more, and an attempt may have landed.
 *
 * A venue report (`opened` … `cancelled`) for an `ACCEPTED` or `UNKNOWN` order is how a lookup
 * resolves it; `expired` for an `UNKNOWN` one, when the venue has no order with its signature
 * and its expiry has passed.
 */
export type OrderEvent =
  | 'sent'
  | 'landed'
  | 'opened'
  | 'partiallyFilled'
  | 'filled'
  | 'cancelled'
  | 'rejected'
  | 'expired'
  | 'outcomeUnknown';

/** The state every order starts in: journaled (or, in the simulation, created), not yet sent. */
export const INITIAL_ORDER_STATE = 'PENDING' satisfies OrderState;

/**
 * The transition table: for each state, the events it allows and the state each leads to. A
 * pair that is not listed is illegal. Read a row as "in this state, this may happen next".
 */
// Why each row is what it is (inspired by NautilusTrader's order state table, cut to this venue):
// - PENDING rows were never sent (the attempt is committed before the send), so the venue
//   cannot have an opinion about them: only local outcomes apply.
// - Once bytes have left, an order is never declared EXPIRED or CANCELLED on our own: `expired`
//   from SENT means "it may have landed", which is UNKNOWN (docs/design.md §4 rule 4).
// - ACCEPTED and UNKNOWN leave only on a venue report, i.e. a lookup; a landed order can no
//   longer be rejected or expire unseen. UNKNOWN `expired` is the lookup by signature saying
//   the venue never accepted it, asked after its expiry (it can no longer land):
//   execution/venue-record.ts.
// - A repeated report of OPEN, or another partial fill, is not an error; fills never un-happen,
//   so PARTIALLY_FILLED never goes back to OPEN.
// - FILLED, CANCELLED, REJECTED and EXPIRED are final: nothing leaves them.
export const ORDER_TRANSITIONS: {
  readonly [S in OrderState]: Readonly<Partial<Record<OrderEvent, OrderState>>>;
} = {
  PENDING: { sent: 'SENT', cancelled: 'CANCELLED', rejected: 'REJECTED', expired: 'EXPIRED' },
  SENT: {
    sent: 'SENT',
    landed: 'ACCEPTED',
    opened: 'OPEN',
    partiallyFilled: 'PARTIALLY_FILLED',
    filled: 'FILLED',
    cancelled: 'CANCELLED',
    rejected: 'REJECTED',
    expired: 'UNKNOWN',
    outcomeUnknown: 'UNKNOWN',
  },
  ACCEPTED: {
    opened: 'OPEN',
    partiallyFilled: 'PARTIALLY_FILLED',
    filled: 'FILLED',
    cancelled: 'CANCELLED',
  },
  OPEN: {
    opened: 'OPEN',
    partiallyFilled: 'PARTIALLY_FILLED',
    filled: 'FILLED',
    cancelled: 'CANCELLED',
    expired: 'EXPIRED',
  },
  PARTIALLY_FILLED: {
    partiallyFilled: 'PARTIALLY_FILLED',
    filled: 'FILLED',
    cancelled: 'CANCELLED',
    expired: 'EXPIRED',
  },
  FILLED: {},
  CANCELLED: {},
  REJECTED: {},
  EXPIRED: {},
  UNKNOWN: {
    opened: 'OPEN',
    partiallyFilled: 'PARTIALLY_FILLED',
    filled: 'FILLED',
    cancelled: 'CANCELLED',
    expired: 'EXPIRED',
  },
};

/** Every state, in the table's order. */
export const ORDER_STATES = Object.keys(ORDER_TRANSITIONS) as readonly OrderState[];

/** Every event, in the order of {@link OrderEvent}'s documentation. */
export const ORDER_EVENTS: readonly OrderEvent[] = [
  'sent',
  'landed',
  'opened',
  'partiallyFilled',
  'filled',
  'cancelled',
  'rejected',
  'expired',
  'outcomeUnknown',
];

/**
 * A state with no way out of the transition table (FILLED, CANCELLED, REJECTED, EXPIRED):
 * nothing more will happen to the order. ACCEPTED and UNKNOWN are not final: a venue report
 * (a lookup) can still move them; see {@link isUnresolvedState}.
 */
export function isFinalState(state: OrderState): boolean {
  return Object.keys(ORDER_TRANSITIONS[state]).length === 0;
}

// The groups below split every state that is not final by what the bot does about it. Each
// non-final state is in exactly one of in flight, resting and unresolved (a test checks it
// against the table), so "open" and "may still change" cannot drift from the state machine.

/** Journaled and not yet answered: never sent (PENDING) or with an attempt out (SENT). */
export const IN_FLIGHT_STATES: readonly OrderState[] = ['PENDING', 'SENT'];

/** Resting on the venue's book, whole or in part: the states a lookup refreshes each poll. */
export const RESTING_STATES: readonly OrderState[] = ['OPEN', 'PARTIALLY_FILLED'];

/**
 * Open orders: those that may still trade and that the bot itself still acts on (sends,
 * resends, looks up, expires): in flight or resting. What `ctx.openOrders()`, `GET /status`
 * and `GET /orders` list as open. ACCEPTED and UNKNOWN are not open: a lookup (by venue id or
 * by signature) resolves them.
 */
export const OPEN_ORDER_STATES: readonly OrderState[] = [...IN_FLIGHT_STATES, ...RESTING_STATES];

/**
 * States whose fill is not known: the outcome was lost (UNKNOWN) or a resend's 409 proved an
 * earlier attempt landed (ACCEPTED). Risk counts them at full size until a lookup resolves them.
 */
export const UNRESOLVED_STATES: readonly OrderState[] = ['UNKNOWN', 'ACCEPTED'];

/** Every state that is not final, in the table's order: the orders that may still change. */
export const UNFINISHED_STATES: readonly OrderState[] = ORDER_STATES.filter(
  (state) => !isFinalState(state),
);

/** True for PENDING and SENT (see {@link IN_FLIGHT_STATES}). */
export function isInFlightState(state: OrderState): boolean {
  return IN_FLIGHT_STATES.includes(state);
}

/** True for OPEN and PARTIALLY_FILLED (see {@link RESTING_STATES}). */
export function isRestingState(state: OrderState): boolean {
  return RESTING_STATES.includes(state);
}

/** True for an order that may still trade and that the bot acts on (see {@link OPEN_ORDER_STATES}). */
export function isOpenOrderState(state: OrderState): boolean {
  return isInFlightState(state) || isRestingState(state);
}

/** True for UNKNOWN and ACCEPTED (see {@link UNRESOLVED_STATES}). */
export function isUnresolvedState(state: OrderState): boolean {
  return UNRESOLVED_STATES.includes(state);
}

/**
 * The event that leads to `state`, read from {@link ORDER_TRANSITIONS} (the reverse of the
 * table, for callers that propose a state rather than name an event, such as the journal).
 * Every state but the initial one is the target of exactly one event, except UNKNOWN, also
 * reached by `expired` from SENT: the event that leads nowhere else wins (`outcomeUnknown`).
 */
export function eventLeadingTo(state: Exclude<OrderState, typeof INITIAL_ORDER_STATE>): OrderEvent {
  const event = EVENT_LEADING_TO.get(state);
  // Unreachable: the table test checks that every state but PENDING is some event's target.
  if (event === undefined) throw new IllegalOrderTransition(INITIAL_ORDER_STATE, 'sent', state);
  return event;
}

const EVENT_LEADING_TO: ReadonlyMap<OrderState, OrderEvent> = new Map(
  ORDER_STATES.flatMap((state) => {
    const targets = (event: OrderEvent): OrderState[] =>
      ORDER_STATES.flatMap((from) => ORDER_TRANSITIONS[from][event] ?? []);
    const leading = ORDER_EVENTS.filter((event) => targets(event).includes(state));
    const only = leading.find((event) => targets(event).every((target) => target === state));
    const event = only ?? leading[0];
    return event === undefined || state === INITIAL_ORDER_STATE ? [] : [[state, event] as const];
  }),
);

/** True for the states a venue reports (the statuses of {@link OrderStatus}). */
export function isOrderStatus(state: OrderState): state is OrderStatus {
  return (
    state === 'OPEN' || state === 'PARTIALLY_FILLED' || state === 'FILLED' || state === 'CANCELLED'
  );
}

/**
 * The error for an event the table does not allow in the current state. It names the state, the
 * event and the state the caller expected it to lead to (when one was proposed).
 */
export class IllegalOrderTransition extends QuantaError {
  override name = 'IllegalOrderTransition';
  readonly from: OrderState;
  readonly event: OrderEvent;
  /** The state the caller proposed; undefined when it only named the event. */
  readonly proposed: OrderState | undefined;

  constructor(from: OrderState, event: OrderEvent, proposed?: OrderState) {
    const allowed = Object.keys(ORDER_TRANSITIONS[from]);
    const target = proposed ?? leadsTo(event);
    super(
      ErrorCodes.ILLEGAL_ORDER_TRANSITION,
      `illegal order transition: ${from} → ${target} on "${event}"`,
      {
        details: [
          allowed.length === 0
            ? `${from} is final: nothing may happen to the order any more.`
            : `${from} allows: ${allowed.map((e) => `"${e}" → ${String(ORDER_TRANSITIONS[from][e as OrderEvent])}`).join(', ')}.`,
        ],
      },
    );
    this.from = from;
    this.event = event;
    this.proposed = proposed;
  }
}

/** The state(s) an event leads to wherever it is allowed, for messages ("EXPIRED or UNKNOWN"). */
function leadsTo(event: OrderEvent): string {
  const targets = new Set<OrderState>();
  for (const state of ORDER_STATES) {
    const next = ORDER_TRANSITIONS[state][event];
    if (next !== undefined) targets.add(next);
  }
  return [...targets].join(' or ');
}

/**
 * The one function that decides an order's next state: the state `event` leads to from
 * `current`, per {@link ORDER_TRANSITIONS}.
 *
 * @throws IllegalOrderTransition (`QUANTA_ILLEGAL_ORDER_TRANSITION`) when the table does not
 *   allow `event` in `current`, e.g. `illegal order transition: FILLED → CANCELLED on "cancelled"`.
 * @example
 * transition('PENDING', 'sent'); // 'SENT'
 * transition('SENT', 'expired'); // 'UNKNOWN': an attempt may have landed
 */
export function transition(current: OrderState, event: OrderEvent): OrderState {
  const next = ORDER_TRANSITIONS[current][event];
  if (next === undefined) throw new IllegalOrderTransition(current, event);
  return next;
}
