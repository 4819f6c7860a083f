/**
 * "The next time X happens", as a promise: `next()` gives one promise per occurrence (every
 * caller until it happens shares it), `fire()` resolves it. Nothing is kept once fired.
 */
export class NextEvent {
  #pending: { readonly promise: Promise<void>; readonly resolve: () => void } | undefined;

  /** Resolves the next time {@link fire} is called. */
  next(): Promise<void> {
    if (this.#pending === undefined) {
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.#pending = { promise, resolve };
    }
    return this.#pending.promise;
  }

  /** Resolves what {@link next} gave out so far (nothing when nobody asked). */
  fire(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.resolve();
  }
}
