import type { Trace } from './trace.ts';

/** The invariants a schedule is checked against (the README lists them; issue 31). */
export const INVARIANTS = {
  oneVenueOrder:
    'I1 one venue order per journaled order: every order leaves the bot with its journal row written, every order the venue accepted has a row and is the order that row says, and no row has two',
  notAfterExpiry:
    "I2 nothing is accepted by the venue after its expiryTs, and nothing leaves the bot once its own clock says the order's expiryTs has passed",
  positionCap:
    "I3 as the bot journals an order, the venue's position plus every order on its side that may still fill stays within the position cap (risk.maxPositionNotional) at the price the bot checked the order at; the filled position within it at entry prices",

  dailyLoss:
    "I3 the daily loss limit holds across restarts: a day's loss baseline, once stored, is never stored lower (that forgives the loss made since), and no order is journaled while the journal, read as a restarted bot reads it, holds no position and the day's loss (realized net of fees since the day's baseline) has reached risk.dailyLossLimit (only reducing orders may go out then, and from flat none reduces)",
  converges:
    "I4 after healing, every journaled order is resolved and matches the venue's record (state, filled amount, price, fee), and the bot's position in each market it trades equals the venue's",
  durable:
    'I5 a committed journal row is never lost; no order is sent with an expired credential, and nothing (order or lookup) with one the venue refused in an answer the bot got or its credential file marked refused; credentials are renewed before they expire (from 10 s after the faults stop the venue never finds the newest expired unless the bot knows it refused them, and at the end it takes them unless the bot still waits to replace refused ones)',
  expiryHorizon:
    "I6 no order reaches the venue with an expiry further from the venue's time than the longest validity the strategy asks plus the clock skew the bot allows (a host clock ahead must not make orders rest longer than asked)",
  refusesDamage:
    'I7 a bot restarted on a damaged journal (a lost WAL, a damaged page, a file cut short) refuses to start with QUANTA_JOURNAL_DAMAGED and places no order',
  waitsRetryAfter:
    "I8 the bot waits out every 429's Retry-After, whichever request drew it: nothing leaves the process that got it (no order, lookup, poll or registration) until the wait it asks has passed (the 429s of the simulated network: the simulated venue has no rate limit of its own)",
  starts:
    'the bot starts on a healthy network (no start-up refusal of its own state) and trades until the schedule ends (it never stops on its own, and after a healing phase of 2 minutes the venue has accepted orders of it in each market it trades since the faults stopped)',
} as const;

/** An invariant's key. */
export type InvariantName = keyof typeof INVARIANTS;

/** A broken invariant, with what a person needs to replay and read it. */
export interface Violation {
  readonly seed: number;
  readonly invariant: InvariantName;
  readonly detail: string;
  /** Virtual ms since the schedule started. */
  readonly at: number;
  /** The trace's last events before it, oldest first. */
  readonly lastEvents: readonly string[];
}

/** Where a schedule's violations go: one per invariant, each with the trace's last events. */
export class ViolationLog {
  readonly #seed: number;
  readonly #trace: Trace;
  readonly #at: () => number;
  readonly list: Violation[] = [];

  constructor(seed: number, trace: Trace, at: () => number) {
    this.#seed = seed;
    this.#trace = trace;
    this.#at = at;
  }

  /** Records that `invariant` broke (only its first break is kept). */
  readonly violate = (invariant: InvariantName, detail: string): void => {
    if (this.list.some((v) => v.invariant === invariant)) return;
    const at = this.#at();
    this.#trace.add(at, `VIOLATION ${invariant}: ${detail}`);
    this.list.push({ seed: this.#seed, invariant, detail, at, lastEvents: this.#trace.latest() });
  };
}

/**
 * A violation as printed: seed, invariant, detail, the command that replays it, then the last
 * events.
 *
 * @param runFlags - the run's flags that shape a schedule (`--minutes N --mix NAME`): a seed
 *   names a schedule only together with them, so the replay line repeats them.
 */
export function formatViolation(violation: Violation, runFlags = ''): string {
  return [
    `seed ${violation.seed}: ${INVARIANTS[violation.invariant]}`,
    `  at ${violation.at} ms: ${violation.detail}`,
    `  replay: quanta sim --seed ${violation.seed}${runFlags === '' ? '' : ` ${runFlags}`}`,
    '  last events:',
    ...violation.lastEvents.map((event) => `    ${event}`),
  ].join('\n');
}
