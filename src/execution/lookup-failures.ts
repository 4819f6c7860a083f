import { ErrorCodes, isQuantaError, summarizeError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';

/** The first wait before the lookup by signature is asked again after the venue refused it. */
const FIND_BACKOFF_FIRST_MS = 60_000;
/** The longest such wait (it doubles up to this). */
const FIND_BACKOFF_MAX_MS = 3_600_000;

/**
 * Order lookups that failed (executor's `refreshOpenOrders`), so that a failure is one log line
 * per event, not one per order per poll: every failure is counted; a run of failures is logged
 * when it starts and when lookups answer again. A venue that refuses the lookup by signature
 * (docs/conventions.md §6: a 4xx such as 405 from a venue without it) will refuse it every
 * time: it is logged once and not asked again for a minute, then for twice as long after each
 * refusal, up to an hour. The orders it would have resolved stay unresolved meanwhile, counted
 * at full size against the limits.
 */
export class LookupFailures {
  readonly #monotonic: () => number;
  readonly #log: Logger;
  #count = 0;
  /** Failures since lookups last answered (0: none failing). */
  #run = 0;
  #findRefusals = 0;
  #findAfter = 0;

  constructor(options: { readonly monotonic: () => number; readonly log: Logger }) {
    this.#monotonic = options.monotonic;
    this.#log = options.log;
  }

  /** Failed lookups since start. */
  get count(): number {
    return this.#count;
  }

  /** Whether the lookup by signature may be asked now (not while backing off a refusal). */
  mayFind(): boolean {
    return this.#monotonic() >= this.#findAfter;
  }

  /** A lookup answered (found or not): a run of failures, if any, ends. */
  answered(): void {
    if (this.#run === 0) return;
    this.#log.info({ failed: this.#run }, `order lookups answer again after ${this.#run} failed`);
    this.#run = 0;
  }

  /** A lookup of `orderId` failed; `bySignature`: it was the lookup by signature. */
  failed(orderId: number, bySignature: boolean, error: unknown): void {
    this.#count += 1;
    if (bySignature && isQuantaError(error, ErrorCodes.VENUE_REJECTED)) {
      this.#refusedFind(orderId, error);
      return;
    }
    this.#run += 1;
    if (this.#run > 1) return;
    this.#log.warn(
      { orderId, err: summarizeError(error) },
      'order lookup failed; lookups are tried again each poll (counted, logged again when they answer)',
    );
  }

  #refusedFind(orderId: number, error: unknown): void {
    const waitMs = Math.min(FIND_BACKOFF_FIRST_MS * 2 ** this.#findRefusals, FIND_BACKOFF_MAX_MS);
    this.#findAfter = this.#monotonic() + waitMs;
    this.#findRefusals += 1;
    if (this.#findRefusals > 1) return;
    this.#log.warn(
      { orderId, err: summarizeError(error), retryInMs: waitMs },
      'the venue refused the order lookup by signature (docs/conventions.md §6): orders whose answer was lost stay unresolved, counted at full size against the limits; asked again after a backoff (a minute, doubling up to an hour)',
    );
  }
}
