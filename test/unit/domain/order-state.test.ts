/**
 * The order state machine, pinned pair by pair: the expected table below is written out by hand
 * (not derived from the code), and every (state, event) pair of it has its own test.
 */
import { describe, expect, it } from 'vitest';
import {
  IllegalOrderTransition,
  INITIAL_ORDER_STATE,
  ORDER_EVENTS,
  IN_FLIGHT_STATES,
  OPEN_ORDER_STATES,
  ORDER_STATES,
  RESTING_STATES,
  UNFINISHED_STATES,
  UNRESOLVED_STATES,
  eventLeadingTo,
  isFinalState,
  isInFlightState,
  isOpenOrderState,
  isRestingState,
  isUnresolvedState,
  transition,
  type OrderEvent,
  type OrderState,
} from '../../../src/domain/index.ts';
import { ErrorCodes } from '../../../src/errors/index.ts';

const _ = null; // illegal

// prettier-ignore
const EXPECTED: Readonly<Record<OrderState, readonly (OrderState | null)[]>> = {
  //                sent    landed      opened  partiallyFilled     filled    cancelled    rejected    expired    outcomeUnknown
  PENDING:          ['SENT', _,          _,      _,                  _,        'CANCELLED', 'REJECTED', 'EXPIRED', _],
  SENT:             ['SENT', 'ACCEPTED', 'OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'REJECTED', 'UNKNOWN', 'UNKNOWN'],
  ACCEPTED:         [_,      _,          'OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', _,          _,         _],
  OPEN:             [_,      _,          'OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', _,          'EXPIRED', _],
  PARTIALLY_FILLED: [_,      _,          _,      'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', _,          'EXPIRED', _],
  FILLED:           [_,      _,          _,      _,                  _,        _,           _,          _,         _],
  CANCELLED:        [_,      _,          _,      _,                  _,        _,           _,          _,         _],
  REJECTED:         [_,      _,          _,      _,                  _,        _,           _,          _,         _],
  EXPIRED:          [_,      _,          _,      _,                  _,        _,           _,          _,         _],
  UNKNOWN:          [_,      _,          'OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', _,          'EXPIRED', _],
};
const COLUMNS: readonly OrderEvent[] = [
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

const pairs = Object.entries(EXPECTED).flatMap(([state, row]) =>
  COLUMNS.map((event, i) => [state as OrderState, event, row[i] ?? null] as const),
);

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('order state machine', () => {
  it('the expected table covers every state and every event: 10 × 9 pairs', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...ORDER_STATES].sort());
    expect([...COLUMNS].sort()).toEqual([...ORDER_EVENTS].sort());
    expect(pairs).toHaveLength(90);
  });

  it.each(pairs.filter(([, , next]) => next !== null))('%s + %s → %s', (state, event, next) => {
    expect(transition(state, event)).toBe(next);
  });

  it.each(pairs.filter(([, , next]) => next === null).map(([state, event]) => [state, event]))(
    '%s + %s is illegal: a typed error naming the state and the event',
    (state, event) => {
      const error = thrown(() => transition(state, event));
      expect(error).toBeInstanceOf(IllegalOrderTransition);
      const illegal = error as IllegalOrderTransition;
      expect(illegal.code).toBe(ErrorCodes.ILLEGAL_ORDER_TRANSITION);
      expect(illegal.from).toBe(state);
      expect(illegal.event).toBe(event);
      expect(illegal.shortMessage).toMatch(
        new RegExp(`^illegal order transition: ${state} → [A-Z_]+(?: or [A-Z_]+)? on "${event}"$`),
      );
    },
  );

  it('says what the state allows, or that it is final', () => {
    const fromFilled = thrown(() => transition('FILLED', 'cancelled')) as IllegalOrderTransition;
    expect(fromFilled.message).toBe(
      'illegal order transition: FILLED → CANCELLED on "cancelled"\n' +
        'FILLED is final: nothing may happen to the order any more.',
    );
    const fromPending = thrown(() => transition('PENDING', 'filled')) as IllegalOrderTransition;
    expect(fromPending.message).toBe(
      'illegal order transition: PENDING → FILLED on "filled"\n' +
        'PENDING allows: "sent" → SENT, "cancelled" → CANCELLED, "rejected" → REJECTED, "expired" → EXPIRED.',
    );
    // `expired` leads to EXPIRED or, once bytes have left, UNKNOWN: the message says both.
    const expired = thrown(() => transition('ACCEPTED', 'expired')) as IllegalOrderTransition;
    expect(expired.shortMessage).toBe(
      'illegal order transition: ACCEPTED → EXPIRED or UNKNOWN on "expired"',
    );
  });

  it('starts at PENDING, reaches every state from there, and every state can end', () => {
    expect(INITIAL_ORDER_STATE).toBe('PENDING');
    const reached = new Set<OrderState>([INITIAL_ORDER_STATE]);
    for (let grew = true; grew;) {
      grew = false;
      for (const [state, event] of pairs) {
        if (!reached.has(state)) continue;
        const next = EXPECTED[state][COLUMNS.indexOf(event)];
        if (next != null && !reached.has(next)) {
          reached.add(next);
          grew = true;
        }
      }
    }
    expect([...reached].sort()).toEqual([...ORDER_STATES].sort());
    const finals = ORDER_STATES.filter(isFinalState);
    expect(finals).toEqual(['FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED']);
    for (const state of ORDER_STATES) {
      const canEnd =
        isFinalState(state) || COLUMNS.some((e) => EXPECTED[state][COLUMNS.indexOf(e)] !== null);
      expect(canEnd, state).toBe(true);
    }
  });

  it('never lets a sent order be called EXPIRED or CANCELLED on our own', () => {
    // docs/design.md §4 rule 4: once bytes left, only the venue's word ends the order; expiry alone is UNKNOWN.
    expect(transition('SENT', 'expired')).toBe('UNKNOWN');
    expect(() => transition('ACCEPTED', 'rejected')).toThrow(IllegalOrderTransition);
    expect(() => transition('ACCEPTED', 'expired')).toThrow(IllegalOrderTransition);
    // The venue's word: no order with its signature, asked after its expiry (execution/venue-record.ts).
    expect(transition('UNKNOWN', 'expired')).toBe('EXPIRED');
  });
});

describe('what each group of states means (one definition each)', () => {
  it('names the groups by hand', () => {
    expect(IN_FLIGHT_STATES).toEqual(['PENDING', 'SENT']);
    expect(RESTING_STATES).toEqual(['OPEN', 'PARTIALLY_FILLED']);
    expect(OPEN_ORDER_STATES).toEqual(['PENDING', 'SENT', 'OPEN', 'PARTIALLY_FILLED']);
    expect(UNRESOLVED_STATES).toEqual(['UNKNOWN', 'ACCEPTED']);
    expect([...UNFINISHED_STATES].sort()).toEqual(
      ['ACCEPTED', 'OPEN', 'PARTIALLY_FILLED', 'PENDING', 'SENT', 'UNKNOWN'].sort(),
    );
  });

  it('splits every state into exactly one of in flight, resting, unresolved and final', () => {
    for (const state of ORDER_STATES) {
      const groups = [
        isInFlightState(state),
        isRestingState(state),
        isUnresolvedState(state),
        isFinalState(state),
      ].filter(Boolean);
      expect(groups, state).toHaveLength(1);
      expect(isOpenOrderState(state), state).toBe(isInFlightState(state) || isRestingState(state));
      expect(UNFINISHED_STATES.includes(state), state).toBe(!isFinalState(state));
      expect(OPEN_ORDER_STATES.includes(state), state).toBe(isOpenOrderState(state));
    }
  });

  it('agrees with the table: only a venue report moves an unresolved or resting order', () => {
    const venueReports: readonly OrderEvent[] = [
      'opened',
      'partiallyFilled',
      'filled',
      'cancelled',
    ];
    // UNKNOWN `expired` is a venue report too: no order with its signature, after its expiry.
    const reportsFor = (state: OrderState): readonly OrderEvent[] =>
      state === 'UNKNOWN' ? [...venueReports, 'expired'] : venueReports;
    for (const state of UNRESOLVED_STATES)
      for (const event of ORDER_EVENTS) {
        const allowed = EXPECTED[state][COLUMNS.indexOf(event)] !== null;
        expect(allowed, `${state} ${event}`).toBe(reportsFor(state).includes(event));
      }
    // An in-flight order's own outcomes (rejected, expired) are what the bot decides itself.
    for (const state of IN_FLIGHT_STATES) expect(transition(state, 'rejected')).toBe('REJECTED');
  });

  it('gives the event that leads to each state (the reverse of the table)', () => {
    const expected: Record<Exclude<OrderState, 'PENDING'>, OrderEvent> = {
      SENT: 'sent',
      ACCEPTED: 'landed',
      OPEN: 'opened',
      PARTIALLY_FILLED: 'partiallyFilled',
      FILLED: 'filled',
      CANCELLED: 'cancelled',
      REJECTED: 'rejected',
      EXPIRED: 'expired',
      UNKNOWN: 'outcomeUnknown',
    };
    for (const [state, event] of Object.entries(expected) as [keyof typeof expected, OrderEvent][])
      expect(eventLeadingTo(state), state).toBe(event);
  });
});
