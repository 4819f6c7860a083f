import { ErrorCodes, summarizeError } from '../errors/index.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import { silentLogger } from '../log/logger.ts';
import type { InProcessPaperVenue } from '../paper/index.ts';
import { statePaths } from '../runtime/state-paths.ts';
import { MAX_CLOCK_SKEW_MS } from '../clock/venue-clock.ts';
import { checkCommittedRows, committedJournal, type CommittedJournal } from './committed-rows.ts';
import { VenueIdsJournaled } from './converged.ts';
import { checkAtEnd, checkRenewedWhileHealed } from './healed.ts';
import {
  clockOffsetAt,
  faultNames,
  onTheWire,
  planFaults,
  within,
  type CrashFault,
  type FaultPlan,
} from './fault-plan.ts';
import { ViolationLog } from './invariants.ts';
import type { ScheduleResult, Setup } from './schedule-setup.ts';
import { VirtualScheduler } from './scheduler.ts';
import { startSimBot } from './sim-bot.ts';
import { diskErrorOf, journalWithDiskFaults } from './sim-disk.ts';
import { crashJournal, putImage, type JournalImage } from './sim-journal-files.ts';
import { DEFAULT_NETWORK_FAULTS, simFetch } from './sim-network.ts';
import { marketIdsOf, marketInMessage } from './sim-mix.ts';
import { checkPositionCap } from './position-cap.ts';
import { DayBaselines } from './daily-loss.ts';
import { checkJournalWrite } from './exposure-cap.ts';
import { startPlannedFaults } from './planned-faults.ts';
import { SimRandom, STREAMS } from './sim-random.ts';
import { EPOCH_MS, keyFrom } from './sim-setup.ts';
import { MAX_EXPIRES_IN_MS } from './sim-trader.ts';
import { startVenueFaults } from './venue-faults.ts';
import { simVenue } from './sim-venue.ts';
import { Trace } from './trace.ts';
import { VenueWatch } from './venue-watch.ts';
import { CrashTiming } from './crash-timing.ts';
import type { SimProcess } from './sim-process.ts';
import { scheduleResult } from './schedule-result.ts';

/**
 * One schedule as it runs: the venue, the bot processes one after another (crashes, damaged
 * journals refused, restores), the faults of its plan and the checks.
 */
export class ScheduleRun {
  readonly scheduler = new VirtualScheduler();
  readonly trace: Trace;
  readonly violations: ViolationLog;
  readonly plan: FaultPlan;
  readonly venue: InProcessPaperVenue;
  readonly watch: VenueWatch;
  readonly durationMs: number;
  readonly healMs: number;
  readonly #setup: Setup;
  readonly #planRandom: SimRandom;
  readonly #moreRandom: SimRandom;
  readonly #network: SimRandom;
  readonly #journals: OrderJournal[] = [];
  readonly #journalPath: string;
  /** The ids of the markets the bot trades (I3 and I4 check each). */
  readonly marketIds: readonly number[];
  current: SimProcess | undefined;
  /** When the plan's crashes strike besides at their time, and how many did. */
  readonly #crashTiming: CrashTiming;
  /** The crashes after which the journal was damaged. */
  #journalDamages = 0;
  /** What the journal held, committed, when the last crash came (I5). */
  #committed: CommittedJournal | undefined;
  /** When the bot first journaled each order's venue id (I4's fee rule). */
  readonly #known = new VenueIdsJournaled();
  readonly #days: DayBaselines;
  networkFaults = 0;
  steps = 0;

  constructor(setup: Setup) {
    const { options, config } = setup;
    this.#setup = setup;
    this.durationMs = options.durationMs ?? 10 * 60_000;
    this.healMs = options.healMs ?? 2 * 60_000;
    this.trace = new Trace(options.onEvent);
    this.violations = new ViolationLog(options.seed, this.trace, this.scheduler.monotonic);
    this.#planRandom = new SimRandom(options.seed, STREAMS.plan);
    this.#moreRandom = new SimRandom(options.seed, STREAMS.more);
    this.#network = new SimRandom(options.seed, STREAMS.network);
    this.#journalPath = statePaths(config.state.dir, config.venue).journal;
    this.marketIds = marketIdsOf(setup.mix);
    this.#days = new DayBaselines(setup.mix.dailyLossLimit);
    const venueFaults = {
      random: new SimRandom(options.seed, STREAMS.venue),
      marketIds: this.marketIds,
    };
    this.plan = planFaults({
      plan: this.#planRandom,
      more: this.#moreRandom,
      extra: new SimRandom(options.seed, STREAMS.extra),
      faultsUntil: this.durationMs - this.healMs,
      crashes: options.crashes ?? 1,
      ...(options.choices === undefined ? {} : { choices: options.choices }),
      ...(setup.mix.venueFaults ? { venue: venueFaults } : {}),
    });
    this.venue = simVenue(setup, this.venueNow);
    this.#crashTiming = new CrashTiming({
      plan: this.plan,
      scheduler: this.scheduler,
      faultsUntil: this.durationMs - this.healMs,
      crash: (fault) => this.crash(fault),
      event: (text) => this.#event(text),
    });
    this.watch = new VenueWatch({
      trace: this.trace,
      violations: this.violations,
      at: this.scheduler.monotonic,
      venueNow: this.venueNow,
      signatureHeader: `${config.venue.headerPrefix}signature`.toLowerCase(),
      signerHeader: `${config.venue.headerPrefix}signer-address`.toLowerCase(),
      // The longest life the strategy asks, and the skew the bot lets through.
      horizonMs: MAX_EXPIRES_IN_MS + MAX_CLOCK_SKEW_MS,
      requestTimeoutMs: config.venue.timeoutMs,
      allowedSkewMs: MAX_CLOCK_SKEW_MS,
      journal: () => this.current?.journal,
      venueOrder: (id) => this.venue.engine.getOrder(this.#setup.accountId, id),
      credentialsPath: statePaths(config.state.dir, config.venue).credentials,
    });
  }

  /** The venue's clock: true virtual time. */
  readonly venueNow = (): number => EPOCH_MS + this.scheduler.monotonic();
  /** The bot host's clock: the venue's, off by the plan's clock fault while it lasts. */
  readonly hostNow = (): number =>
    this.venueNow() + clockOffsetAt(this.plan, this.scheduler.monotonic());

  #event(event: string): void {
    this.trace.add(this.scheduler.monotonic(), event);
  }

  /** Runs the schedule to its end and checks what holds at the end. */
  async run(): Promise<void> {
    // The default mix's first event as it always was (its traces are the ledger's).
    if (this.#setup.mixName !== 'default') this.#event(`mix ${this.#setup.mixName}`);
    this.#event(`plan: ${faultNames(this.plan).join(', ') || 'network faults only'}`);
    this.#startPlannedFaults();
    this.boot(1);
    await this.scheduler.runUntil(this.durationMs, () => this.#afterStep());
    checkAtEnd({
      bot: this.current?.bot,
      journal: this.current?.journal,
      days: this.#days,
      venue: this.venue,
      accountId: this.#setup.accountId,
      marketIds: this.marketIds,
      accepted: this.watch.accepted,
      refusalsKnown: this.watch.refusalsKnownTo(this.current?.pid),
      venueIds: this.#known,
      faultsUntil: this.durationMs - this.healMs,
      now: this.scheduler.monotonic(),
      violations: this.violations,
    });
  }

  /** Stops the last process and closes every journal. */
  close(): void {
    if (this.current !== undefined) this.scheduler.dropOwner(this.current.pid);
    for (const journal of this.#journals) journal.close();
  }

  #startPlannedFaults(): void {
    const at = (ms: number, fire: () => void): void => {
      this.scheduler.startTimer(0, ms, fire);
    };
    const event = (text: string): void => this.#event(text);
    startPlannedFaults(this.plan, this.durationMs - this.healMs, {
      at,
      event,
      crash: (fault) => this.crash(fault),
      arm: (fault) => this.#crashTiming.arm(fault),
      armed: (fault) => this.#crashTiming.armed(fault),
    });
    startVenueFaults(this.plan, this.venue, this.#setup.accountId, at, event);
  }

  #afterStep(): void {
    this.steps += 1;
    for (const marketId of this.marketIds) {
      const position = this.venue.engine.position(this.#setup.accountId, marketId);
      checkPositionCap(position, marketInMessage(this.marketIds, marketId), this.violations);
    }
    const process = this.current;
    const healedMs = this.scheduler.monotonic() - this.durationMs + this.healMs;
    checkRenewedWhileHealed(process?.bot, this.venue, healedMs, this.violations);
    const state = process?.clock?.state();
    if (process !== undefined && state !== undefined && state !== process.clockState) {
      process.clockState = state;
      this.#event(`process ${process.pid} clock ${state}`);
    }
  }

  #diskFault(): FaultPlan['disk'] {
    const disk = this.plan.disk;
    return disk !== undefined && within([disk], this.scheduler.monotonic()) ? disk : undefined;
  }

  /** Starts process `pid`; `damaged` when its journal was damaged (it must refuse). */
  boot(pid: number, damaged?: { readonly how: string; readonly image: JournalImage }): void {
    const process: SimProcess = damaged === undefined ? { pid } : { pid, damaged: damaged.how };
    this.current = process;
    this.#event(
      `boot process ${pid}${damaged === undefined ? '' : ` on a journal with ${damaged.how}`}`,
    );
    if (damaged === undefined) this.#crashTiming.booted();
    this.watch.started(pid);
    const { options, config, strategies, walletKey, keys } = this.#setup;
    const time = this.scheduler.processTime(pid);
    const started = startSimBot({
      config,
      strategies,
      walletKey,
      now: this.hostNow,
      time,
      fetchImpl: this.#fetchOf(process),
      generateSigningKey: () => keyFrom(keys),
      log: options.log ?? silentLogger,
      opened: (journal) => this.#opened(process, journal),
      onClock: (clock) => {
        process.clock = clock;
      },
      wrapJournal: (journal) =>
        journalWithDiskFaults(
          journal,
          () => this.#diskFault(),
          (method) => this.#event(`journal ${method} refused (disk ${this.#diskFault()?.kind})`),
          (method, result) => this.#wrote(process, method, result),
        ),
    });
    started
      .then((bot) => {
        process.bot = bot;
        this.#event(`process ${pid} trading`);
        if (damaged !== undefined)
          this.violations.violate(
            'refusesDamage',
            `process ${pid} started trading on a journal with ${damaged.how}`,
          );
        return bot.run(new AbortController().signal);
      })
      .then(() => {
        // Nothing asks a simulated bot to stop: one that returns stopped trading on its own.
        if (this.current === process)
          this.violations.violate('starts', `process ${pid} stopped trading on its own`);
      })
      .catch((error: unknown) => {
        if (this.current !== process) return;
        if (damaged !== undefined) this.#refused(process, error, damaged.image);
        else if (diskErrorOf(error) !== undefined) this.#exited(process, diskErrorOf(error)!);
        else {
          const message = summarizeError(error).message ?? String(error);
          this.violations.violate('starts', `process ${pid} stopped: ${message}`);
        }
      });
  }

  #fetchOf(process: SimProcess): typeof fetch {
    return simFetch({
      venue: this.venue,
      time: this.scheduler.processTime(process.pid),
      wire: (ms, arrive) => this.scheduler.startTimer(0, ms, arrive),
      alive: () => this.scheduler.alive(process.pid),
      hostNow: this.hostNow,
      hold: (work) => this.scheduler.hold(work),
      random: this.#network,
      faulty: () => this.scheduler.monotonic() < this.durationMs - this.healMs,
      ...onTheWire(this.plan, () => this.scheduler.monotonic()),
      venueNow: this.venueNow,
      faults: this.#setup.options.faults ?? DEFAULT_NETWORK_FAULTS,
      sending: (request) => this.watch.sending(request, process),
      delivered: (delivery) => this.watch.delivered(delivery),
      answered: (delivery) => this.watch.answered(delivery, process),
      toldToWait: (untilMs) => this.watch.toldToWait(untilMs, process),
      fault: (what, path) => {
        this.networkFaults += 1;
        this.#event(`fault ${what} ${path}`);
      },
    });
  }

  #opened(process: SimProcess, journal: OrderJournal): void {
    this.#journals.push(journal);
    process.journal = journal;
    checkCommittedRows(this.#committed, journal, this.violations);
    this.watch.journalOpened(journal);
  }

  /**
   * A process started on a damaged journal stopped: with QUANTA_JOURNAL_DAMAGED, as it must
   * (I7), else a violation. Then the operator does what docs/journal.md says (restore the journal
   * with its -wal file from a backup, delete the mark) and starts the bot again.
   */
  #refused(process: SimProcess, error: unknown, image: JournalImage): void {
    const { code, message } = summarizeError(error);
    if (code !== ErrorCodes.JOURNAL_DAMAGED) {
      this.violations.violate(
        'refusesDamage',
        `process ${process.pid} stopped with ${code ?? 'no code'} (${message ?? String(error)}), not ${ErrorCodes.JOURNAL_DAMAGED}`,
      );
    }
    this.#event(`process ${process.pid} refused: ${code ?? 'no code'}`);
    this.scheduler.dropOwner(process.pid);
    const restoreIn = this.#moreRandom.int(5_000, 30_000);
    this.scheduler.startTimer(0, restoreIn, () => {
      putImage(this.#journalPath, image, false);
      this.#event('operator restores the journal from its backup and deletes its mark');
      this.boot(process.pid + 1);
    });
  }

  /** A process stopped on a journal it could not write: it exits; a supervisor restarts it. */
  #exited(process: SimProcess, code: string): void {
    this.#event(`process ${process.pid} exited: ${code}`);
    this.crash({ at: this.scheduler.monotonic() }, false);
  }

  /** A journal write of `process` succeeded: an armed crash may strike right after it. */
  #wrote(process: SimProcess, method: string, result: unknown): void {
    if (method === 'recordOutcome') this.#known.saw(result as OrderRecord, this.venueNow());
    if (process === this.current && process.journal !== undefined) {
      checkJournalWrite(method, result, {
        journal: process.journal,
        engine: this.venue.engine,
        accountId: this.#setup.accountId,
        accepted: (signature) => this.watch.accepted.has(signature),
        venueNow: this.venueNow(),
        marketIds: this.marketIds,
        days: this.#days,
        violations: this.violations,
      });
    }
    const armed = process === this.current ? this.#crashTiming.wrote() : undefined;
    if (armed === undefined) return;
    this.#event(`crash right after journal ${method}`);
    this.crash(armed);
    // The process is dead: nothing after the write runs (what already settles goes nowhere).
    throw new Error(`process ${process.pid} was killed`);
  }

  /**
   * Kills the running process (`planned`: one of the plan's crashes, not an exit on a disk
   * error): everything in memory dropped, its journal's files kept as SQLite
   * left them (the WAL not folded in, the mark still open), maybe damaged (the plan's), and a new
   * process started on them a little later.
   */
  crash(fault: CrashFault, planned = true): void {
    const process = this.current;
    this.#crashTiming.disarm(fault);
    if (process === undefined || process.damaged !== undefined) {
      // No process runs (an exit's restart is under way, or one refuses a damaged journal): the
      // plan's crash strikes the next process that starts on a sound journal, soon after.
      if (planned) this.#crashTiming.postpone(fault);
      return;
    }
    this.#event(`crash process ${process.pid}`);
    if (planned) this.#crashTiming.struck(this.scheduler.monotonic());
    this.scheduler.dropOwner(process.pid);
    this.current = undefined;
    const journal = process.journal;
    let damaged: { how: string; image: JournalImage } | undefined;
    if (journal !== undefined) {
      this.#committed = committedJournal(journal);
      damaged = crashJournal(this.#journalPath, journal, fault.damage, this.#moreRandom);
      if (damaged !== undefined) {
        this.#event(`journal damaged: ${damaged.how}`);
        this.#journalDamages += 1;
      }
    }
    const restartIn = this.#planRandom.int(500, 5000);
    this.scheduler.startTimer(0, restartIn, () => this.boot(process.pid + 1, damaged));
  }

  result(): ScheduleResult {
    return scheduleResult({
      seed: this.#setup.options.seed,
      trace: this.trace,
      violations: this.violations.list,
      plan: this.plan,
      steps: this.steps,
      durationMs: this.durationMs,
      journal: this.current?.journal,
      accepted: this.watch.accepted,
      counts: {
        crashes: this.#crashTiming.crashes,
        crashesDue: this.#crashTiming.due,
        journalDamages: this.#journalDamages,
      },
      networkFaults: this.networkFaults,
      engine: this.venue.engine,
      accountId: this.#setup.accountId,
    });
  }
}
