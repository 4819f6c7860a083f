import { summarizeError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';
import { formatX18 } from '../money/index.ts';
import { NextEvent } from './next-event.ts';
import type { OrderRecord } from './order-record.ts';

/**
 * The executor's sends that continue in the background after `submitAll` returns: each is
 * tracked until it has finished (its answer booked), so shutdown and backtests can wait for
 * them, and a failure of its bookkeeping is logged, never left floating.
 */
export class SendTracker {
  readonly #log: Logger;
  readonly #running = new Set<Promise<unknown>>();
  /** A tracked send finished: what settleAllBut waits on. */
  readonly #finished = new NextEvent();

  constructor(log: Logger) {
    this.#log = log;
  }

  /** Tracks `work` until it ends; a failure is logged (the send's bookkeeping failed). */
  track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => {
      this.#log.error({ err: summarizeError(error) }, 'order bookkeeping failed');
    });
    this.#running.add(tracked);
    void tracked.finally(() => {
      this.#running.delete(tracked);
      this.#finished.fire();
    });
  }

  /** Resolves once every send started so far has finished. */
  async settle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /** See `Executor.settleAllBut`. */
  async settleAllBut(waiting: () => number, waitingGrew: () => Promise<unknown>): Promise<void> {
    while (this.#running.size > waiting()) {
      await Promise.race([this.#finished.next(), waitingGrew()]);
    }
  }
}

/** The line of an order journaled and handed to the dispatcher. */
export function logSent(log: Logger, record: OrderRecord): void {
  const amount = formatX18(record.amountX18);
  log.info(
    {
      orderId: record.id,
      strategy: record.strategy,
      symbol: record.symbol,
      side: record.side,
      type: record.type,
      amount,
      // A MARKET order has no price of its own (0 in its body): the best quote it was sent at.
      ...(record.type === 'MARKET'
        ? {
            referencePrice:
              record.referencePriceX18 === null ? null : formatX18(record.referencePriceX18),
          }
        : { price: formatX18(record.priceX18) }),
      tag: record.tag,
    },
    `order ${record.id}: ${record.side} ${amount} ${record.symbol} ${record.type}`,
  );
}
