/**
 * What the bot alone decides is checked as a request leaves the process (src/simulation/
 * venue-watch.ts `sending`), so a request the network then loses is checked too: an order with
 * no journal row yet (I1: the row is written before the send), an order past its expiry on the
 * bot's own clock (I2), and any request, order or lookup, with a signing key the venue refused
 * to that process or that its credential file marked refused when it started (I5). These used
 * to be checked only when a request reached the venue, and a lookup's credentials not at all.
 * And the order the venue accepted is the one its journal row says (I1).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { OrderJournal } from '../../../src/execution/journal.ts';
import type { InProcessAnswer } from '../../../src/paper/in-process.ts';
import { ViolationLog } from '../../../src/simulation/invariants.ts';
import type { Outgoing } from '../../../src/simulation/sim-network.ts';
import { EPOCH_MS } from '../../../src/simulation/sim-setup.ts';
import { Trace } from '../../../src/simulation/trace.ts';
import {
  unlikeItsRow,
  VenueWatch,
  type VenueWatchOptions,
} from '../../../src/simulation/venue-watch.ts';
import type { SimOrder } from '../../../src/sim/index.ts';
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import { newOrder } from '../../helpers/journal-orders.ts';

const SIGNER = '0x00000000000000000000000000000000000000aa';
const SIGNATURE = `0x${'1'.repeat(130)}`;
const EXPIRY = EPOCH_MS + 20_000;
const TIMEOUT_MS = 2_000;
const SKEW_MS = 5_000;

const journals: OrderJournal[] = [];
afterEach(() => {
  for (const journal of journals.splice(0)) journal.close();
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A state dir's credential file path: absent, or holding `SIGNER`'s credentials, refused. */
function credentialsFile(refused: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'quanta-watch-'));
  dirs.push(dir);
  const path = join(dir, 'credentials.json');
  if (refused) {
    const stored = {
      venue: 'http://venue.sim',
      brokerId: 1,
      subaccountId: 'sub',
      signerAddress: SIGNER,
      signingPrivateKey: `0x${'22'.repeat(32)}`,
      serviceKey: 'a'.repeat(32),
      serviceSecret: 'b'.repeat(64),
      expiryTs: EPOCH_MS + 240_000,
      nonce: 1,
      refusedAt: EPOCH_MS + 3_000,
    };
    writeFileSync(path, JSON.stringify({ version: 1, credentials: [stored] }), { mode: 0o600 });
  }
  return path;
}

function watch(
  credentialsPath = credentialsFile(false),
  venue: Pick<VenueWatchOptions, 'journal' | 'venueOrder'> = {
    journal: () => undefined,
    venueOrder: () => undefined,
  },
  at: () => number = () => 0,
): {
  watch: VenueWatch;
  violations: ViolationLog;
} {
  const trace = new Trace();
  const violations = new ViolationLog(1, trace, () => 0);
  const venueWatch = new VenueWatch({
    trace,
    violations,
    at,
    venueNow: () => EPOCH_MS,
    signatureHeader: 'x-signature',
    signerHeader: 'x-signer-address',
    horizonMs: 60_000,
    requestTimeoutMs: TIMEOUT_MS,
    allowedSkewMs: SKEW_MS,
    ...venue,
    credentialsPath,
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
  expect(venueWatch.refusalsKnownTo(2)).toEqual(new Set());
  venueWatch.answered({ ...lookup, answer: refusal }, sender);
  // What the end check (healed.ts) asks: which process knows.
  expect(venueWatch.refusalsKnownTo(2)).toEqual(new Set([SIGNER.toLowerCase()]));
  expect(venueWatch.refusalsKnownTo(3)).toEqual(new Set());
  expect(venueWatch.refusalsKnownTo(undefined)).toEqual(new Set());
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

it('a request from a process with a signing key its credential file marked refused when it started breaks I5', () => {
  const { watch: venueWatch, violations } = watch(credentialsFile(true));
  venueWatch.started(5);
  venueWatch.sending(lookup, { pid: 5, journal: journal() });
  expect(violations.list.map((v) => v.invariant)).toEqual(['durable']);
  expect(violations.list[0]?.detail).toBe(
    `GET /api/v1/order/7 went out at 5000 ms with the credentials of signing key ${SIGNER}, which the credential file marked refused (at 3000 ms on the bot's clock) when process 5 started`,
  );
});

it('reads a credential file as its process starts: a later process knows the refusals written before it', () => {
  const path = credentialsFile(false);
  const { watch: venueWatch, violations } = watch(path);
  venueWatch.started(6);
  // Marked refused after process 6 started (by it, after a 401 the watch records itself).
  writeFileSync(path, readFileSync(credentialsFile(true)));
  venueWatch.sending(lookup, { pid: 6, journal: journal() });
  expect(violations.list).toEqual([]);
  venueWatch.started(7);
  expect(venueWatch.refusalsKnownTo(6)).toEqual(new Set());
  expect(venueWatch.refusalsKnownTo(7)).toEqual(new Set([SIGNER.toLowerCase()]));
  venueWatch.sending(lookup, { pid: 7, journal: journal() });
  expect(violations.list.map((v) => v.invariant)).toEqual(['durable']);
});

/** The venue's record of `row`'s order, as the venue would hold it. */
function venueOrderOf(row: OrderRecord): SimOrder {
  return {
    id: 9,
    accountId: 'acct',
    marketId: row.marketId,
    marketSymbol: row.symbol,
    marketType: 'PERPETUAL',
    side: row.side,
    type: row.type,
    status: 'OPEN',
    amountX18: row.amountX18,
    priceX18: row.priceX18,
    totalFilledX18: 0n,
    avgFillPriceX18: 0n,
    feesPaidX18: 0n,
    expiryTs: row.expiryTs,
    isReduce: row.reduceOnly,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    fills: [],
  };
}

it('finds a venue order unlike its journal row (I1: the venue trades what the row says)', () => {
  const row = journal(SIGNATURE).all()[0]!;
  const venueOrder = venueOrderOf(row);
  expect(unlikeItsRow(row, venueOrder)).toBeUndefined();
  expect(unlikeItsRow(row, { ...venueOrder, isReduce: !row.reduceOnly })).toBe(
    `reduce-only ${row.reduceOnly} in the row, ${!row.reduceOnly} at the venue`,
  );
  expect(unlikeItsRow(row, { ...venueOrder, amountX18: row.amountX18 + 1n })).toBe(
    `amount ${row.amountX18} in the row, ${row.amountX18 + 1n} at the venue`,
  );
  expect(unlikeItsRow(row, { ...venueOrder, side: row.side === 'BUY' ? 'SELL' : 'BUY' })).toMatch(
    /^side /,
  );
  expect(unlikeItsRow(row, undefined)).toBe('the venue has no such order');
});

it('an order the venue accepted unlike its journal row breaks I1 as the venue answers', () => {
  const rows = journal(SIGNATURE);
  const recorded = rows.all()[0]!;
  const unlike = { ...venueOrderOf(recorded), isReduce: !recorded.reduceOnly };
  const { watch: venueWatch, violations } = watch(credentialsFile(false), {
    journal: () => rows,
    venueOrder: (id) => (id === 9 ? unlike : undefined),
  });
  venueWatch.delivered(acceptedOrder(recorded.marketId));
  expect(violations.list.map((v) => [v.invariant, v.detail])).toEqual([
    [
      'oneVenueOrder',
      `venue order 9 is not the order of journal row ${recorded.id}: reduce-only ${recorded.reduceOnly} in the row, ${!recorded.reduceOnly} at the venue`,
    ],
  ]);
  expect(venueWatch.accepted.get(SIGNATURE)?.marketId).toBe(recorded.marketId);
});

/** The venue's answer accepting venue order 9, for an order of `marketId`. */
function acceptedOrder(marketId: number) {
  return {
    ...order(),
    body: JSON.stringify({ expiryTs: EXPIRY, marketId }),
    answer: {
      status: 200,
      headers: {},
      text: JSON.stringify({ body: { id: 9 }, message: 'Order placed', status: 200 }),
    },
  };
}

it('an order accepted while no journal is open (its sender died) must have its row in the next journal opened (I1)', () => {
  const rows = journal(SIGNATURE);
  const recorded = rows.all()[0]!;
  const { watch: venueWatch, violations } = watch(credentialsFile(false), {
    journal: () => undefined,
    venueOrder: (id) => (id === 9 ? venueOrderOf(recorded) : undefined),
  });
  venueWatch.delivered(acceptedOrder(recorded.marketId));
  expect(violations.list).toEqual([]);
  venueWatch.journalOpened(rows);
  expect(violations.list).toEqual([]);

  const lost = watch(credentialsFile(false), {
    journal: () => undefined,
    venueOrder: (id) => (id === 9 ? venueOrderOf(recorded) : undefined),
  });
  lost.watch.delivered(acceptedOrder(recorded.marketId));
  lost.watch.journalOpened(journal());
  expect(lost.violations.list.map((v) => [v.invariant, v.detail])).toEqual([
    [
      'oneVenueOrder',
      `venue order 9 has no journal row (signature ${SIGNATURE.slice(0, 12)}…) (accepted at 0 ms, while no process had its journal open)`,
    ],
  ]);
});

it('an order answered "credentials expired" breaks I5 when it reached the venue within the bot margin (timeout plus allowed skew, as its clock was), not when held on the way longer', () => {
  /** Delivered `landedAfterMs` after its send, from a host clock `aheadMs` off the venue's. */
  const expiredAnswer = (aheadMs: number) => {
    const sent = order(EPOCH_MS + 1_000 + aheadMs);
    return {
      ...{ ...sent, sentVirtualMs: 1_000 },
      body: JSON.stringify({ expiryTs: EXPIRY, marketId: 1 }),
      answer: {
        status: 401,
        headers: {},
        text: JSON.stringify({ body: null, message: 'credentials expired', status: 401 }),
      },
    };
  };
  const broken = (aheadMs: number, landedAfterMs: number): number => {
    const { watch: venueWatch, violations } = watch(
      undefined,
      undefined,
      () => 1_000 + landedAfterMs,
    );
    venueWatch.delivered(expiredAnswer(aheadMs));
    return violations.list.filter((v) => v.invariant === 'durable').length;
  };
  // A right clock: the bot left the timeout plus the skew.
  expect(broken(0, TIMEOUT_MS + SKEW_MS)).toBe(1);
  expect(broken(0, TIMEOUT_MS + SKEW_MS + 1)).toBe(0);
  // A clock 3 s behind the venue's: 3 s of that margin are gone; 4 s ahead: 4 s more.
  expect(broken(-3_000, TIMEOUT_MS + SKEW_MS - 3_000)).toBe(1);
  expect(broken(-3_000, TIMEOUT_MS + SKEW_MS - 2_999)).toBe(0);
  expect(broken(4_000, TIMEOUT_MS + SKEW_MS + 4_000)).toBe(1);
  // Further behind than allowed: still the timeout, not less.
  expect(broken(-60_000, TIMEOUT_MS)).toBe(1);
  expect(broken(-60_000, TIMEOUT_MS + 1)).toBe(0);
});
