import type { Logger } from '../../log/logger.ts';

/** Receives one server-sent event: its name and its data (one JSON line). */
export type FeedListener = (event: string, data: string) => void;

/** Options of {@link LiveFeed}. */
export interface LiveFeedOptions {
  /** The clock pushes are spaced on. */
  readonly now: () => number;
  /** Least time between two pushes after snapshots (mode changes go at once). */
  readonly minIntervalMs: number;
  readonly log: Logger;
}

/**
 * The live page's feed (`GET /events`): after a traded snapshot, the status is built and sent
 * to every page connected, at most once per `minIntervalMs`, and only while one is connected:
 * with no page open the bot pays one size check per snapshot. The JSON is made once per push,
 * whatever the number of pages. A page connecting or leaving is one log line; pushes are not
 * logged.
 */
export class LiveFeed {
  readonly #options: LiveFeedOptions;
  readonly #listeners = new Set<FeedListener>();
  #lastPushAt: number | undefined;

  constructor(options: LiveFeedOptions) {
    this.#options = options;
  }

  /** Pages connected now. */
  get watching(): number {
    return this.#listeners.size;
  }

  /**
   * Adds a page; `first` gives the events it gets at once (the history, the status). Returns
   * the function that removes it.
   */
  subscribe(listener: FeedListener, first: readonly (readonly [string, unknown])[]): () => void {
    this.#listeners.add(listener);
    this.#options.log.info({ pages: this.#listeners.size }, 'live page connected');
    for (const [event, body] of first) listener(event, JSON.stringify(body));
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.#listeners.delete(listener);
      this.#options.log.info({ pages: this.#listeners.size }, 'live page left');
    };
  }

  /**
   * Sends `build()` as a `status` event to every page, unless none is connected or (without
   * `now`) the last push was less than `minIntervalMs` ago.
   */
  push(build: () => unknown, when: 'throttled' | 'now' = 'throttled'): void {
    if (this.#listeners.size === 0) return;
    const at = this.#options.now();
    const last = this.#lastPushAt;
    // A clock stepped back is no reason to stop pushing.
    if (
      when === 'throttled' &&
      last !== undefined &&
      at >= last &&
      at - last < this.#options.minIntervalMs
    )
      return;
    this.#lastPushAt = at;
    const data = JSON.stringify(build());
    for (const listener of this.#listeners) listener('status', data);
  }
}
