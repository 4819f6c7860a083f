import { createHash, type Hash } from 'node:crypto';

/** How many of the latest events a violation report shows. */
const KEPT = 40;

/**
 * What happened in one schedule, in order: hashed as it goes (the trace hash names a run: the
 * same seed gives the same hash) and the latest events kept for a violation's report.
 */
export class Trace {
  readonly #hash: Hash = createHash('sha256');
  readonly #latest: string[] = [];
  #events = 0;
  readonly #listener: ((line: string) => void) | undefined;

  /** @param listener - told each event as it is added (tests read a whole trace through it). */
  constructor(listener?: (line: string) => void) {
    this.#listener = listener;
  }

  /** Records one event at virtual time `at` (ms). */
  add(at: number, event: string): void {
    const line = `${at} ${event}`;
    this.#hash.update(line);
    this.#hash.update('\n');
    this.#events += 1;
    this.#latest.push(line);
    if (this.#latest.length > KEPT) this.#latest.shift();
    this.#listener?.(line);
  }

  get events(): number {
    return this.#events;
  }

  /** The latest events, oldest first. */
  latest(): readonly string[] {
    return [...this.#latest];
  }

  /** The hash of every event so far (hex, 16 characters). */
  digest(): string {
    return this.#hash.copy().digest('hex').slice(0, 16);
  }
}
