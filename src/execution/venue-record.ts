import { MAX_CLOCK_SKEW_MS } from '../clock/venue-clock.ts';
import type { VenueOrder } from '../venue/types.ts';
import type { OrderFinder, OrderLookup } from '../venue/venue-client.ts';
import type { OrderRecord } from './order-record.ts';

/** What the venue says about one journaled order that may still change. */
export type VenueRecord =
  /** The venue's order, as it is now. */
  | { readonly kind: 'order'; readonly order: VenueOrder }
  /** No order at the venue with its signature, and it can no longer land: it never will. */
  | { readonly kind: 'never-landed' }
  /** Nothing can be said yet (no lookup, or it may still land). */
  | { readonly kind: 'not-yet' };

/** The lookups a venue offers (docs/conventions.md §6); either may be missing. */
export interface VenueLookups {
  readonly lookupOrder?: OrderLookup | undefined;
  readonly findOrder?: OrderFinder | undefined;
}

/**
 * Asks the venue for its record of `record`: by venue id when the journal has one, else by the
 * signature of its request (an order whose answer was lost: ACCEPTED after a 409, or UNKNOWN).
 *
 * An UNKNOWN order (or an in-flight one whose dispatch ended without its outcome written: the
 * journal refused the write) the venue has no order for is `never-landed` only once its expiry
 * has passed on the venue's clock too: the venue refuses an order past its `expiryTs`. That is
 * read from this host's clock only while the clock is known to be within `MAX_CLOCK_SKEW_MS` of
 * the venue's now (clock/venue-clock.ts): it was when the order was signed, but a clock stepped
 * ahead since would call an order dead that a copy still on its way could land (a request held
 * in the network, or sent just before a crash). Before that, it is `not-yet`. An ACCEPTED order
 * the venue says it never saw stays as it is (the 409 said it did).
 *
 * @param now - this host's wall clock.
 * @param clockWithinSkew - whether this host's clock is known now to be within the allowed skew
 *   of the venue's (`VenueClock.withinSkew`).
 * @throws whatever the lookup throws (the caller retries on the next poll).
 */
export async function venueRecordOf(
  record: OrderRecord,
  lookups: VenueLookups,
  now: number,
  clockWithinSkew: boolean,
): Promise<VenueRecord> {
  let order: VenueOrder | undefined;
  if (record.venueOrderId !== null) {
    if (lookups.lookupOrder === undefined) return { kind: 'not-yet' };
    order = await lookups.lookupOrder(record.venueOrderId);
  } else {
    if (lookups.findOrder === undefined) return { kind: 'not-yet' };
    order = await lookups.findOrder(record.signature);
    if (
      order === undefined &&
      record.state !== 'ACCEPTED' &&
      clockWithinSkew &&
      now >= neverLandsAfter(record)
    )
      return { kind: 'never-landed' };
  }
  return order === undefined ? { kind: 'not-yet' } : { kind: 'order', order };
}

/** This host's time after which the venue can no longer accept `record` (see {@link venueRecordOf}). */
export function neverLandsAfter(record: Pick<OrderRecord, 'expiryTs'>): number {
  return record.expiryTs + MAX_CLOCK_SKEW_MS;
}
