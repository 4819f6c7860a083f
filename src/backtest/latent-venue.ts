import { NextEvent } from '../execution/next-event.ts';
import type { Market, Quote } from '../domain/index.ts';
import type { SimEngine } from '../sim/index.ts';
import type { VenueOrder } from '../venue/types.ts';
import type { OrderLookup, SignedOrderRequest, VenueClient } from '../venue/venue-client.ts';
import { placeSignedOrder, simVenueClient, simVenueError } from './sim-venue.ts';

/** An order on its way to the venue: sent, not yet arrived. */
interface InFlight {
  readonly request: SignedOrderRequest;
  /** Index (0-based, in replay order) of the snapshot being processed when it was sent. */
  readonly sentAtIndex: number;
  /** Virtual time it was sent. */
  readonly sentAt: number;
  readonly resolve: (order: VenueOrder) => void;
  readonly reject: (error: Error) => void;
  /** With per-order latencies: when it reaches the venue, once known (at the next snapshot). */
  arrivesAt?: number;
}

/**
 * The latency of one order (ms), sent at a snapshot taken at `sentAt`; `before` is the time of
 * the next snapshot (Infinity after the last).
 */
export type OrderLatency = (request: SignedOrderRequest, sentAt: number, before: number) => number;

/** Where the replay stands: the snapshot being processed and its time. */
export interface ReplayPosition {
  readonly index: number;
  readonly takenAt: number;
}

/**
 * The backtest venue with the fill model's latency. An order sent while snapshot `i` is being
 * processed reaches the engine when the replay reaches the first snapshot taken at or after send
 * time + `latencyMs` (with `latencyMs` null: snapshot `i + 1`), and meets that snapshot's book.
 * Only `latencyMs: 0` places it at once, against the book that produced it. Until it arrives the
 * executor waits for the answer exactly as it waits on a live venue (the order stays SENT).
 *
 * With `latencyOf` (per-order latencies, measured by a live run) an order instead arrives at send
 * time + its own latency and meets the book of the last snapshot taken at or before then: the
 * book the venue most likely held (`arriveBefore`).
 *
 * Markets, quotes and lookups are the engine's at once ({@link simVenueClient}).
 */
export class LatentVenue implements VenueClient {
  readonly #engine: SimEngine;
  readonly #accountId: string;
  readonly #latencyMs: number | null;
  readonly #position: () => ReplayPosition;
  readonly #latencyOf: OrderLatency | undefined;
  readonly #inFlight: InFlight[] = [];
  readonly #reads: VenueClient;
  /** An order started its way to the venue. */
  readonly #parked = new NextEvent();
  #ended = false;

  /**
   * @param position - the replay's current snapshot (read when an order is sent).
   */
  constructor(options: {
    readonly engine: SimEngine;
    readonly accountId: string;
    readonly latencyMs: number | null;
    readonly position: () => ReplayPosition;
    readonly latencyOf?: OrderLatency;
  }) {
    this.#engine = options.engine;
    this.#accountId = options.accountId;
    this.#latencyMs = options.latencyMs;
    this.#position = options.position;
    this.#latencyOf = options.latencyOf;
    this.#reads = simVenueClient(options.engine, options.accountId);
  }

  /** The engine's (which refuses it: a backtest's account needs no credentials). */
  register(...args: Parameters<VenueClient['register']>): ReturnType<VenueClient['register']> {
    return this.#reads.register(...args);
  }

  /** Orders sent and not yet arrived. */
  get inFlight(): number {
    return this.#inFlight.length;
  }

  /** Resolves when the next order is sent and starts its way ({@link inFlight} grows by one). */
  nextInFlight(): Promise<void> {
    return this.#parked.next();
  }

  listMarkets(signal: AbortSignal): Promise<Market[]> {
    return this.#reads.listMarkets(signal);
  }

  getQuotes(signal: AbortSignal, marketId?: number): Promise<Quote[] | undefined> {
    return this.#reads.getQuotes(signal, marketId);
  }

  readonly getOrder: OrderLookup = (venueOrderId, signal) =>
    this.#reads.getOrder(venueOrderId, signal);

  /** Places the order now (latency 0), or parks it until the replay reaches its arrival. */
  createOrder(request: SignedOrderRequest): Promise<VenueOrder> {
    if (this.#ended) return Promise.reject(this.#endedError());
    if (this.#latencyMs === 0 && this.#latencyOf === undefined) {
      try {
        return Promise.resolve(placeSignedOrder(this.#engine, this.#accountId, request));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    const { index, takenAt } = this.#position();
    return new Promise<VenueOrder>((resolve, reject) => {
      this.#inFlight.push({ request, sentAtIndex: index, sentAt: takenAt, resolve, reject });
      this.#parked.fire();
    });
  }

  #due(order: InFlight, at: ReplayPosition): boolean {
    if (this.#latencyMs === null) return at.index > order.sentAtIndex;
    return at.takenAt >= order.sentAt + this.#latencyMs && at.index > order.sentAtIndex;
  }

  /**
   * Places, in the order they were sent, every order due at the replay's current snapshot (the
   * engine already holds that snapshot's book), and answers their senders.
   *
   * @returns how many arrived.
   */
  arrive(): number {
    if (this.#latencyOf !== undefined) return 0;
    const at = this.#position();
    let arrived = 0;
    // Sent in order and due in order (one latency for all): the due ones are a prefix.
    while (this.#inFlight.length > 0) {
      const order = this.#inFlight[0] as InFlight;
      if (!this.#due(order, at)) break;
      this.#inFlight.shift();
      arrived += 1;
      try {
        order.resolve(placeSignedOrder(this.#engine, this.#accountId, order.request));
      } catch (error) {
        order.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    return arrived;
  }

  /**
   * With per-order latencies: places the earliest order that reaches the venue before `before`
   * (the time of the snapshot about to replace the engine's book, Infinity at the end), telling
   * `onArrival` its arrival time first, and answers its sender.
   *
   * @returns whether one arrived (call again, after settling, until none does).
   */
  arriveBefore(before: number, onArrival: (arrivedAt: number) => void): boolean {
    const latencyOf = this.#latencyOf;
    if (latencyOf === undefined) return false;
    let next: InFlight | undefined;
    for (const order of this.#inFlight) {
      order.arrivesAt ??= order.sentAt + latencyOf(order.request, order.sentAt, before);
      if (
        order.arrivesAt < before &&
        (next === undefined || order.arrivesAt < (next.arrivesAt ?? 0))
      )
        next = order;
    }
    if (next === undefined) return false;
    this.#inFlight.splice(this.#inFlight.indexOf(next), 1);
    onArrival(next.arrivesAt ?? next.sentAt);
    try {
      next.resolve(placeSignedOrder(this.#engine, this.#accountId, next.request));
    } catch (error) {
      next.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return true;
  }

  /**
   * The recording ended: orders still on their way never reach a book, and are refused (the
   * journal shows them REJECTED with the reason); later sends too.
   */
  end(): void {
    this.#ended = true;
    for (const order of this.#inFlight.splice(0)) order.reject(this.#endedError());
  }

  #endedError(): Error {
    return simVenueError('the recording ended before this order reached the venue');
  }
}
