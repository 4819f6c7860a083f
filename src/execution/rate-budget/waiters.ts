import type { Permit } from './rate-budget.ts';

interface Waiter {
  readonly resolve: (permit: Permit) => void;
  readonly reject: (reason: unknown) => void;
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
}

/**
 * Requests waiting for a permit: orders first, then lookups, each in arrival order. A waiter
 * whose signal aborts leaves the line and rejects with the signal's reason.
 */
export class Waiters {
  readonly #orders: Waiter[] = [];
  readonly #lookups: Waiter[] = [];

  get size(): number {
    return this.#orders.length + this.#lookups.length;
  }

  /** Whether an order is waiting (polls and lookups then yield to it). */
  get ordersWaiting(): boolean {
    return this.#orders.length > 0;
  }

  /** The kind of the first in line. */
  get headKind(): 'order' | 'lookup' | undefined {
    if (this.#orders.length > 0) return 'order';
    return this.#lookups.length > 0 ? 'lookup' : undefined;
  }

  /** Joins the line; resolves when {@link grant} reaches it. */
  enqueue(kind: 'order' | 'lookup', signal: AbortSignal): Promise<Permit> {
    const line = kind === 'order' ? this.#orders : this.#lookups;
    return new Promise<Permit>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const at = line.indexOf(waiter);
          if (at >= 0) line.splice(at, 1);
          reject(signal.reason as Error);
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      line.push(waiter);
    });
  }

  /** Gives `permit` to the first in line; false when nobody waits. */
  grant(permit: Permit): boolean {
    const waiter = this.#orders.shift() ?? this.#lookups.shift();
    if (waiter === undefined) return false;
    waiter.signal.removeEventListener('abort', waiter.onAbort);
    waiter.resolve(permit);
    return true;
  }

  /** Rejects everyone (the budget closes). */
  rejectAll(reason: unknown): void {
    for (const waiter of [...this.#orders.splice(0), ...this.#lookups.splice(0)]) {
      waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.reject(reason);
    }
  }
}
