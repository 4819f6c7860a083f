import { MAX_CLOCK_SKEW_MS } from '../clock/venue-clock.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import type { InProcessPaperVenue } from '../paper/index.ts';
import type { SimOrder } from '../sim/index.ts';
import { fillFeeX18 } from '../money/index.ts';
import type { ViolationLog } from './invariants.ts';
import { marketInMessage } from './sim-mix.ts';
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
  /** The markets the bot trades: its position in each must equal the venue's. */
  readonly marketIds: readonly number[];
  readonly accepted: ReadonlyMap<string, AcceptedOrder>;
  /** When the bot first journaled each order's venue id (see {@link feeMatches}). */
  readonly venueIds: VenueIdsJournaled;
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
  // Per market: the fills of young differences, not yet looked up.
  const lagX18 = new Map<number, bigint>();
  for (const row of journal.all()) {
    const sent = input.accepted.get(row.signature);
    const order =
      sent === undefined ? undefined : venue.engine.getOrder(accountId, sent.venueOrderId);
    const takerFeeX18 = venue.engine.market(row.marketId)?.takerFeeX18 ?? 0n;
    const difference = differenceOf(row, order, takerFeeX18, input.venueIds.at(row.id));
    if (difference === undefined) continue;
    const since = Math.max(input.faultsUntil, settlesFrom(row, order, sent));
    if (input.now - since < CONVERGE_BOUND_MS) {
      const lag = signed(row, (order?.totalFilledX18 ?? 0n) - row.filledX18);
      lagX18.set(row.marketId, (lagX18.get(row.marketId) ?? 0n) + lag);
      continue;
    }
    violations.violate(
      'converges',
      `order ${row.id} ${difference}, ${input.now - since} ms after it could settle (bound ${CONVERGE_BOUND_MS} ms)`,
    );
    return;
  }
  for (const marketId of input.marketIds) {
    const mine = bot.executor.positions.amountX18(marketId);
    const theirs = venue.engine.position(accountId, marketId).amountX18;
    const lag = lagX18.get(marketId) ?? 0n;
    if (mine + lag !== theirs) {
      const where = marketInMessage(input.marketIds, marketId);
      violations.violate(
        'converges',
        `the bot's position${where} ${mine} (x18), the venue's ${theirs}, fills not yet looked up ${lag}`,
      );
      return;
    }
  }
}

/**
 * How `row` differs from the venue's record `order` (undefined: the venue never accepted it), or
 * undefined. A filled row without a fee is a difference: only journals written before fees were
 * recorded have one (execution/order-record.ts), and every simulated journal is new.
 */
export function differenceOf(
  row: OrderRecord,
  order: SimOrder | undefined,
  takerFeeX18: bigint,
  venueIdAt: number | undefined,
): string | undefined {
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
      row.feesX18 === null ||
      !feeMatches(row.feesX18, order, takerFeeX18, venueIdAt))
  )
    return `price/fee ${row.avgFillPriceX18}/${row.feesX18}, the venue's ${order.id} ${order.avgFillPriceX18}/${order.feesPaidX18} (${order.fills.length} fills)`;
  return undefined;
}

/**
 * When the bot first journaled each order's venue id (venue ms): from then on it knows the order
 * rests on the venue, and books the order's later fills as maker (execution/fill-booking.ts).
 * Told every `recordOutcome` the journal wrote.
 */
export class VenueIdsJournaled {
  readonly #at = new Map<number, number>();

  saw(record: OrderRecord, venueMs: number): void {
    if (record.venueOrderId !== null && !this.#at.has(record.id)) this.#at.set(record.id, venueMs);
  }

  /** When row `rowId`'s venue id was first journaled, or undefined (never). */
  at(rowId: number): number | undefined {
    return this.#at.get(rowId);
  }
}

/** One venue fill, as the fee rule reads it. */
interface VenueFill {
  readonly amountX18: bigint;
  readonly priceX18: bigint;
  readonly feeX18: bigint;
  readonly liquidity: 'TAKER' | 'MAKER';
  /** Venue ms. */
  readonly at: number;
}

/**
 * Whether the journal's fee is the venue's to the precision the bot can know it.
 *
 * - Rounding: the venue charges each fill its fee rounded up (money/fee.ts) and its orders carry
 *   no fee (docs/venue-api.md §8); the bot prices what filled between two of its lookups as one
 *   amount, at a price it derives from the venue's floored average fill prices
 *   (execution/fill-booking.ts). Rounding each fill up where the bot rounds their sum puts it
 *   below the venue's by up to a unit a fill (seeds 42716 and 45035, docs/simulation-runs.md); a
 *   derived price a hair above the fills' own can put it a unit above, once a lookup. So: one x18
 *   unit a venue fill, either way.
 * - Liquidity: nor does the venue say which fills made liquidity. Until the bot has journaled the
 *   order's venue id (`venueIdAt`, venue ms) it books every fill at the taker rate, never
 *   understated: an answer to placing it filled only by taking, but a lookup's answer for an
 *   order whose placing answer was lost (or not written: a crash, a full disk) may hold fills
 *   that made liquidity. After, every fill is booked as maker, as it is. So a maker fill made
 *   until then may be charged at the taker rate; no other difference is allowed.
 *
 * A fee understated, a maker fill booked as taker after the bot knew, a wrong rate, or a later
 * fill at a wrong price is counted.
 */
export function feeMatches(
  feesX18: bigint,
  order: { readonly feesPaidX18: bigint; readonly fills: readonly VenueFill[] },
  takerFeeX18: bigint,
  venueIdAt: number | undefined,
): boolean {
  const bound = BigInt(order.fills.length);
  let allowanceX18 = 0n;
  for (const fill of order.fills)
    if (fill.liquidity === 'MAKER' && venueIdAt !== undefined && fill.at <= venueIdAt)
      allowanceX18 += fillFeeX18(fill.amountX18, fill.priceX18, takerFeeX18) - fill.feeX18;
  return (
    feesX18 >= order.feesPaidX18 - bound && feesX18 <= order.feesPaidX18 + allowanceX18 + bound
  );
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
