/**
 * ISO timestamps of engine times, the last one kept: a replay places its orders and books their
 * fills at one time, and formatting a Date is most of what booking a fill costs. Each engine owns
 * one (no state at module level), so two engines in one process share nothing.
 */
export class IsoTimestamps {
  #ms = Number.NaN;
  #text = '';

  /** `ms` since the epoch as an ISO 8601 UTC timestamp with milliseconds. */
  of(ms: number): string {
    if (ms !== this.#ms) {
      this.#text = new Date(ms).toISOString();
      this.#ms = ms;
    }
    return this.#text;
  }
}
