import type { OrderRecord } from './order-record.ts';

/**
 * Where new orders' expiries start after a restart, read from the journal: new expiries are
 * strictly increasing and must not sign the bytes of an order already journaled.
 */
export interface ExpiryFloor {
  /** New orders expire strictly after this. */
  readonly floorTs: number;
  /**
   * Journaled expiries beyond the floor (a run whose clock was ahead, or intents with a longer
   * `expiresInMs`): a new order never takes one of them, so it never signs a journaled order's
   * bytes again.
   */
  readonly taken: ReadonlySet<number>;
  /**
   * Orders written "after now" (created later than this clock says it is) whose expiry lies
   * beyond now + the TTL: a run whose clock was ahead wrote them. Reported, not obeyed.
   */
  readonly fromTheFuture: readonly OrderRecord[];
}

/**
 * The expiry floor of the orders in `records` at `now`: their largest expiry, but never beyond
 * `now + ttlMs` (`execution.orderTtlMs`). Taking the journal's maximum as it was let one run with
 * a clock 5 days ahead make every later run sign expiries 5 days out (issue 25); expiries beyond
 * the cap are kept in `taken` instead, which is all uniqueness needs.
 */
export function expiryFloorOf(
  records: Iterable<OrderRecord>,
  now: number,
  ttlMs: number,
): ExpiryFloor {
  const cap = now + ttlMs;
  let floorTs = 0;
  const taken = new Set<number>();
  const fromTheFuture: OrderRecord[] = [];
  for (const record of records) {
    if (record.expiryTs <= cap) {
      if (record.expiryTs > floorTs) floorTs = record.expiryTs;
      continue;
    }
    taken.add(record.expiryTs);
    if (record.createdAt > now) fromTheFuture.push(record);
  }
  return { floorTs, taken, fromTheFuture };
}

/** The expiry a new order gets: `wanted`, or the first free millisecond after `lastTs`. */
export function nextExpiryTs(wanted: number, lastTs: number, taken: ReadonlySet<number>): number {
  let expiryTs = Math.max(wanted, lastTs + 1);
  while (taken.has(expiryTs)) expiryTs += 1;
  return expiryTs;
}
