/** One taken slot: free again at `freeAt` (ms), `Infinity` while its request is in flight. */
export interface Slot {
  freeAt: number;
}

/**
 * The slots a process holds in a rate window. A slot is taken when a request may start and is
 * held until a time set after its answer; `used(now)` forgets the slots whose time has come.
 * Pure bookkeeping: the clock is the caller's.
 */
export class SlotWindow {
  readonly #held = new Set<Slot>();

  /** Slots still held at `now` (in flight, or held after their answer). */
  used(now: number): number {
    for (const slot of this.#held) if (slot.freeAt <= now) this.#held.delete(slot);
    return this.#held.size;
  }

  /** The earliest time a held slot frees, `Infinity` when none will without an answer. */
  nextFreeAt(): number {
    let next = Infinity;
    for (const slot of this.#held) if (slot.freeAt < next) next = slot.freeAt;
    return next;
  }

  /** Takes a slot for a request about to start. */
  take(): Slot {
    const slot: Slot = { freeAt: Infinity };
    this.#held.add(slot);
    return slot;
  }

  /** Counts a slot taken elsewhere (the shared window) against this window too. */
  adopt(slot: Slot): void {
    this.#held.add(slot);
  }

  /** Holds `slot` until `until` (after its request's answer). */
  hold(slot: Slot, until: number): void {
    slot.freeAt = until;
  }

  /** Gives `slot` back at once (its request never left). */
  drop(slot: Slot): void {
    slot.freeAt = 0;
    this.#held.delete(slot);
  }

  /** The held slots (to carry them into another window). */
  slots(): readonly Slot[] {
    return [...this.#held];
  }
}
