import { isRestingState, transition } from '../domain/index.ts';
import { takeLiquidity, type Book } from './book-level.ts';
import { fillOrder, settledEvent, type BookedOrder } from './booked-order.ts';
import type { IsoTimestamps } from './iso-time.ts';
import type { AccountLedger } from './ledger.ts';

// Resting orders meet the book best price first, then oldest first.
function restingPriority(a: BookedOrder, b: BookedOrder): number {
  if (a.side !== b.side) return a.side === 'BUY' ? -1 : 1;
  if (a.priceX18 !== b.priceX18) {
    const better = a.side === 'BUY' ? a.priceX18 > b.priceX18 : a.priceX18 < b.priceX18;
    return better ? -1 : 1;
  }
  return a.id - b.id;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/**
 * The OPEN and PARTIALLY_FILLED orders, in id order (a Map keeps insertion order): how they
 * fill when the book crosses them (at their own limit price, as makers), expire and are cancelled.
 */
export class RestingOrders {
  readonly #orders = new Map<number, BookedOrder>();
  readonly #iso: IsoTimestamps;

  constructor(iso: IsoTimestamps) {
    this.#iso = iso;
  }

  get size(): number {
    return this.#orders.size;
  }

  /** The account's resting orders, oldest first. */
  ofAccount(accountId: string): BookedOrder[] {
    return [...this.#orders.values()].filter((o) => o.accountId === accountId);
  }

  /**
   * Moves the order on after placement or fills (what the venue would report now); puts a LIMIT
   * order that can still fill on (or keeps it on) the book.
   */
  settle(order: BookedOrder): void {
    order.status = transition(order.status, settledEvent(order));
    if (isRestingState(order.status)) this.#orders.set(order.id, order);
    else this.#orders.delete(order.id);
  }

  /** Cancels every resting order whose expiry is at or before `atMs`, as of its expiry. */
  expireUntil(atMs: number): void {
    for (const order of this.#orders.values()) {
      if (order.expiryTs > atMs) continue;
      // The venue reports an order that reached its expiry as CANCELLED (docs/conventions.md §4.5), and
      // the engine is the venue: EXPIRED is the bot's word for an order that never got there.
      this.#cancel(order, order.expiryTs);
    }
  }

  /** Cancels every resting order of the account at `at` (a liquidation). */
  cancelAccount(accountId: string, at: number): void {
    for (const order of this.#orders.values()) {
      if (order.accountId === accountId) this.#cancel(order, at);
    }
  }

  /**
   * Fills the market's resting orders that `book` crosses now, best price first then oldest,
   * each at its own limit price as maker. A reduce-only order with nothing left to reduce is
   * cancelled. `book` is read only when the market has a resting order.
   */
  match(
    marketId: number,
    book: () => Book,
    ledgerOf: (accountId: string) => AccountLedger,
    at: number,
  ): void {
    const orders: BookedOrder[] = [];
    for (const order of this.#orders.values()) if (order.market.id === marketId) orders.push(order);
    if (orders.length === 0) return;
    orders.sort(restingPriority);
    const taken = book();
    for (const order of orders) {
      let want = order.capacityX18 - order.totalFilledX18;
      const ledger = ledgerOf(order.accountId);
      if (order.isReduce) {
        const reducible = ledger.reducibleX18(marketId, order.side);
        if (reducible === 0n) {
          // Nothing left to reduce: the rest of a reduce-only order can never fill.
          this.#cancel(order, at);
          continue;
        }
        want = min(want, reducible);
      }
      let amountX18 = 0n;
      for (const take of takeLiquidity(taken, order.side, want, order.priceX18))
        amountX18 += take.amountX18;
      if (amountX18 === 0n) continue;
      const atIso = this.#iso.of(at);
      fillOrder(order, ledger, {
        amountX18,
        priceX18: order.priceX18,
        liquidity: 'MAKER',
        at,
        atIso,
      });
      this.settle(order);
    }
  }

  #cancel(order: BookedOrder, at: number): void {
    order.status = transition(order.status, 'cancelled');
    order.updatedAt = this.#iso.of(at);
    this.#orders.delete(order.id);
  }
}
