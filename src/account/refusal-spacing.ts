/** The venue refused a key's credentials (see `CredentialManager.refused`). */
export interface CredentialRefusal {
  /** The refused signing key's address (public). */
  readonly signer: string;
  /** Whether it was the newest key: then no order can be signed until a new one registers. */
  readonly newest: boolean;
  /** When the newest: how long until a new key is registered (0: at the next poll). */
  readonly waitMs: number;
  /** When the newest: refusals of new keys in a row, this one included. */
  readonly inARow: number;
  /**
   * Why no order can be signed after this refusal (`CredentialManager.signingRefusal`);
   * undefined when the newest key still signs (an earlier key was refused, the newest not).
   */
  readonly signingRefusal: string | undefined;
  /**
   * Whether a new key's registration was under way when the refusal came (a renewal near
   * expiry): the next key is then on its way already; `waitMs` applies if that one fails.
   */
  readonly registering: boolean;
}

/** What to check when the venue refuses key after key. */
export const REFUSED_EVERY_KEY_HINT =
  "a venue or proxy refusing every key: check venue.headerPrefix, venue.brokerId and the venue's URL";

/**
 * Registrations caused by refusals: the first comes at once; one within this long of the one
 * before waits, 10 s the first time, doubling up to 10 minutes (a venue or proxy that refuses
 * every key must not make the bot register one every poll).
 */
const REFUSAL_WINDOW_MS = 10 * 60_000;
const REFUSAL_FIRST_WAIT_MS = 10_000;
const REFUSAL_MAX_WAIT_MS = 10 * 60_000;

/**
 * When a new key may be registered after the venue refused the newest one (see
 * `CredentialManager.refused`), on the monotonic clock: a wall clock stepped back must not
 * stretch the wait.
 */
export class RefusalSpacing {
  /** When the last registration caused by a refusal was due (monotonic ms). */
  #lastAt: number | undefined;
  #streak = 0;
  #notBefore = 0;

  /**
   * The newest key was refused at `at` (monotonic ms).
   * @returns how long to wait before registering a new one, and how many refusals in a row.
   */
  refused(at: number): { readonly waitMs: number; readonly inARow: number } {
    const last = this.#lastAt;
    this.#streak = last !== undefined && at - last < REFUSAL_WINDOW_MS ? this.#streak + 1 : 0;
    const waitMs =
      this.#streak === 0
        ? 0
        : Math.min(REFUSAL_FIRST_WAIT_MS * 2 ** (this.#streak - 1), REFUSAL_MAX_WAIT_MS);
    this.#notBefore = at + waitMs;
    this.#lastAt = at + waitMs;
    return { waitMs, inARow: this.#streak + 1 };
  }

  /** Whether a key refused earlier may be replaced at `at` (monotonic ms). */
  mayRenew(at: number): boolean {
    return at >= this.#notBefore;
  }

  /** How long from `at` (monotonic ms) until a key refused earlier may be replaced; 0 when it may now. */
  waitLeftMs(at: number): number {
    return Math.max(0, this.#notBefore - at);
  }
}
