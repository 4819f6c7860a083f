import { MAX_CLOCK_SKEW_MS } from '../clock/venue-clock.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import type { InProcessPaperVenue } from '../paper/index.ts';
import type { SimOrder } from '../sim/index.ts';
import type { ViolationLog } from './invariants.ts';
import type { SimBot } from './sim-bot.ts';
import { EPOCH_MS } from './sim-setup.ts';
import type { AcceptedOrder } from './venue-watch.ts';

/**
 * How long (virtual ms) the journal may lag the venue's record of an order once the faults have
 * stopped: a poll a second, a lookup each, the request timeout and a retry or two. The clock
 * starts at the end of the faults, or at the venue's last change to the order when later (a
 * fill in the healing phase), or, for an order the venue never accepted, when it can no longer
 * land (its expiry plus the clock skew the bot allows: execution/venue-record.ts).
 */
export const CONVERGE_BOUND_MS = 10_000;

/** What {@link checkConverged} compares. */
export interface ConvergedInput {
  readonly bot: SimBot | undefined;
  readonly journal: OrderJournal | undefined;
  readonly venue: InProcessPaperVenue;
  readonly accountId: string;
  readonly accepted: ReadonlyMap<string, AcceptedOrder>;
  /** Virtual ms at which the faults stopped. */
  readonly faultsUntil: number;
  /** Virtual ms now (the end of the schedule). */
  readonly now: number;
  readonly violations: ViolationLog;
}

/** The final states of an order the venue never accepted. */
const NEVER_ACCEPTED_STATES: ReadonlySet<string> = new Set(['REJECTED', 'EXPIRED', 'CANCELLED']);

/**
 * I4 at the end of a schedule: every journaled order matches the venue's record of it (state,
 * filled amount and, when filled, average price and fee), or, when the venue never accepted
 * it, is REJECTED, EXPIRED or CANCELLED with nothing filled; unless the difference is younger
 * than {@link CONVERGE_BOUND_MS} (see there). The bot's position equals the venue's, less
 * exactly the fills of those young differences.
 */
export function checkConverged(input: ConvergedInput): void {
  const { bot, journal, venue, accountId, violations } = input;
  if (bot === undefined || journal === undefined) {
    violations.violate('converges', 'no bot was trading when the schedule ended');
    return;
  }
  let lagX18 = 0n;
  for (const row of journal.all()) {
    const sent = input.accepted.get(row.signature);
    const order =
      sent === undefined ? undefined : venue.engine.getOrder(accountId, sent.venueOrderId);
    const difference = differenceOf(row, order);
    if (difference === undefined) continue;
    const since = Math.max(input.faultsUntil, settlesFrom(row, order, sent));
    if (input.now - since < CONVERGE_BOUND_MS) {
      lagX18 += signed(row, (order?.totalFilledX18 ?? 0n) - row.filledX18);
      continue;
    }
    violations.violate(
      'converges',
      `order ${row.id} ${difference}, ${input.now - since} ms after it could settle (bound ${CONVERGE_BOUND_MS} ms)`,
    );
    return;
  }
  const mine = bot.executor.positions.amountX18(1);
  const theirs = venue.engine.position(accountId, 1).amountX18;
  if (mine + lagX18 !== theirs)
    violations.violate(
      'converges',
      `the bot's position ${mine} (x18), the venue's ${theirs}, fills not yet looked up ${lagX18}`,
    );
}

/** How `row` differs from the venue's record `order` (undefined: the venue never accepted it), or undefined. */
function differenceOf(row: OrderRecord, order: SimOrder | undefined): string | undefined {
  if (order === undefined) {
    if (row.filledX18 !== 0n) return `is ${row.state} with a fill, and the venue never accepted it`;
    if (!NEVER_ACCEPTED_STATES.has(row.state))
      return `is ${row.state}, and the venue never accepted it`;
    return undefined;
  }
  if (row.state !== order.status || row.filledX18 !== order.totalFilledX18)
    return `is ${row.state} filled ${row.filledX18}, the venue's ${order.id} is ${order.status} filled ${order.totalFilledX18}`;
  if (
    row.filledX18 > 0n &&
    (row.avgFillPriceX18 !== order.avgFillPriceX18 ||
      (row.feesX18 !== null && !feeMatches(row.feesX18, order)))
  )
    return `price/fee ${row.avgFillPriceX18}/${row.feesX18}, the venue's ${order.id} ${order.avgFillPriceX18}/${order.feesPaidX18} (${order.fills.length} fills)`;
  return undefined;
}

/**
 * Whether the journal's fee is the venue's to the precision the venue tells. The venue charges
 * each fill its fee rounded up (money/fee.ts) and its orders carry no fee (docs/venue-api.md §8):
 * the bot prices what filled between two of its lookups as one amount, at a price it derives from
 * the venue's floored average fill prices (execution/fill-booking.ts). Rounding each fill up
 * where the bot rounds their sum puts it below the venue's by up to a unit a fill (seeds 42716
 * and 45035, docs/simulation-runs.md); a derived price a hair above the fills' own can put it a
 * unit above, once a lookup. So: within one x18 unit a venue fill, either way. A fee at the wrong
 * rate or price is off by far more, and still counted.
 */
export function feeMatches(
  feesX18: bigint,
  order: { readonly feesPaidX18: bigint; readonly fills: readonly unknown[] },
): boolean {
  const off = order.feesPaidX18 - feesX18;
  const bound = BigInt(order.fills.length);
  return off <= bound && -off <= bound;
}

/** Virtual ms from which `row` can match the venue's record (see {@link CONVERGE_BOUND_MS}). */
function settlesFrom(
  row: OrderRecord,
  order: SimOrder | undefined,
  sent: AcceptedOrder | undefined,
): number {
  if (order === undefined || sent === undefined) return row.expiryTs + MAX_CLOCK_SKEW_MS - EPOCH_MS;
  return Math.max(sent.at, Date.parse(order.updatedAt) - EPOCH_MS);
}

/** A fill amount of `row`'s order, signed by its side (a sell is negative). */
function signed(row: OrderRecord, amountX18: bigint): bigint {
  return row.side === 'BUY' ? amountX18 : -amountX18;
}
