import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hex } from 'viem';
import { stringify } from 'yaml';
import { parseConfig, type Config } from '../config/index.ts';
import { isFinalState } from '../domain/index.ts';
import { summarizeError } from '../errors/index.ts';
import type { OrderJournal } from '../execution/journal.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import { X18_SCALE as X18 } from '../money/constants.ts';
import { createInProcessPaperVenue } from '../paper/index.ts';
import { signingDomainOf } from '../runtime/signing-domain.ts';
import { prepareStrategies } from '../strategy/prepare-strategies.ts';
import { accountFromPrivateKey } from '../venue/signing/index.ts';
import { type InvariantName, type Violation } from './invariants.ts';
import { JournalRows } from './journal-rows.ts';
import { VirtualScheduler } from './scheduler.ts';
import { startSimBot, type SimBot } from './sim-bot.ts';
import {
  DEFAULT_NETWORK_FAULTS,
  simFetch,
  type Delivery,
  type NetworkFaults,
} from './sim-network.ts';
import { SimRandom, STREAMS } from './sim-random.ts';
import { Trace } from './trace.ts';

/** Where virtual time starts (the venue's wall clock): 2026-01-01T00:00:00Z. */
const EPOCH_MS = Date.UTC(2026, 0, 1);
/** Each subaccount's starting cash at the venue, and the bot's `risk.capital`. */
const SIM_BALANCE = '100000';

/** The venue both sides of the bot talk to (never contacted: the network is simulated). */
const VENUE_URL = 'http://127.0.0.1:9';
const POSITION_CAP = 3000n;
/** Price moves between the check at send and the fill: the cap is checked with this slack. */
const CAP_SLACK_PERCENT = 5n;

/** What one schedule runs. */
export interface ScheduleOptions {
  readonly seed: number;
  /** Virtual length of the schedule; default 10 minutes. */
  readonly durationMs?: number;
  /** The last part of it, without faults (healing); default 2 minutes. */
  readonly healMs?: number;
  /** Crashes of the bot process; default 1. */
  readonly crashes?: number;
  readonly faults?: NetworkFaults;
  /** Where state dirs are made (default /dev/shm when it exists, else the OS temp dir). */
  readonly stateRoot?: string;
  /** Logs of the bots (default none). */
  readonly log?: Logger;
}

/** What a schedule gave. */
export interface ScheduleResult {
  readonly seed: number;
  readonly traceHash: string;
  readonly violations: readonly Violation[];
  readonly stats: {
    readonly events: number;
    readonly steps: number;
    readonly virtualMs: number;
    readonly ordersJournaled: number;
    readonly ordersAccepted: number;
    readonly crashes: number;
    readonly faults: number;
  };
}

function keyFrom(random: SimRandom): Hex {
  // 32 bytes whose first is 0x10-0x7f: never zero, always below the curve order.
  let hex = random.int(0x10, 0x7f).toString(16);
  for (let i = 1; i < 32; i++) hex += random.int(0, 255).toString(16).padStart(2, '0');
  return `0x${hex}`;
}

function defaultStateRoot(): string {
  try {
    return mkdtempSync('/dev/shm/quanta-sim-');
  } catch {
    return mkdtempSync(join(tmpdir(), 'quanta-sim-'));
  }
}

function simConfig(dir: string, seed: number): Config {
  const document = {
    venue: {
      writeUrl: VENUE_URL,
      readUrl: VENUE_URL,
      timeoutMs: 2000,
      // Renewed a few times in a schedule: renewals meet the faults too.
      credentialTtlMs: 4 * 60_000,
      renewMarginMs: 60_000,
    },
    wallet: { privateKeyEnv: 'QUANTA_SIM_WALLET_KEY' },
    state: { dir: join(dir, 'state') },
    poll: { intervalMs: 1000, quotes: true },
    execution: {
      orderTtlMs: 20_000,
      maxAttempts: 3,
      rateLimit: { requests: 10, perMs: 1000 },
    },
    // The venue's balance: the bot knows its account (without it every opening order would be
    // refused MARGIN_UNKNOWN, docs/margin.md).
    risk: {
      maxOrderNotional: '1500',
      maxPositionNotional: String(POSITION_CAP),
      capital: SIM_BALANCE,
    },
    log: { level: 'silent' },
    strategies: [
      {
        module: fileURLToPath(
          new URL(`./sim-trader${extensionOf(import.meta.url)}`, import.meta.url),
        ),
        markets: ['ETH-USD'],
        params: { seed },
      },
    ],
  };
  return parseConfig(stringify(document), join(dir, 'sim.yaml'), dir);
}

function extensionOf(url: string): string {
  // Loaded through tsx in a worker thread the URL may carry a query.
  return /\.ts(\?.*)?$/.test(url) ? '.ts' : '.js';
}

interface AcceptedOrder {
  readonly venueOrderId: number;
  readonly signature: string;
  readonly at: number;
}

/**
 * Runs one schedule: a bot on the in-process paper venue over the simulated network, on
 * virtual time, with the faults, crashes and restarts the seed decides, checking the
 * invariants ({@link INVARIANTS}) after every step and at the end.
 */
export async function runSchedule(options: ScheduleOptions): Promise<ScheduleResult> {
  const { seed } = options;
  const durationMs = options.durationMs ?? 10 * 60_000;
  const healMs = options.healMs ?? 2 * 60_000;
  const faultsUntil = durationMs - healMs;
  const log = options.log ?? silentLogger;
  const root = options.stateRoot ?? defaultStateRoot();
  const ownRoot = options.stateRoot === undefined;
  const dir = mkdtempSync(join(root, `seed-${seed}-`));
  const trace = new Trace();
  const scheduler = new VirtualScheduler();
  const plan = new SimRandom(seed, STREAMS.plan);
  const keys = new SimRandom(seed, STREAMS.keys);
  const networkRandom = new SimRandom(seed, STREAMS.network);
  const venueNow = (): number => EPOCH_MS + scheduler.monotonic();
  const violations: Violation[] = [];
  let faults = 0;
  let ordersJournaled = 0;
  let steps = 0;
  const violate = (invariant: InvariantName, detail: string): void => {
    if (violations.some((v) => v.invariant === invariant)) return;
    trace.add(scheduler.monotonic(), `VIOLATION ${invariant}: ${detail}`);
    violations.push({
      seed,
      invariant,
      detail,
      at: scheduler.monotonic(),
      lastEvents: trace.latest(),
    });
  };

  const config = simConfig(dir, seed);
  const strategies = await prepareStrategies(config.strategies, [dir], config.source);
  const walletKey = keyFrom(keys);
  const wallet = accountFromPrivateKey(walletKey, 'wallet key').address;
  const accountId = `${config.venue.brokerId}_${wallet.toLowerCase()}_${config.venue.subaccount}`;
  const venue = createInProcessPaperVenue({
    seed,
    clock: venueNow,
    domain: signingDomainOf(config),
    headerPrefix: config.venue.headerPrefix,
    balance: SIM_BALANCE,
  });

  // The plan: partitions and crashes within the faulty part.
  const partitions: { from: number; to: number }[] = [];
  for (let i = plan.int(0, 2); i > 0; i--) {
    const from = plan.int(10_000, Math.max(10_001, faultsUntil - 60_000));
    partitions.push({ from, to: from + plan.int(2_000, 40_000) });
  }
  const crashAt: number[] = [];
  for (let i = options.crashes ?? 1; i > 0; i--)
    crashAt.push(plan.int(20_000, Math.max(20_001, faultsUntil - 20_000)));
  const faulty = (): boolean => scheduler.monotonic() < faultsUntil;
  const partitioned = (): boolean => {
    const at = scheduler.monotonic();
    return partitions.some((p) => at >= p.from && at < p.to);
  };

  // What the venue accepted, by signature and by journal row.
  const accepted = new Map<string, AcceptedOrder>();
  const rowOfVenueOrder = new Map<number, number>();
  const journals: OrderJournal[] = [];
  const journalRows = new JournalRows();
  let current: { pid: number; journal?: OrderJournal; bot?: SimBot } | undefined;
  let committed = new Map<number, string>();

  const delivered = (delivery: Delivery): void => {
    const at = scheduler.monotonic();
    if (delivery.method !== 'POST' || delivery.path !== '/api/v1/order') {
      trace.add(at, `${delivery.method} ${delivery.path} ${delivery.answer.status}`);
      return;
    }
    const signature = String(
      delivery.headers[`${config.venue.headerPrefix}signature`.toLowerCase()] ?? '',
    );
    const body = JSON.parse(delivery.body) as { expiryTs: number };
    const answer = JSON.parse(delivery.answer.text) as {
      body: { id: number } | null;
      message: string;
    };
    trace.add(
      at,
      `order ${signature.slice(0, 10)} exp ${body.expiryTs - EPOCH_MS} -> ${delivery.answer.status} ${answer.body?.id ?? answer.message}`,
    );
    if (body.expiryTs <= venueNow())
      violate(
        'notAfterExpiry',
        `order ${signature.slice(0, 12)}… reached the venue at ${venueNow() - EPOCH_MS} ms, its expiryTs is ${body.expiryTs - EPOCH_MS} ms`,
      );
    if (delivery.answer.status === 401 && answer.message.includes('expired'))
      violate('durable', `an order was sent with an expired credential (${answer.message})`);
    if (delivery.answer.status !== 200 || answer.body === null) return;
    const venueOrderId = answer.body.id;
    if (accepted.has(signature))
      violate('oneVenueOrder', `signature ${signature.slice(0, 12)}… accepted twice`);
    accepted.set(signature, { venueOrderId, signature, at });
    const journal = current?.journal;
    const rowId = journal === undefined ? undefined : journalRows.rowIdOf(journal, signature);
    if (rowId === undefined) {
      violate(
        'oneVenueOrder',
        `venue order ${venueOrderId} has no journal row (signature ${signature.slice(0, 12)}…)`,
      );
      return;
    }
    const before = [...rowOfVenueOrder.entries()].find(([, id]) => id === rowId);
    if (before !== undefined)
      violate(
        'oneVenueOrder',
        `journal row ${rowId} has two venue orders: ${before[0]} and ${venueOrderId}`,
      );
    rowOfVenueOrder.set(venueOrderId, rowId);
  };

  const afterStep = (): void => {
    steps += 1;
    const position = venue.engine.position(accountId, 1);
    const amount = position.amountX18 < 0n ? -position.amountX18 : position.amountX18;
    const notional = (amount * position.avgEntryPriceX18) / X18;
    if (notional * 100n > POSITION_CAP * X18 * (100n + CAP_SLACK_PERCENT))
      violate(
        'positionCap',
        `venue position ${position.amountX18} (x18) at ${position.avgEntryPriceX18} is ${notional / X18} notional, cap ${POSITION_CAP}`,
      );
  };

  const boot = (pid: number): void => {
    const time = scheduler.processTime(pid);
    const process: { pid: number; journal?: OrderJournal; bot?: SimBot } = { pid };
    current = process;
    trace.add(scheduler.monotonic(), `boot process ${pid}`);
    const fetchImpl = simFetch({
      venue,
      time,
      hold: (work) => scheduler.hold(work),
      random: networkRandom,
      faulty,
      partitioned,
      faults: options.faults ?? DEFAULT_NETWORK_FAULTS,
      delivered,
      fault: (what, path) => {
        faults += 1;
        trace.add(scheduler.monotonic(), `fault ${what} ${path}`);
      },
    });
    const started = startSimBot({
      config,
      strategies,
      walletKey,
      now: venueNow,
      time,
      fetchImpl,
      generateSigningKey: () => keyFrom(keys),
      log,
      opened: (journal) => {
        journals.push(journal);
        process.journal = journal;
        // I5: every row committed before the crash is still there, final rows unchanged.
        const rows = new Map(journal.all().map((r) => [r.id, r]));
        for (const [id, state] of committed) {
          const row = rows.get(id);
          if (row === undefined)
            violate('durable', `journal row ${id} (${state}) lost across the restart`);
          else if (isFinalState(state as never) && row.state !== state)
            violate(
              'durable',
              `journal row ${id} was ${state} (final) and is ${row.state} after the restart`,
            );
        }
      },
    });
    started
      .then((bot) => {
        process.bot = bot;
        trace.add(scheduler.monotonic(), `process ${pid} trading`);
        return bot.run(new AbortController().signal);
      })
      .catch((error: unknown) => {
        if (current !== process) return;
        violate(
          'starts',
          `process ${pid} stopped: ${summarizeError(error).message ?? String(error)}`,
        );
      });
  };

  const crash = (): void => {
    const process = current;
    if (process === undefined) return;
    trace.add(scheduler.monotonic(), `crash process ${process.pid}`);
    committed = new Map(process.journal?.all().map((r) => [r.id, r.state]) ?? []);
    scheduler.dropOwner(process.pid);
    current = undefined;
    process.journal?.close();
    const restartIn = plan.int(500, 5000);
    scheduler.startTimer(0, restartIn, () => boot(process.pid + 1));
  };
  for (const at of crashAt) scheduler.startTimer(0, at, crash);

  try {
    boot(1);
    await scheduler.runUntil(durationMs, afterStep);
    checkConverged();
    ordersJournaled = current?.journal?.all().length ?? 0;
  } finally {
    if (current !== undefined) scheduler.dropOwner(current.pid);
    for (const journal of journals) journal.close();
    rmSync(ownRoot ? root : dir, { recursive: true, force: true });
  }

  function checkConverged(): void {
    const bot = current?.bot;
    const journal = current?.journal;
    if (bot === undefined || journal === undefined) {
      violate('converges', 'no bot was trading when the schedule ended');
      return;
    }
    for (const row of journal.all()) {
      if (!isFinalState(row.state)) {
        violate(
          'converges',
          `order ${row.id} is ${row.state} ${healMs} ms after the faults stopped`,
        );
        return;
      }
      const sent = accepted.get(row.signature);
      const venueOrder =
        sent === undefined ? undefined : venue.engine.getOrder(accountId, sent.venueOrderId);
      if (venueOrder === undefined) {
        if (row.filledX18 !== 0n)
          violate(
            'converges',
            `order ${row.id} is ${row.state} with a fill, and the venue never accepted it`,
          );
        else if (
          row.state !== 'REJECTED' &&
          row.state !== 'EXPIRED' &&
          row.state !== 'CANCELLED' &&
          row.state !== 'UNKNOWN'
        )
          violate('converges', `order ${row.id} is ${row.state}, and the venue never accepted it`);
        continue;
      }
      if (row.state !== venueOrder.status || row.filledX18 !== venueOrder.totalFilledX18)
        violate(
          'converges',
          `order ${row.id} is ${row.state} filled ${row.filledX18}, the venue's ${venueOrder.id} is ${venueOrder.status} filled ${venueOrder.totalFilledX18}`,
        );
      else if (
        row.filledX18 > 0n &&
        (row.avgFillPriceX18 !== venueOrder.avgFillPriceX18 ||
          (row.feesX18 !== null && row.feesX18 !== venueOrder.feesPaidX18))
      )
        violate(
          'converges',
          `order ${row.id} price/fee ${row.avgFillPriceX18}/${row.feesX18}, the venue's ${venueOrder.avgFillPriceX18}/${venueOrder.feesPaidX18}`,
        );
    }
    const mine = bot.executor.positions.amountX18(1);
    const theirs = venue.engine.position(accountId, 1).amountX18;
    if (mine !== theirs)
      violate('converges', `the bot's position ${mine} (x18), the venue's ${theirs}`);
  }

  return {
    seed,
    traceHash: trace.digest(),
    violations,
    stats: {
      events: trace.events,
      steps,
      virtualMs: durationMs,
      ordersJournaled,
      ordersAccepted: accepted.size,
      crashes: crashAt.length,
      faults,
    },
  };
}
