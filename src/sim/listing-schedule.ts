/** A market turned on or off at a time. */
export interface ActivityChange {
  readonly marketId: number;
  readonly active: boolean;
  readonly atMs: number;
}

/** The listings and delistings still to come, in time order. */
export class ListingSchedule {
  readonly #changes: ActivityChange[] = [];

  add(change: ActivityChange): void {
    // Stable by time: changes at the same instant apply in the order they were asked for.
    const index = this.#changes.findIndex((c) => c.atMs > change.atMs);
    if (index === -1) this.#changes.push(change);
    else this.#changes.splice(index, 0, change);
  }

  /** Hands each change due by `atMs` to `apply`, oldest first, and forgets it. */
  applyUntil(atMs: number, apply: (change: ActivityChange) => void): void {
    while (this.#changes.length > 0 && (this.#changes[0]?.atMs ?? Infinity) <= atMs) {
      const change = this.#changes.shift();
      if (change !== undefined) apply(change);
    }
  }
}
