import { RESTING_STATES, UNRESOLVED_STATES } from '../domain/index.ts';
import type { Logger } from '../log/logger.ts';
import type { VenueOrder } from '../venue/types.ts';
import { expiryFloorOf, type ExpiryFloor } from './expiry-floor.ts';
import type { ExposureBook } from './exposure-book.ts';
import type { LookupFailures } from './lookup-failures.ts';
import type { OrderJournal } from './journal.ts';
import type { OrderRecord } from './order-record.ts';
import { recoverJournal, type RecoverySteps } from './recovery.ts';
import { venueRecordOf, type VenueLookups } from './venue-record.ts';

/**
 * Start-up recovery over the journal (see {@link recoverJournal}): the floor new expiries start
 * after (with a warning for orders a clock that was ahead wrote), the recovery `steps` applied
 * to every journaled order, and the orders of unknown outcome counted at full size.
 * @returns the expiry floor, for the order factory.
 */
export function recoverOrders(
  journal: OrderJournal,
  options: {
    readonly at: number;
    readonly orderTtlMs: number;
    readonly exposure: ExposureBook;
    readonly log: Logger;
  },
  steps: RecoverySteps,
): ExpiryFloor {
  const { at, log } = options;
  const records = journal.all();
  const floor = expiryFloorOf(records, at, options.orderTtlMs);
  const [first] = floor.fromTheFuture;
  if (first !== undefined) {
    const ids = floor.fromTheFuture.map((record) => record.id);
    log.warn(
      { orderIds: ids.slice(0, 20), orders: ids.length, createdAt: first.createdAt, now: at },
      `${ids.length} journaled orders were written after this clock's now and expire beyond now + execution.orderTtlMs (a run whose clock was ahead wrote them, e.g. order ${first.id} created ${new Date(first.createdAt).toISOString()}): new orders' expiries do not start after theirs`,
    );
  }
  recoverJournal(records, at, steps, log);
  for (const record of journal.inStates(UNRESOLVED_STATES)) options.exposure.unresolved(record);
  return floor;
}

/** What {@link refreshOpenOrders} needs. */
export interface RefreshContext {
  readonly journal: OrderJournal;
  readonly exposure: ExposureBook;
  readonly lookups: VenueLookups;
  readonly now: () => number;
  /**
   * Whether this host's clock is known now to be within the allowed skew of the venue's
   * (`VenueClock.withinSkew`): only then does it say that an order can no longer land.
   */
  readonly clockWithinSkew: () => boolean;
  /** Where failed lookups are counted and logged (once per event). */
  readonly failures: LookupFailures;
  readonly log: Logger;
  /** Books an answer that changed something. */
  readonly apply: (record: OrderRecord, order: VenueOrder) => Promise<void>;
  /** Told about an order's journal row after it changed; must not throw. */
  readonly updated?: ((record: OrderRecord) => void) | undefined;
}

/**
 * Asks the venue about resting LIMIT orders (OPEN/PARTIAL) and orders of unknown outcome
 * (ACCEPTED/UNKNOWN: by venue id, or by signature when the answer with the id was lost), and
 * books what changed; an UNKNOWN order the venue never accepted is marked EXPIRED once it can
 * no longer land (see {@link venueRecordOf}). A failed lookup is counted and tried again next
 * poll, logged once per run of failures; a venue that refuses the lookup by signature is not
 * asked it again for a while (see {@link LookupFailures}). Does nothing on a venue without
 * lookups.
 */
export async function refreshOpenOrders(context: RefreshContext): Promise<void> {
  const { journal, exposure, lookups, failures } = context;
  if (lookups.lookupOrder === undefined && lookups.findOrder === undefined) return;
  // Resting orders are looked up after every snapshot (fills, cancels); unresolved ones until
  // resolved, releasing the full size risk counted for them.
  const resting = journal.inStates(RESTING_STATES);
  // Nothing to look up (most snapshots of most strategies): no list is built.
  if (resting.length === 0 && exposure.unresolvedCount === 0) return;
  for (const record of [...resting, ...exposure.unresolvedRecords()]) {
    const bySignature = record.venueOrderId === null;
    // A venue that refused the lookup by signature is not asked it again for a while.
    if (bySignature && !failures.mayFind()) continue;
    try {
      const answer = await venueRecordOf(record, lookups, context.now(), context.clockWithinSkew());
      failures.answered();
      if (answer.kind === 'never-landed') expireUnseen(context, record);
      else if (
        answer.kind === 'order' &&
        (answer.order.status !== record.state || answer.order.totalFilledX18 !== record.filledX18)
      )
        await context.apply(record, answer.order);
    } catch (error) {
      failures.failed(record.id, bySignature, error);
    }
  }
}

// The venue has no order with this one's signature, and it can no longer land.
function expireUnseen(context: RefreshContext, record: OrderRecord): void {
  const expired = {
    event: 'expired',
    error: 'the venue has no order with its signature and it expired: it never landed',
  } as const;
  let updated = context.journal.recordOutcome(record.id, expired, context.now());
  // A SENT one (its outcome could not be written) is UNKNOWN to the state machine first.
  if (updated.state === 'UNKNOWN')
    updated = context.journal.recordOutcome(record.id, expired, context.now());
  context.exposure.resolved(record.id);
  context.updated?.(updated);
  context.log.info(
    { orderId: record.id, state: updated.state },
    `order ${record.id} EXPIRED: the venue never accepted it`,
  );
}
