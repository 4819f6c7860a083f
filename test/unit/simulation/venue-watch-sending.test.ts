/**
 * What the bot alone decides is checked as a request leaves the process (src/simulation/
 * venue-watch.ts `sending`), so a request the network then loses is checked too: an order with
 * no journal row yet (I1: the row is written before the send), an order past its expiry on the
 * bot's own clock (I2), and any request, order or lookup, with a signing key the venue refused
 * to that process (I5). These used to be checked only when a request reached the venue, and a
 * lookup's credentials not at all.
 */
import { afterEach, expect, it } from 'vitest';
import { OrderJournal } from '../../../src/execution/journal.ts';
import type { InProcessAnswer } from '../../../src/paper/in-process.ts';
import { ViolationLog } from '../../../src/simulation/invariants.ts';
import type { Outgoing } from '../../../src/simulation/sim-network.ts';
import { EPOCH_MS } from '../../../src/simulation/sim-setup.ts';
import { Trace } from '../../../src/simulation/trace.ts';
import { VenueWatch } from '../../../src/simulation/venue-watch.ts';
import { newOrder } from '../../helpers/journal-orders.ts';

const SIGNER = '0x00000000000000000000000000000000000000aa';
const SIGNATURE = `0x${'1'.repeat(130)}`;
const EXPIRY = EPOCH_MS + 20_000;

const journals: OrderJournal[] = [];
afterEach(() => {
  for (const journal of journals.splice(0)) journal.close();
});

function watch(): { watch: VenueWatch; violations: ViolationLog } {
  const trace = new Trace();
  const violations = new ViolationLog(1, trace, () => 0);
  const venueWatch = new VenueWatch({
    trace,
    violations,
    at: () => 0,
    venueNow: () => EPOCH_MS,
    signatureHeader: 'x-signature',
    signerHeader: 'x-signer-address',
    horizonMs: 60_000,
    journal: () => undefined,
  });
  return { watch: venueWatch, violations };
}

function journal(...signatures: string[]): OrderJournal {
  const opened = OrderJournal.open(':memory:');
  journals.push(opened);
  for (const signature of signatures) opened.insertPending(newOrder(signature), EPOCH_MS);
  return opened;
}

function order(sentAt = EPOCH_MS + 1_000, signature = SIGNATURE): Outgoing {
  return {
    method: 'POST',
    path: '/api/v1/order',
    headers: { 'x-signature': signature, 'x-signer-address': SIGNER },
    body: JSON.stringify({ expiryTs: EXPIRY }),
    sentAt,
    sentVirtualMs: sentAt - EPOCH_MS,
  };
}

const lookup: Outgoing = {
  method: 'GET',
  path: '/api/v1/order/7',
  headers: { 'x-signer-address': SIGNER },
  body: '',
  sentAt: EPOCH_MS + 5_000,
  sentVirtualMs: 5_000,
};

const refusal: InProcessAnswer = {
  status: 401,
  headers: {},
  text: JSON.stringify({ body: null, message: 'credentials revoked', status: 401 }),
};

it('an order that leaves with its journal row breaks nothing', () => {
  const { watch: venueWatch, violations } = watch();
  venueWatch.sending(order(), { pid: 1, journal: journal(SIGNATURE) });
  expect(violations.list).toEqual([]);
});

it('an order that leaves before its journal row is written breaks I1, even if it is then lost', () => {
  const { watch: venueWatch, violations } = watch();
  venueWatch.sending(order(), { pid: 1, journal: journal() });
  expect(violations.list.map((v) => v.invariant)).toEqual(['oneVenueOrder']);
  expect(violations.list[0]?.detail).toMatch(/left process 1 with no row in its journal/);
});

it('an order that leaves at or after its expiry on the bot clock breaks I2', () => {
  const { watch: venueWatch, violations } = watch();
  venueWatch.sending(order(EXPIRY), { pid: 1, journal: journal(SIGNATURE) });
  expect(violations.list.map((v) => v.invariant)).toEqual(['notAfterExpiry']);
});

it('a lookup sent with a signing key the venue refused to that process breaks I5; before the refusal, or from another process, it does not', () => {
  const { watch: venueWatch, violations } = watch();
  const sender = { pid: 2, journal: journal() };
  venueWatch.sending(lookup, sender);
  expect(violations.list).toEqual([]);
  venueWatch.answered({ ...lookup, answer: refusal }, sender);
  venueWatch.sending(lookup, { pid: 3, journal: journal() });
  expect(violations.list).toEqual([]);
  venueWatch.sending(lookup, sender);
  expect(violations.list.map((v) => v.invariant)).toEqual(['durable']);
  expect(violations.list[0]?.detail).toMatch(
    /GET \/api\/v1\/order\/7 went out at 5000 ms with the credentials of signing key 0x0+aa, which the venue had refused/,
  );
});

it('an order from a process started on a damaged journal breaks I7', () => {
  const { watch: venueWatch, violations } = watch();
  venueWatch.sending(order(), { pid: 4, damaged: 'a lost WAL', journal: journal(SIGNATURE) });
  expect(violations.list.map((v) => v.invariant)).toEqual(['refusesDamage']);
});
