import type { StartTimer } from '../clock/timers.ts';
import type { Config } from '../config/index.ts';
import type { Logger } from '../log/logger.ts';
import type { Snapshot } from '../market/snapshot.ts';
import type { ProducedIntent } from '../stack/trading-session.ts';
import type { VenueClient } from '../venue/venue-client.ts';

/**
 * Options of `startBot` (src/runtime/bot.ts): {@link BotBaseOptions} with the time the bot waits
 * on, injected together or not at all ({@link BotWaitTime}).
 */
export type BotOptions = BotBaseOptions & BotWaitTime;

/**
 * The bot's monotonic clock and its sleep: both the system's (neither given), or both injected.
 * A sleep's time must pass as the monotonic clock's does. A sleep that returns at once beside the
 * system's monotonic clock would have the bot wait for a refused key's successor, or a rate slot,
 * in a loop that never yields; a real sleep beside an injected clock that nobody moves would wait
 * forever. `startBot` refuses one without the other (QUANTA_USAGE) for callers without types.
 *
 * @example
 * const time = { now: Date.parse('2026-03-02T12:00:00Z') };
 * await startBot({
 *   ...options,
 *   now: () => time.now,
 *   monotonic: () => time.now,
 *   sleep: (ms) => {
 *     time.now += ms;
 *     return Promise.resolve();
 *   },
 * });
 */
export type BotWaitTime =
  | { readonly monotonic?: undefined; readonly sleep?: undefined }
  | {
      /** The monotonic clock budgets, waits and schedules run on (`Clock.monotonic`). */
      readonly monotonic: () => number;
      /** Waits (polls, rate budget, renewal retries), on `monotonic`'s time. */
      readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
    };

/** What `startBot` takes besides {@link BotWaitTime}. */
export interface BotBaseOptions {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  /** Project root: strategy modules are also looked up here. */
  readonly projectRoot: string;
  /** The wall clock (`Clock.now`); default the system's. Tests step it. */
  readonly now?: () => number;
  /** Starts the strategies' `onSnapshot` deadline timers; default the real one (clock/timers.ts). */
  readonly strategyTimer?: StartTimer;
  /** Told about every snapshot (the recorder). */
  readonly onSnapshot?: (snapshot: Snapshot) => void;
  /** Told about every intent a strategy produced. */
  readonly onIntent?: (produced: ProducedIntent) => void;
  /**
   * A recording or imported candles to pre-load into the strategies' bars and indicators before
   * the first live snapshot (`quanta run --warmup DIR`, runtime/warmup-history.ts).
   */
  readonly warmup?: string;
  /**
   * Wraps the venue client the bot talks through (HTTP to the configured or embedded venue)
   * before the bot's own metrics and rate budget do: a recorder, injected faults. Every read,
   * order and lookup of the bot goes through the client it returns; registration does not.
   */
  readonly venueClient?: (http: VenueClient) => VenueClient;
}
