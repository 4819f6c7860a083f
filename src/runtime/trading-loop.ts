import type { TradingSession } from '../stack/trading-session.ts';
import type { Poller } from '../market/poller.ts';
import type { Snapshot } from '../market/snapshot.ts';

/** The parts one turn of the loop goes through. */
export interface TradingLoopOptions {
  readonly poller: Pick<Poller, 'run'>;
  readonly session: Pick<TradingSession, 'onSnapshot'>;
  /** Told about every snapshot before anything trades on it (the recorder). */
  readonly onSnapshot?: ((snapshot: Snapshot) => void) | undefined;
  /**
   * Runs before the strategies see a snapshot (credential renewal); must not throw. Its signal
   * aborts when the loop ends, however it ends.
   */
  readonly beforeTrading?: ((signal: AbortSignal) => Promise<void>) | undefined;
  /** Runs after a snapshot was traded on, with the number of snapshots so far (the status line). */
  readonly afterTrading?: ((snapshot: Snapshot, snapshots: number) => void) | undefined;
}

/**
 * The bot's run loop: poll → strategies → executor, one snapshot at a time until the run's
 * signal aborts. Holds nothing per snapshot beyond the count, so a run of any length takes the
 * same memory.
 */
export class TradingLoop {
  readonly #options: TradingLoopOptions;
  #snapshots = 0;

  constructor(options: TradingLoopOptions) {
    this.#options = options;
  }

  /** Snapshots handed to the strategies so far. */
  get snapshots(): number {
    return this.#snapshots;
  }

  /** Polls and trades until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const { poller, session, onSnapshot, beforeTrading, afterTrading } = this.#options;
    // What `beforeTrading` starts (a renewal's retry, waiting on a timer) stops with the loop
    // however the loop ends: a poller that throws leaves the caller's signal unaborted, and a
    // retry left waiting would register keys while the bot shuts down, and keep the process up.
    const loop = new AbortController();
    const stop = (): void => loop.abort(signal.reason);
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    try {
      await poller.run(async (snapshot) => {
        this.#snapshots += 1;
        onSnapshot?.(snapshot);
        await beforeTrading?.(loop.signal);
        await session.onSnapshot(snapshot);
        afterTrading?.(snapshot, this.#snapshots);
      }, signal);
    } finally {
      signal.removeEventListener('abort', stop);
      loop.abort(new Error('the trading loop ended'));
    }
  }
}
