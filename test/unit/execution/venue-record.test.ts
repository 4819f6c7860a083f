/**
 * Issue 31: an order whose answer was lost (ACCEPTED after a 409, or UNKNOWN) has no venue id;
 * the venue's record of it is found by its signature. An UNKNOWN order the venue has no order
 * for is called never-landed only once it can no longer land: its expiry plus the clock skew
 * the bot tolerates (clock/venue-clock.ts), read from a clock known to be within that skew now.
 */
import { expect, it } from 'vitest';
import { MAX_CLOCK_SKEW_MS } from '../../../src/clock/venue-clock.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import { venueRecordOf, type VenueLookups } from '../../../src/execution/venue-record.ts';
import type { VenueOrder } from '../../../src/venue/types.ts';
import { newOrder } from '../../helpers/journal-orders.ts';
import { filledVenueOrder } from '../../helpers/venue-order.ts';

const EXPIRY = 2000;
const LANDED = `0x${'1'.repeat(130)}`;
const LOST = `0x${'2'.repeat(130)}`;

/** A venue order as the lookups answer it. */
function venueOrder(id: number): VenueOrder {
  return filledVenueOrder({
    id,
    amountX18: 10n ** 16n,
    totalFilledX18: 10n ** 16n,
    expiryTs: EXPIRY,
  });
}

/** The venue's orders by id and by signature: order 7 was created by `LANDED`. */
const asked: string[] = [];
const lookups: VenueLookups = {
  lookupOrder: (id) => {
    asked.push(`id ${id}`);
    return Promise.resolve(id === 7 ? venueOrder(7) : undefined);
  },
  findOrder: (signature) => {
    asked.push(`signature ${signature.slice(0, 4)}`);
    return Promise.resolve(signature === LANDED ? venueOrder(7) : undefined);
  },
};

/** A journal row in `state`, sent once, without a venue id (its answer was lost). */
function unresolved(signature: string, state: 'UNKNOWN' | 'ACCEPTED'): OrderRecord {
  const journal = OrderJournal.open(':memory:');
  const [record] = journal.insertPendingMany([newOrder(signature, { expiryTs: EXPIRY })], 1000);
  if (record === undefined) throw new Error('not journaled');
  journal.markAttempt(record.id, 1001);
  const row = journal.recordOutcome(
    record.id,
    state === 'ACCEPTED' ? { event: 'landed' } : { event: 'outcomeUnknown' },
    1002,
  );
  journal.close();
  return row;
}

it('finds an order without a venue id by its signature, and one with an id by its id', async () => {
  asked.length = 0;
  for (const state of ['ACCEPTED', 'UNKNOWN'] as const)
    expect(await venueRecordOf(unresolved(LANDED, state), lookups, 1500, true)).toEqual({
      kind: 'order',
      order: venueOrder(7),
    });
  const withId = { ...unresolved(LOST, 'UNKNOWN'), venueOrderId: 7 };
  expect(await venueRecordOf(withId, lookups, 1500, true)).toEqual({
    kind: 'order',
    order: venueOrder(7),
  });
  expect(asked).toEqual(['signature 0x11', 'signature 0x11', 'id 7']);
});

it('calls an UNKNOWN order the venue never saw never-landed only once it can no longer land', async () => {
  const lost = unresolved(LOST, 'UNKNOWN');
  const last = EXPIRY + MAX_CLOCK_SKEW_MS;
  expect(await venueRecordOf(lost, lookups, EXPIRY, true)).toEqual({ kind: 'not-yet' });
  expect(await venueRecordOf(lost, lookups, last - 1, true)).toEqual({ kind: 'not-yet' });
  expect(await venueRecordOf(lost, lookups, last, true)).toEqual({ kind: 'never-landed' });
  // A 409 said an ACCEPTED one landed: "not found" does not overrule it.
  expect(await venueRecordOf(unresolved(LOST, 'ACCEPTED'), lookups, last + 60_000, true)).toEqual({
    kind: 'not-yet',
  });
});

it('says nothing without the lookup it needs', async () => {
  expect(await venueRecordOf(unresolved(LANDED, 'ACCEPTED'), {}, 1500, true)).toEqual({
    kind: 'not-yet',
  });
  const withId = { ...unresolved(LANDED, 'UNKNOWN'), venueOrderId: 7 };
  expect(await venueRecordOf(withId, { findOrder: lookups.findOrder }, 1500, true)).toEqual({
    kind: 'not-yet',
  });
});

it('calls a SENT order whose outcome could not be written never-landed the same way', async () => {
  const journal = OrderJournal.open(':memory:');
  const [record] = journal.insertPendingMany([newOrder(LOST, { expiryTs: EXPIRY })], 1000);
  if (record === undefined) throw new Error('not journaled');
  journal.markAttempt(record.id, 1001);
  const sent = journal.get(record.id);
  journal.close();
  expect(sent.state).toBe('SENT');
  const last = EXPIRY + MAX_CLOCK_SKEW_MS;
  expect(await venueRecordOf(sent, lookups, last - 1, true)).toEqual({ kind: 'not-yet' });
  expect(await venueRecordOf(sent, lookups, last, true)).toEqual({ kind: 'never-landed' });
});

it('calls nothing never-landed while this host clock is not known to be within the skew (stepped ahead since the order was signed)', async () => {
  // A clock stepped minutes ahead after the signing reads every expiry as long past, while the
  // venue's clock has not reached it: a copy of the order still on its way could land.
  const lost = unresolved(LOST, 'UNKNOWN');
  const aheadNow = EXPIRY + MAX_CLOCK_SKEW_MS + 180_000;
  expect(await venueRecordOf(lost, lookups, aheadNow, false)).toEqual({ kind: 'not-yet' });
  expect(await venueRecordOf(lost, lookups, aheadNow, true)).toEqual({ kind: 'never-landed' });
});
