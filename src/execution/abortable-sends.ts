/**
 * The sends a dispatcher runs outside its queue (no concurrency limit: backtests), each given up
 * with the abort's reason once a drain aborts: what p-queue does for a running task (a drain must
 * not wait on a send in progress). One abort listener for all of them, rejecting in the order
 * they started: a listener added and removed per send was a few microseconds of every backtest
 * order.
 */
export class AbortableSends {
  readonly #signal: AbortSignal;
  readonly #rejects = new Set<(reason: Error) => void>();

  constructor(signal: AbortSignal) {
    this.#signal = signal;
    signal.addEventListener(
      'abort',
      () => {
        for (const reject of this.#rejects) reject(signal.reason as Error);
      },
      { once: true },
    );
  }

  /** `work`, or the abort's reason once the signal aborts first. */
  run<T>(work: Promise<T>): Promise<T> {
    const signal = this.#signal;
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<T>((resolve, reject) => {
      this.#rejects.add(reject);
      work.then(resolve, reject).finally(() => this.#rejects.delete(reject));
    });
  }
}
