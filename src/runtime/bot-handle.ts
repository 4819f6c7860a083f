import type { Config } from '../config/index.ts';
import type { Executor } from '../execution/executor.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { ModeSource, TradingMode, TradingModes } from '../execution/trading-mode.ts';
import type { BotTrading } from './bot-core.ts';
import type { CleanupStack } from './cleanup-stack.ts';
import type { AlertWatch } from './control/alert-watch.ts';
import type { BotOperations } from './control/bot-operations.ts';
import type { BotStatus } from './control/status-json.ts';
import type { Notifier } from './control/notifier.ts';
import type { VenueEndpoints } from './embedded-venue.ts';
import { stopTrading, type RunSummary } from './shutdown.ts';
import type { TradingLoop } from './trading-loop.ts';

/** How long shutdown waits for queued alerts (the stop alert) to go out. */
const NOTIFY_CLOSE_MS = 3000;

/**
 * A started bot, as an embedder holds it (`quanta/runtime`): venue reachable, credentials valid,
 * journal open, strategies initialized. Narrow on purpose: what it trades with (journal,
 * executor, stack) stays inside the runtime.
 */
export interface Bot {
  /** The control server's URL, when `control:` is configured. */
  readonly controlUrl: string | undefined;
  /** What the control server's `GET /status` answers: mode, readiness, positions, orders, budget. */
  status(): BotStatus;
  /** The trading mode in effect (control server, kill-switch file, SIGUSR2). */
  readonly mode: TradingMode;
  /**
   * Sets the trading mode, as the control server and SIGUSR2 do; returns the mode in effect
   * (a kill-switch file can hold a stricter one).
   */
  setMode(mode: TradingMode, source: ModeSource): TradingMode;
  /** Polls and trades until `signal` aborts. */
  run(signal: AbortSignal): Promise<void>;
  /** Drains in-flight orders (bounded by `execution.drainTimeoutMs`), stops strategies, closes everything. */
  shutdown(): Promise<RunSummary>;
}

/**
 * A bot with its parts in reach: for the runtime's own tests only (test/integration/runtime),
 * which check what the journal and the executor hold. Not exported from any package entry.
 */
export interface BotWithParts extends Bot {
  readonly venue: VenueEndpoints;
  readonly journal: OrderJournal;
  readonly executor: Executor;
  readonly modes: TradingModes;
  readonly operations: BotOperations;
}

/** What the bot's lifecycle (run, shutdown) needs. */
export interface BotLifecycle {
  readonly config: Config;
  readonly venue: VenueEndpoints;
  readonly journal: OrderJournal;
  readonly trading: BotTrading;
  readonly modes: TradingModes;
  readonly operations: BotOperations;
  readonly loop: TradingLoop;
  readonly controlUrl: string | undefined;
  readonly symbolOf: (marketId: number) => string;
  readonly notifier: Notifier | undefined;
  readonly alerts: { readonly watch?: AlertWatch };
  readonly cleanup: CleanupStack;
}

/** The handle of a started bot: run until aborted, then shut down in order. */
export function botHandle(parts: BotLifecycle): BotWithParts {
  const { config, trading, modes, operations, loop, alerts } = parts;
  const { dispatcher, executor, session } = trading.stack;
  return {
    venue: parts.venue,
    journal: parts.journal,
    executor,
    modes,
    operations,
    controlUrl: parts.controlUrl,
    status: () => operations.status(),
    get mode() {
      return modes.mode;
    },
    setMode: (mode, source) => modes.set(mode, source),
    async run(signal) {
      operations.setRunning(true);
      try {
        await loop.run(signal);
      } finally {
        operations.setRunning(false);
      }
    },
    async shutdown() {
      const summary = await stopTrading({
        dispatcher,
        executor,
        session,
        drainTimeoutMs: config.execution.drainTimeoutMs,
        symbolOf: parts.symbolOf,
        snapshots: loop.snapshots,
        lastSnapshot: operations.lastSnapshot,
      });
      alerts.watch?.stopped({
        snapshots: summary.snapshots,
        drained: summary.drained,
        unresolvedOrders: summary.stats.unresolvedOrders,
        positions: summary.positions,
      });
      // The stop alert (and what is still queued) gets a moment to go out; never longer.
      await parts.notifier?.close(NOTIFY_CLOSE_MS);
      await parts.cleanup.close();
      return summary;
    },
  };
}

/** The embedder's view of `bot`: the same bot, its parts out of reach. */
export function narrowBot(bot: BotWithParts): Bot {
  return {
    controlUrl: bot.controlUrl,
    status: () => bot.status(),
    get mode() {
      return bot.mode;
    },
    setMode: (mode, source) => bot.setMode(mode, source),
    run: (signal) => bot.run(signal),
    shutdown: () => bot.shutdown(),
  };
}
