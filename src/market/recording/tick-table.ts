/**
 * Values made from ticks of a `10^-expo` grid, the ones made last kept: one slot per tick modulo
 * `2^bits`, per grid, a new tick taking its slot. A book's prices come back snapshot after
 * snapshot (its levels a few ticks apart, moving a few ticks), so what is made of them (their
 * text, their x18 value) is mostly there already; what is kept is bounded (`2^bits` a grid).
 */
export class TickTable<T> {
  readonly #mask: number;
  // Per grid, the ticks whose values are kept (NaN: none yet) and those values.
  readonly #ticks: (Float64Array | undefined)[] = [];
  readonly #values: T[][] = [];

  /**
   * @param bits - log2 of the slots per grid.
   * @param empty - what an empty slot holds (never returned).
   * @param make - the value of `ticks` on grid `expo`; called on a miss only.
   */
  constructor(
    bits: number,
    private readonly empty: T,
    private readonly make: (ticks: number, expo: number) => T,
  ) {
    this.#mask = (1 << bits) - 1;
  }

  /** `make(ticks, expo)`, or the equal value made for the same ticks before. */
  get(ticks: number, expo: number): T {
    let kept = this.#ticks[expo];
    if (kept === undefined) {
      kept = this.#ticks[expo] = new Float64Array(this.#mask + 1).fill(Number.NaN);
      this.#values[expo] = new Array<T>(this.#mask + 1).fill(this.empty);
    }
    const values = this.#values[expo] as T[];
    const slot = ticks & this.#mask;
    if (kept[slot] === ticks) return values[slot] as T;
    const value = this.make(ticks, expo);
    kept[slot] = ticks;
    values[slot] = value;
    return value;
  }
}
