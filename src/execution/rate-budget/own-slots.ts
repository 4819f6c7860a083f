/** One of this process's slots: in flight (`Infinity`) or held until `freeAt` after its answer. */
export interface OwnSlot {
  freeAt: number;
}

/**
 * The slots this process holds, by their member name in the shared window: what it counts
 * against its share in a fallback, what its lease renewals cover, and what it carries back into
 * Redis when Redis answers again.
 */
export class OwnSlots {
  readonly #slots = new Map<string, OwnSlot>();

  /** A new slot, in flight until its `freeAt` is set. */
  add(member: string): OwnSlot {
    const slot: OwnSlot = { freeAt: Infinity };
    this.#slots.set(member, slot);
    return slot;
  }

  /** A slot whose request never left: free at once. */
  remove(member: string): void {
    this.#slots.delete(member);
  }

  /** Slots held at `now` (those freed by then are forgotten). */
  used(now: number): number {
    for (const [member, slot] of this.#slots) if (slot.freeAt <= now) this.#slots.delete(member);
    return this.#slots.size;
  }

  /** When the first held slot frees (`Infinity`: none will without an answer). */
  nextFreeAt(): number {
    let next = Infinity;
    for (const slot of this.#slots.values()) next = Math.min(next, slot.freeAt);
    return next;
  }

  /** `member, leaseMs` pairs of the slots in flight: their leases renewed. */
  leases(leaseMs: number): (string | number)[] {
    const pairs: (string | number)[] = [];
    for (const [member, slot] of this.#slots) {
      if (slot.freeAt === Infinity) pairs.push(member, leaseMs);
    }
    return pairs;
  }

  /**
   * `member, ms` pairs of every slot held at `now`, to carry into Redis: in flight for a lease,
   * answered for what is left of it, in whole ms rounded up (held no shorter than here). The
   * clock is `performance.now()`: a fraction made HOLD_LUA's PEXPIRE fail ('value is not an
   * integer'), and so every probe while an answered slot was held.
   */
  carried(now: number, leaseMs: number): (string | number)[] {
    this.used(now);
    const pairs: (string | number)[] = [];
    for (const [member, slot] of this.#slots) {
      pairs.push(member, slot.freeAt === Infinity ? leaseMs : Math.ceil(slot.freeAt - now));
    }
    return pairs;
  }
}
