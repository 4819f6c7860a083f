import { createHash, type Hash } from 'node:crypto';

/** How many of the latest events a violation report shows. */
const KEPT = 40;
/** Event text gathered before it is hashed (one hash update per chunk, not per event). */
const CHUNK_CHARS = 64 * 1024;

/**
 * What happened in one schedule, in order: hashed as it goes (the trace hash names a run: the
 * same seed gives the same hash) and the latest events kept for a violation's report.
 */
export class Trace {
  readonly #hash: Hash = createHash('sha256');
  /** Lines not hashed yet: the hash of the concatenation is the same however it is cut. */
  #pending = '';
  /** The latest events, a ring: `#next` is where the next one goes. */
  readonly #latest: string[] = [];
  #next = 0;
  #events = 0;
  readonly #listener: ((line: string) => void) | undefined;

  /** @param listener - told each event as it is added (tests read a whole trace through it). */
  constructor(listener?: (line: string) => void) {
    this.#listener = listener;
  }

  /** Records one event at virtual time `at` (ms). */
  add(at: number, event: string): void {
    const line = `${at} ${event}`;
    this.#pending += `${line}\n`;
    if (this.#pending.length >= CHUNK_CHARS) this.#flush();
    this.#events += 1;
    if (this.#latest.length < KEPT) this.#latest.push(line);
    else this.#latest[this.#next] = line;
    this.#next = (this.#next + 1) % KEPT;
    this.#listener?.(line);
  }

  #flush(): void {
    this.#hash.update(this.#pending);
    this.#pending = '';
  }

  get events(): number {
    return this.#events;
  }

  /** The latest events, oldest first. */
  latest(): readonly string[] {
    if (this.#latest.length < KEPT) return [...this.#latest];
    return [...this.#latest.slice(this.#next), ...this.#latest.slice(0, this.#next)];
  }

  /** The hash of every event so far (hex, 16 characters). */
  digest(): string {
    this.#flush();
    return this.#hash.copy().digest('hex').slice(0, 16);
  }
}
