import type { Logger } from '../log/logger.ts';
import { UNLOGGED_REFUSALS, type RefusalReason } from './refusal.ts';

/** Options of {@link RefusalLog}. */
export interface RefusalLogOptions {
  /** A monotonic clock (`Clock.monotonic`): the spacing is a duration. */
  readonly now: () => number;
  readonly log: Logger;
  /** One log line per strategy and reason per this many ms (default one minute). */
  readonly everyMs?: number;
}

interface Window {
  loggedAt: number;
  suppressed: number;
}

/**
 * Counts every refused intent by strategy and reason, and logs it at most once per strategy and
 * reason per minute (with how many were not logged since), not once per snapshot: a strategy
 * that returns a bad intent on every poll must show up in counts, not flood the log.
 */
export class RefusalLog {
  readonly #options: RefusalLogOptions;
  readonly #everyMs: number;
  readonly #counts = new Map<string, Partial<Record<RefusalReason, number>>>();
  readonly #windows = new Map<string, Window>();

  constructor(options: RefusalLogOptions) {
    this.#options = options;
    this.#everyMs = options.everyMs ?? 60_000;
  }

  /** Counts one refusal; logs it unless this strategy logged this reason within the window. */
  record(
    strategy: string,
    reason: RefusalReason,
    detail: string,
    fields: Record<string, unknown> = {},
  ): void {
    let counts = this.#counts.get(strategy);
    if (counts === undefined) {
      counts = {};
      this.#counts.set(strategy, counts);
    }
    counts[reason] = (counts[reason] ?? 0) + 1;
    // The mode change (or the throttling episode) said it once; every intent is refused while
    // it lasts.
    if (UNLOGGED_REFUSALS.has(reason)) return;

    const key = `${strategy}\u0000${reason}`;
    const now = this.#options.now();
    const window = this.#windows.get(key);
    if (window !== undefined && now - window.loggedAt < this.#everyMs) {
      window.suppressed += 1;
      return;
    }
    this.#options.log.warn(
      {
        strategy,
        reason,
        detail,
        ...fields,
        ...(window === undefined ? {} : { notLoggedSince: window.suppressed }),
      },
      `intent refused (${reason}): ${detail}`,
    );
    this.#windows.set(key, { loggedAt: now, suppressed: 0 });
  }

  /** Refusals by reason, over every strategy. */
  totals(): Partial<Record<RefusalReason, number>> {
    const totals: Partial<Record<RefusalReason, number>> = {};
    for (const counts of this.#counts.values())
      for (const [reason, n] of Object.entries(counts) as [RefusalReason, number][])
        totals[reason] = (totals[reason] ?? 0) + n;
    return totals;
  }

  /** Refusals by strategy, then reason. */
  byStrategy(): Record<string, Partial<Record<RefusalReason, number>>> {
    return Object.fromEntries([...this.#counts].map(([name, counts]) => [name, { ...counts }]));
  }
}
