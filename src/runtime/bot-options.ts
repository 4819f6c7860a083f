import type { StartTimer } from '../clock/timers.ts';
import type { Config } from '../config/index.ts';
import type { Logger } from '../log/logger.ts';
import type { Snapshot } from '../market/snapshot.ts';
import type { ProducedIntent } from '../stack/trading-session.ts';
import type { VenueClient } from '../venue/venue-client.ts';

/** Options of `startBot` (src/runtime/bot.ts). */
export interface BotOptions {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  /** Project root: strategy modules are also looked up here. */
  readonly projectRoot: string;
  /** The wall clock (`Clock.now`); default the system's. Tests step it. */
  readonly now?: () => number;
  /** The monotonic clock budgets, waits and schedules run on (`Clock.monotonic`); default the system's. */
  readonly monotonic?: () => number;
  /**
   * Waits (polls, rate budget, renewal retries); default a real timer. Its time must pass as
   * `monotonic`'s does: inject both or neither. A sleep that returns at once beside the system's
   * monotonic clock would have the bot wait for a refused key's successor, or a rate slot, in a
   * loop that never yields.
   */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
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
