const DAY_MS = 86_400_000;
/** The largest |ms| a Date holds (ECMA-262 time values: ±8.64e15). */
const MAX_TIME_MS = 8.64e15;

/**
 * ISO timestamps of engine times, the last one kept: a replay places its orders and books their
 * fills at one time, and formatting a Date is most of what booking a fill costs. Each engine owns
 * one (no state at module level), so two engines in one process share nothing.
 */
export class IsoTimestamps {
  #ms = Number.NaN;
  #text = '';
  // The UTC day of the last time formatted, and its text up to the `T` (Date's own): a replay's
  // orders fall on a few days, and their times of day are written out here (toISOString took
  // some microseconds per order).
  #day = Number.NaN;
  #dayText = '';

  /** `ms` since the epoch as an ISO 8601 UTC timestamp with milliseconds (`toISOString`'s). */
  of(ms: number): string {
    if (ms !== this.#ms) {
      this.#text = this.#format(ms);
      this.#ms = ms;
    }
    return this.#text;
  }

  #format(ms: number): string {
    // Beyond a Date's range, or not a whole ms: Date says what it says (a RangeError, rounding).
    if (!Number.isInteger(ms) || Math.abs(ms) > MAX_TIME_MS) return new Date(ms).toISOString();
    const day = Math.floor(ms / DAY_MS);
    if (day !== this.#day) {
      const text = new Date(day * DAY_MS).toISOString();
      this.#dayText = text.slice(0, text.indexOf('T') + 1);
      this.#day = day;
    }
    const inDay = ms - day * DAY_MS;
    const hours = Math.floor(inDay / 3_600_000);
    const minutes = Math.floor(inDay / 60_000) % 60;
    const seconds = Math.floor(inDay / 1000) % 60;
    const millis = inDay % 1000;
    return `${this.#dayText}${two(hours)}:${two(minutes)}:${two(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
  }
}

function two(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}
