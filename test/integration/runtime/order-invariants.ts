/**
 * The order-safety invariants of issue 12's "Done when", checked from the venue's side: what the
 * paper venue's engine holds for the account, every order request a recording proxy saw (its
 * arrival time and signed body), and the journal the bot left. Each check returns the offending
 * items, so a failing assertion shows what went wrong rather than a bare count.
 */
import type { OrderRecord } from '../../../src/execution/order-record.ts';
import type { PaperVenue } from '../../../src/paper/index.ts';
import type { SimOrder, SimPosition } from '../../../src/sim/index.ts';
import { startOrderProxy, type OrderProxy, type ProxyAction } from './harness.ts';

const X18 = 10n ** 18n;

/** One order request as the proxy received it. */
export interface OrderRequestSeen {
  readonly signature: string;
  readonly body: string;
  /** `expiryTs` of the signed body. */
  readonly expiryTs: number;
  /** When the proxy had the whole request (ms since the epoch), before forwarding it. */
  readonly at: number;
  readonly action: ProxyAction;
}

/** The harness's order proxy, with the arrival time and action of every order request. */
export interface RecordingOrderProxy {
  readonly proxy: OrderProxy;
  readonly url: string;
  /** Order requests in arrival order. */
  requests(): OrderRequestSeen[];
  /** How many order requests got each action. */
  actionCounts(): Record<ProxyAction, number>;
}

/** {@link startOrderProxy} that also notes when each order request arrived and what it got. */
export async function startRecordingOrderProxy(
  target: string,
  decide: (n: number) => ProxyAction,
): Promise<RecordingOrderProxy> {
  const arrivals: { at: number; action: ProxyAction }[] = [];
  const proxy = await startOrderProxy(target, (n) => {
    const at = Date.now();
    const action = decide(n);
    arrivals[n - 1] = { at, action };
    return action;
  });
  const requests = (): OrderRequestSeen[] =>
    proxy.orders.map((seen, i) => {
      const arrival = arrivals[i];
      if (arrival === undefined) throw new Error(`order request ${i + 1} has no arrival`);
      const { expiryTs } = JSON.parse(seen.body) as { expiryTs: number };
      return { ...seen, expiryTs, ...arrival };
    });
  return {
    proxy,
    url: proxy.url,
    requests,
    actionCounts: () => {
      const counts: Record<ProxyAction, number> = {
        forward: 0,
        fail: 0,
        'lose-answer': 0,
        'hold-after-forward': 0,
        hold: 0,
      };
      for (const request of requests()) counts[request.action] += 1;
      return counts;
    },
  };
}

/** Actions after which the venue received the request. */
const FORWARDED: ReadonlySet<ProxyAction> = new Set([
  'forward',
  'lose-answer',
  'hold-after-forward',
]);

const FINAL: ReadonlySet<string> = new Set([
  'ACCEPTED',
  'OPEN',
  'PARTIALLY_FILLED',
  'FILLED',
  'CANCELLED',
  'REJECTED',
  'EXPIRED',
  'UNKNOWN',
]);

/** Every order the venue's engine holds for `accountId`, in id (= arrival) order. */
export function allVenueOrders(venue: PaperVenue, accountId: string): SimOrder[] {
  // Engine ids run from 1 over all accounts, one per order request at most.
  const orders: SimOrder[] = [];
  const bound = venue.requestCount('/api/v1/order');
  for (let id = 1; id <= bound; id++) {
    const order = venue.engine.getOrder(accountId, id);
    if (order !== undefined) orders.push(order);
  }
  return orders;
}

const keyOf = (side: string, amountX18: bigint): string => `${side} ${amountX18}`;

/** Invariant 1, no duplicates: every venue order is one journal row's, no row has two. */
export function duplicateViolations(rows: readonly OrderRecord[], orders: readonly SimOrder[]) {
  const rowsByKey = new Map<string, OrderRecord[]>();
  for (const row of rows) {
    const key = keyOf(row.side, row.amountX18);
    rowsByKey.set(key, [...(rowsByKey.get(key) ?? []), row]);
  }
  // The strategies give every intent a unique amount: two rows with one amount would be an
  // intent journaled twice (e.g. emitted again after a restart).
  const rowsSharingAnAmount = [...rowsByKey.values()]
    .filter((same) => same.length > 1)
    .map((same) => same.map((r) => r.id));
  const signatures = new Map<string, number>();
  for (const row of rows) signatures.set(row.signature, (signatures.get(row.signature) ?? 0) + 1);
  const rowsSharingASignature = [...signatures].filter(([, n]) => n > 1).map(([s]) => s);
  const venueOrdersWithoutARow: number[] = [];
  const venueOrdersPerRow = new Map<number, number[]>();
  for (const order of orders) {
    const row = rowsByKey.get(keyOf(order.side, order.amountX18))?.[0];
    // The venue order's expiryTs is the signed body's: it names the very signature.
    if (row === undefined || row.expiryTs !== order.expiryTs) {
      venueOrdersWithoutARow.push(order.id);
      continue;
    }
    venueOrdersPerRow.set(row.id, [...(venueOrdersPerRow.get(row.id) ?? []), order.id]);
  }
  const rowsPlacedTwice = [...venueOrdersPerRow]
    .filter(([, ids]) => ids.length > 1)
    .map(([rowId, ids]) => ({ rowId, venueOrderIds: ids }));
  return { rowsSharingAnAmount, rowsSharingASignature, venueOrdersWithoutARow, rowsPlacedTwice };
}

/**
 * Invariant 2, no lost journaled orders: every row final and in agreement with the venue.
 * FILLED rows have their venue order (same id, filled amount); rows never sent, or whose every
 * request the proxy kept from the venue, have none, and so have REJECTED, CANCELLED and EXPIRED
 * rows; ACCEPTED rows (the venue had seen the signature) have one; UNKNOWN may or may not.
 */
export function lostOrderViolations(
  rows: readonly OrderRecord[],
  orders: readonly SimOrder[],
  requests: readonly OrderRequestSeen[],
) {
  const orderOf = new Map<string, SimOrder>();
  for (const order of orders)
    orderOf.set(`${keyOf(order.side, order.amountX18)} ${order.expiryTs}`, order);
  const forwarded = new Set(
    requests.filter((r) => FORWARDED.has(r.action)).map((r) => r.signature),
  );
  const requested = new Set(requests.map((r) => r.signature));
  const problems: string[] = [];
  for (const row of rows) {
    const order = orderOf.get(`${keyOf(row.side, row.amountX18)} ${row.expiryTs}`);
    const what = `row ${row.id} (${row.state}, ${row.attempts} attempts, venue order ${order?.id ?? 'none'})`;
    if (!FINAL.has(row.state)) problems.push(`${what}: not final`);
    if (row.state === 'FILLED') {
      if (order === undefined) problems.push(`${what}: FILLED but the venue holds no such order`);
      else if (
        order.status !== 'FILLED' ||
        order.totalFilledX18 !== row.filledX18 ||
        row.venueOrderId !== order.id
      )
        problems.push(
          `${what}: journal says FILLED ${row.filledX18} as ${row.venueOrderId}, venue ${order.status} ${order.totalFilledX18}`,
        );
    }
    if (row.state === 'ACCEPTED' && order === undefined)
      problems.push(`${what}: ACCEPTED (venue saw it) but the venue holds no such order`);
    if (order !== undefined) {
      if (row.attempts === 0 || !requested.has(row.signature))
        problems.push(`${what}: never sent, yet the venue holds it`);
      else if (!forwarded.has(row.signature))
        problems.push(`${what}: no request of it reached the venue, yet the venue holds it`);
      if (row.state === 'REJECTED' || row.state === 'CANCELLED' || row.state === 'EXPIRED')
        problems.push(`${what}: journaled ${row.state} but the venue holds (and filled) it`);
    }
  }
  return problems;
}

/** Invariant 3: order requests that arrived at (or after) the expiry in their signed body. */
export function lateRequests(requests: readonly OrderRequestSeen[]) {
  return requests
    .map((r, i) => ({ request: i + 1, lateByMs: r.at - r.expiryTs, action: r.action }))
    .filter((r) => r.lateByMs >= 0);
}

/** The smallest time any order request had left before its expiry when it arrived, in ms. */
export function tightestMarginMs(requests: readonly OrderRequestSeen[]): number {
  return Math.min(...requests.map((r) => r.expiryTs - r.at));
}

/** The venue's position in one market after each order, replayed from the engine's fills. */
export interface PositionPath {
  /** Largest |amount| × average entry over the whole path, quote units x18. */
  readonly maxNotionalX18: bigint;
  /** The venue order after which it was reached. */
  readonly atOrder: number | undefined;
  /** The end of the path: must equal the engine's own position. */
  readonly final: { amountX18: bigint; avgEntryPriceX18: bigint };
}

/**
 * Replays the engine's fills of `orders` (in id order, the order the engine made them) with the
 * engine ledger's position rule: open cost grows with fills that add to the position, shrinks
 * pro rata with fills that reduce it, and restarts at the fill price when the position flips.
 * Checks the path at every fill, not only at the end: a cap exceeded for a moment is exceeded.
 */
export function positionPath(orders: readonly SimOrder[], marketId: number): PositionPath {
  let amountX18 = 0n;
  let openCostX36 = 0n;
  let maxNotionalX18 = 0n;
  let atOrder: number | undefined;
  const abs = (v: bigint): bigint => (v < 0n ? -v : v);
  for (const order of [...orders].sort((a, b) => a.id - b.id)) {
    if (order.marketId !== marketId) continue;
    for (const fill of order.fills) {
      const signed = order.side === 'BUY' ? fill.amountX18 : -fill.amountX18;
      const notionalX36 = fill.amountX18 * fill.priceX18;
      if (amountX18 === 0n || amountX18 > 0n === signed > 0n) {
        openCostX36 += notionalX36;
      } else {
        const closed = abs(signed) < abs(amountX18) ? abs(signed) : abs(amountX18);
        openCostX36 -= (openCostX36 * closed) / abs(amountX18);
        const opened = abs(signed) - closed;
        if (opened > 0n) openCostX36 = opened * fill.priceX18;
      }
      amountX18 += signed;
      const notionalX18 = openCostX36 / X18;
      if (notionalX18 > maxNotionalX18) {
        maxNotionalX18 = notionalX18;
        atOrder = order.id;
      }
    }
  }
  return {
    maxNotionalX18,
    atOrder,
    final: { amountX18, avgEntryPriceX18: amountX18 === 0n ? 0n : openCostX36 / abs(amountX18) },
  };
}

/**
 * The cap, widened by how far prices moved between the checks and the fills. Risk values an
 * order at its reference price (best ask for a buy, best bid for a sell, in the snapshot it was
 * checked against), so a correct bot keeps |position| ≤ cap / (smallest reference price of any
 * order it let through); the venue books the position at its fill prices, at most the highest
 * fill price. The venue's notional can therefore reach cap × highest fill / lowest reference
 * without any limit being broken: the spread, the book levels walked and the price walk during
 * the run. Anything beyond that is exposure the bot let through.
 */
export function capWithPriceDrift(
  capX18: bigint,
  rows: readonly OrderRecord[],
  orders: readonly SimOrder[],
): { allowedX18: bigint; driftPpm: bigint } {
  const references = rows
    .map((r) => r.referencePriceX18)
    .filter((p): p is bigint => p !== null && p > 0n);
  const fills = orders.flatMap((o) => o.fills.map((f) => f.priceX18));
  if (references.length === 0 || fills.length === 0) return { allowedX18: capX18, driftPpm: 0n };
  const lowestReference = references.reduce((a, b) => (b < a ? b : a));
  const highestFill = fills.reduce((a, b) => (b > a ? b : a));
  const ratioPpm = (highestFill * 1_000_000n) / lowestReference;
  // Rounded up by one ppm, plus 1e-18 per fill for the ledger's floors.
  return {
    allowedX18: (capX18 * (ratioPpm + 1n)) / 1_000_000n + BigInt(fills.length),
    driftPpm: ratioPpm - 1_000_000n,
  };
}

/** The engine's position, for comparing with the replayed path's end. */
export function positionOf(position: SimPosition): { amountX18: bigint; avgEntryPriceX18: bigint } {
  return { amountX18: position.amountX18, avgEntryPriceX18: position.avgEntryPriceX18 };
}
