import type { OrderSide } from '../domain/index.ts';
import type { OrderRecord } from './order-record.ts';

type Exposure = Pick<OrderRecord, 'marketId' | 'side' | 'amountX18'>;

const exposureKey = (marketId: number, side: OrderSide): string => `${marketId}:${side}`;

/**
 * What may trade without the portfolio knowing yet: orders in flight (signed and counted from
 * the moment they are accepted until their send ends), orders whose outcome is unknown
 * (UNKNOWN, or ACCEPTED with its fill unknown) each at its full size until a lookup resolves it
 * (docs/design.md §4 rule 6), and the unfilled rest of resting LIMIT orders. Risk checks count
 * it on the side of a new order.
 */
export class ExposureBook {
  /** The journal's resting orders (OPEN/PARTIAL), read when a check asks. */
  readonly #resting: () => readonly OrderRecord[];
  /** Amounts of orders sent but not yet answered, per market and side. */
  readonly #inFlight = new Map<string, bigint>();
  /** Orders of unknown outcome, by id. */
  readonly #unresolved = new Map<number, OrderRecord>();

  /** @param resting - the journal's resting orders (OPEN/PARTIAL). */
  constructor(resting: () => readonly OrderRecord[]) {
    this.#resting = resting;
  }

  /** Counts `order` in flight. */
  hold(order: Exposure): void {
    const key = exposureKey(order.marketId, order.side);
    this.#inFlight.set(key, (this.#inFlight.get(key) ?? 0n) + order.amountX18);
  }

  /** Stops counting `order` in flight (its send ended, or its batch was not journaled). */
  release(order: Exposure): void {
    const key = exposureKey(order.marketId, order.side);
    this.#inFlight.set(key, (this.#inFlight.get(key) ?? 0n) - order.amountX18);
  }

  /** Counts `record`, whose outcome is unknown, at its full size until {@link resolved}. */
  unresolved(record: OrderRecord): void {
    this.#unresolved.set(record.id, record);
  }

  /** The venue told what became of order `id`: no longer counted at full size. */
  resolved(id: number): void {
    this.#unresolved.delete(id);
  }

  /** Orders of unknown outcome. */
  get unresolvedCount(): number {
    return this.#unresolved.size;
  }

  /** Orders of unknown outcome (a lookup by venue id or signature may resolve them). */
  unresolvedRecords(): IterableIterator<OrderRecord> {
    return this.#unresolved.values();
  }

  /**
   * The signed amount pending in `marketId` on `side`: in flight, unknown outcomes at their full
   * size, and the unfilled rest of resting LIMIT orders (they fill whenever the market comes to
   * them: issue 31's simulation saw two resting sells fill after market sells had used the
   * room, past the cap). Only the same side counts: a pending order on the other side may never
   * fill, so it must not make room.
   */
  pendingX18(marketId: number, side: OrderSide): bigint {
    let total = this.#inFlight.get(exposureKey(marketId, side)) ?? 0n;
    for (const record of this.#unresolved.values())
      if (record.marketId === marketId && record.side === side) total += record.amountX18;
    for (const record of this.#resting())
      if (record.marketId === marketId && record.side === side)
        total += record.amountX18 - record.filledX18;
    return side === 'BUY' ? total : -total;
  }
}
