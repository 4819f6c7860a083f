import type { Hex } from 'viem';
import type { CredentialManager } from '../account/credential-manager.ts';
import type { VenueClock } from '../clock/venue-clock.ts';
import type { Config } from '../config/index.ts';
import type { Executor } from '../execution/executor.ts';
import { OrderJournal } from '../execution/journal.ts';
import type { Logger } from '../log/logger.ts';
import {
  openBotCore,
  recoverOrders,
  startTrading,
  tradingLoop,
  type BotStartUp,
} from '../runtime/bot-core.ts';
import { credentialManagerOf } from '../runtime/bot-credentials.ts';
import { CleanupStack } from '../runtime/cleanup-stack.ts';
import { statePaths } from '../runtime/state-paths.ts';
import type { PreparedStrategy } from '../strategy/prepare-strategies.ts';
import { httpVenueRegistrar } from '../venue/http-venue-client.ts';
import type { ProcessTime } from './scheduler.ts';

/**
 * The WAL space a simulated process writes when it opens its journal, in place of the live
 * bot's 16 MB (execution/journal-wal-space.ts: preallocated so that the fsynced commit before a
 * send does not also grow the file on a disk). The simulator's state dirs are on /dev/shm, where
 * an fsync waits for no disk, and 16 MB of zeros written at each of a schedule's starts was
 * about 1% of its time. What SQLite reads is the same either way (frames before the zeros); a
 * WAL smaller than its frames grows as it would on a journal opened by an older quanta. Not 0:
 * the mark then still records a WAL size, which a restart checks a missing or cut WAL against.
 */
const SIM_WAL_PREALLOCATED_BYTES = 64 * 1024;

/**
 * The commits a simulated journal's WAL holds before a quiet tick checkpoints it, in place of
 * the live bot's 1 (execution/sqlite-journal-sync.ts). On virtual time the journal is quiet
 * between nearly every order: a schedule of some 380 commits ran some 250 checkpoints (each with
 * its WAL restart row), 11-14% of its CPU. With 100 a schedule still checkpoints a few times (and
 * closes, at a crash, with a WAL of up to 100 commits to fold in); the ticks run at the same
 * virtual instants, so the schedule is the same.
 */
const SIM_IDLE_CHECKPOINT_COMMITS = 100;

/** What one simulated bot process is made of. */
export interface SimBotOptions {
  readonly config: Config;
  readonly strategies: readonly PreparedStrategy[];
  readonly walletKey: Hex;
  /** The host's wall clock (skewed and stepped by the schedule). */
  readonly now: () => number;
  readonly time: ProcessTime;
  readonly fetchImpl: typeof fetch;
  /** Signing keys from the schedule's seed. */
  readonly generateSigningKey: () => Hex;
  readonly log: Logger;
  /** Told when the journal is open (the simulator keeps it to check and to close at a crash). */
  readonly opened: (journal: OrderJournal) => void;
  /** Told the bot's clock check as soon as it exists (the simulator traces its verdicts). */
  readonly onClock?: (clock: VenueClock) => void;
  /** The journal the bot's parts are given in place of the file's (disk faults); default it. */
  readonly wrapJournal?: (journal: OrderJournal) => OrderJournal;
}

/** A simulated bot that started: the parts the invariants read. */
export interface SimBot {
  readonly journal: OrderJournal;
  readonly executor: Executor;
  readonly credentials: CredentialManager;
  /** The bot's reading of its clock against the venue's. */
  readonly clock: VenueClock;
  /** Polls and trades until the signal aborts (or the process is dropped). */
  run(signal: AbortSignal): Promise<void>;
}

/** Tries `step` until it succeeds, a virtual second apart (start-up on a faulty network). */
async function untilDone<T>(time: ProcessTime, step: () => Promise<T>): Promise<T> {
  const never = new AbortController().signal;
  for (;;) {
    try {
      return await step();
    } catch {
      await time.sleep(1000, never);
    }
  }
}

/**
 * How a simulated process starts: the first listing and the registration retried a virtual
 * second apart until they succeed (`firstListing` gives up after five attempts, and a
 * schedule's start on a faulty network must get through), the
 * journal on its SQLite file with the process's timers (handed to the simulator as it opens).
 */
function simStartUp(options: SimBotOptions, file: { journal?: OrderJournal }): BotStartUp {
  const { config, time, log } = options;
  return {
    listMarkets: (client, budget) =>
      untilDone(time, async () => {
        const signal = time.timeoutSignal(config.venue.timeoutMs);
        const permit = await budget.take('order', signal);
        try {
          return await client.listMarkets(signal);
        } finally {
          permit.release();
        }
      }),
    async credentials({ write, budget, walletKey }) {
      const credentials = credentialManagerOf({
        config,
        paths: statePaths(config.state.dir, config.venue),
        venue: httpVenueRegistrar(write),
        venueUrl: write.baseUrl,
        walletKey,
        takePermit: (signal) => budget.take('order', signal),
        now: options.now,
        monotonic: time.monotonic,
        log,
        sleep: (ms, signal) => time.sleep(ms, signal ?? new AbortController().signal),
        generateSigningKey: options.generateSigningKey,
      });
      const timeoutMs = config.venue.timeoutMs * 3;
      await untilDone(time, () => credentials.ensure(time.timeoutSignal(timeoutMs)));
      return credentials;
    },
    openJournal() {
      const journal = OrderJournal.open(statePaths(config.state.dir, config.venue).journal, {
        bootId: 'simulation',
        startTimer: time.startTimer,
        now: options.now,
        walPreallocatedBytes: SIM_WAL_PREALLOCATED_BYTES,
        idleCheckpointCommits: SIM_IDLE_CHECKPOINT_COMMITS,
      });
      file.journal = journal;
      options.opened(journal);
      return options.wrapJournal?.(journal) ?? journal;
    },
  };
}

/**
 * Starts one bot process on the simulated venue through the core `quanta run` starts from
 * (src/runtime/bot-core.ts: rate budget, first listing, credentials registered, reused and
 * renewed, the journal, the trading stack, recovery, the poller and the trading loop), with the
 * simulated network and the process's virtual clock and timers injected. Left out (they are
 * what src/runtime/assemble-bot.ts adds around the core): the control server, alerts, the
 * recorder, the state lock (one process at a time by construction) and the trading modes. A
 * simulated process is dropped, never shut down: its cleanup stack is never closed.
 */
export async function startSimBot(options: SimBotOptions): Promise<SimBot> {
  const { config, time, log, now } = options;
  const file: { journal?: OrderJournal } = {};
  const core = await openBotCore({
    config,
    log,
    time: { ...time, now, strategyTimer: time.startTimer, drainTimer: time.startTimer },
    venue: config.venue,
    walletKey: options.walletKey,
    startUp: simStartUp(options, file),
    cleanup: new CleanupStack(),
    fetchImpl: options.fetchImpl,
    ...(options.onClock === undefined ? {} : { onClock: options.onClock }),
  });
  const trading = await startTrading(core, options.strategies, core.client, {});
  recoverOrders(core, trading);
  const loop = tradingLoop(core, trading, {});
  return {
    journal: file.journal ?? core.journal,
    executor: trading.stack.executor,
    credentials: core.credentials,
    clock: core.venueClock,
    run: (signal) => loop.run(signal),
  };
}
