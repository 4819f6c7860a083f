import { isFinalState } from '../domain/index.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import type { InProcessPaperVenue } from '../paper/index.ts';
import type { ViolationLog } from './invariants.ts';
import type { SimBot } from './sim-bot.ts';
import type { AcceptedOrder } from './venue-watch.ts';

/** What {@link checkConverged} compares. */
export interface ConvergedInput {
  readonly bot: SimBot | undefined;
  readonly journal: OrderJournal | undefined;
  readonly venue: InProcessPaperVenue;
  readonly accountId: string;
  readonly accepted: ReadonlyMap<string, AcceptedOrder>;
  readonly healMs: number;
  readonly violations: ViolationLog;
}

/**
 * I4 at the end of a schedule: every journaled order is final and matches the venue's record
 * (state, filled amount, price, fee), and the bot's position equals the venue's.
 */
export function checkConverged(input: ConvergedInput): void {
  const { bot, journal, venue, accountId, violations } = input;
  if (bot === undefined || journal === undefined) {
    violations.violate('converges', 'no bot was trading when the schedule ended');
    return;
  }
  for (const row of journal.all()) {
    if (!isFinalState(row.state)) {
      violations.violate(
        'converges',
        `order ${row.id} is ${row.state} ${input.healMs} ms after the faults stopped`,
      );
      return;
    }
    checkRow(input, row);
  }
  const mine = bot.executor.positions.amountX18(1);
  const theirs = venue.engine.position(accountId, 1).amountX18;
  if (mine !== theirs)
    violations.violate('converges', `the bot's position ${mine} (x18), the venue's ${theirs}`);
}

/** One final row against the venue's record of it. */
function checkRow(input: ConvergedInput, row: OrderRecord): void {
  const { violations } = input;
  const sent = input.accepted.get(row.signature);
  const venueOrder =
    sent === undefined
      ? undefined
      : input.venue.engine.getOrder(input.accountId, sent.venueOrderId);
  if (venueOrder === undefined) {
    if (row.filledX18 !== 0n)
      violations.violate(
        'converges',
        `order ${row.id} is ${row.state} with a fill, and the venue never accepted it`,
      );
    else if (!NEVER_ACCEPTED_STATES.has(row.state))
      violations.violate(
        'converges',
        `order ${row.id} is ${row.state}, and the venue never accepted it`,
      );
    return;
  }
  if (row.state !== venueOrder.status || row.filledX18 !== venueOrder.totalFilledX18)
    violations.violate(
      'converges',
      `order ${row.id} is ${row.state} filled ${row.filledX18}, the venue's ${venueOrder.id} is ${venueOrder.status} filled ${venueOrder.totalFilledX18}`,
    );
  else if (
    row.filledX18 > 0n &&
    (row.avgFillPriceX18 !== venueOrder.avgFillPriceX18 ||
      (row.feesX18 !== null && row.feesX18 !== venueOrder.feesPaidX18))
  )
    violations.violate(
      'converges',
      `order ${row.id} price/fee ${row.avgFillPriceX18}/${row.feesX18}, the venue's ${venueOrder.avgFillPriceX18}/${venueOrder.feesPaidX18}`,
    );
}

/** The final states of an order the venue never accepted. */
const NEVER_ACCEPTED_STATES: ReadonlySet<string> = new Set([
  'REJECTED',
  'EXPIRED',
  'CANCELLED',
  'UNKNOWN',
]);
