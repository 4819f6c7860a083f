/**
 * "The next time X happens", as a promise: `next()` gives one promise per occurrence (every
 * caller until it happens shares it), `fire()` resolves it. Nothing is kept once fired.
 */
export class NextEvent {
  #promise: Promise<void> | undefined;
  #resolve: (() => void) | undefined;

  /** Resolves the next time {@link fire} is called. */
  next(): Promise<void> {
    // The promise's own resolver is kept: no placeholder function and no pair object per
    // occurrence (one a backtest order, or more).
    this.#promise ??= new Promise<void>((done) => {
      this.#resolve = done;
    });
    return this.#promise;
  }

  /** Resolves what {@link next} gave out so far (nothing when nobody asked). */
  fire(): void {
    const resolve = this.#resolve;
    this.#promise = undefined;
    this.#resolve = undefined;
    resolve?.();
  }
}
