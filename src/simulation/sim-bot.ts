import type { Hex } from 'viem';
import { CredentialManager } from '../account/credential-manager.ts';
import { CredentialStore } from '../account/credential-store.ts';
import { VenueClock } from '../clock/venue-clock.ts';
import type { Config } from '../config/index.ts';
import type { Market } from '../domain/index.ts';
import type { Executor } from '../execution/executor.ts';
import { OrderJournal } from '../execution/journal.ts';
import { accountCapitalOf } from '../stack/account-capital.ts';
import type { Logger } from '../log/logger.ts';
import { credentialRenewal } from '../runtime/bot-credentials.ts';
import { credentialOrderSigner } from '../runtime/credential-order-signer.ts';
import { lookupsUnderBudget } from '../runtime/lookup-permits.ts';
import { openRateBudget, stackRateOf } from '../runtime/rate-budget.ts';
import type { RateBudget } from '../execution/rate-budget/rate-budget.ts';
import { signingDomainOf } from '../runtime/signing-domain.ts';
import { statePaths } from '../runtime/state-paths.ts';
import { TradingLoop } from '../runtime/trading-loop.ts';
import { buildTradingStack } from '../stack/trading-stack.ts';
import { createVenuePoller } from '../runtime/venue-poller.ts';
import type { PreparedStrategy } from '../strategy/prepare-strategies.ts';
import { listMarkets, type VenueConnection } from '../venue/endpoints/index.ts';
import { httpVenueClient, httpVenueRegistrar } from '../venue/http-venue-client.ts';
import type { VenueClient } from '../venue/venue-client.ts';
import { accountFromPrivateKey } from '../venue/signing/index.ts';
import type { ProcessTime } from './scheduler.ts';

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

/** The parts of one process every later part is built on. */
interface Base {
  readonly options: SimBotOptions;
  readonly venueClock: VenueClock;
  readonly read: VenueConnection;
  readonly write: VenueConnection;
  readonly budget: RateBudget;
}

async function baseOf(options: SimBotOptions): Promise<Base> {
  const { config, time, log, now } = options;
  const venueClock = new VenueClock({
    clock: { now, monotonic: time.monotonic },
    log: log.child({ part: 'clock' }),
  });
  options.onClock?.(venueClock);
  const connection = (baseUrl: string): VenueConnection => ({
    baseUrl,
    timeoutMs: config.venue.timeoutMs,
    timing: venueClock.probe,
    fetchImpl: options.fetchImpl,
    startTimer: time.startTimer,
  });
  const budget = await openRateBudget({
    config,
    writeUrl: config.venue.writeUrl,
    walletAddress: accountFromPrivateKey(options.walletKey, 'wallet key').address,
    monotonic: time.monotonic,
    sleep: time.sleep,
    log,
  });
  return {
    options,
    venueClock,
    read: connection(config.venue.readUrl),
    write: connection(config.venue.writeUrl),
    budget,
  };
}

/**
 * The first listing, retried a virtual second apart until it succeeds: `firstListing` gives up
 * after five attempts, and a schedule's start on a faulty network must get through.
 */
function firstMarkets({ options, budget, read }: Base): Promise<Market[]> {
  const { config, time } = options;
  return untilDone(time, async () => {
    const signal = time.timeoutSignal(config.venue.timeoutMs);
    const permit = await budget.take('order', signal);
    try {
      return await listMarkets(read, { signal });
    } finally {
      permit.release();
    }
  });
}

function credentialsOf({ options, budget, write }: Base): CredentialManager {
  const { config, time, log } = options;
  return new CredentialManager({
    store: new CredentialStore(statePaths(config.state.dir, config.venue).credentials),
    venueUrl: write.baseUrl,
    venue: httpVenueRegistrar(write),
    brokerId: config.venue.brokerId,
    subaccountIndex: config.venue.subaccount,
    chainId: config.venue.chainId,
    domain: signingDomainOf(config),
    headerPrefix: config.venue.headerPrefix,
    walletPrivateKey: options.walletKey,
    renewMarginMs: config.venue.renewMarginMs,
    credentialTtlMs: config.venue.credentialTtlMs,
    now: options.now,
    log: log.child({ part: 'account' }),
    takePermit: (signal) => budget.take('order', signal),
    sleep: (ms, signal) => time.sleep(ms, signal ?? new AbortController().signal),
    generateSigningKey: options.generateSigningKey,
  });
}

/** The venue port, its order lookups taking a permit of the budget. */
function venueOf(base: Base, credentials: CredentialManager): VenueClient {
  const { config, time } = base.options;
  const venue = httpVenueClient({ read: base.read, write: base.write, credentials });
  return lookupsUnderBudget(venue, base.budget, () => time.timeoutSignal(config.venue.timeoutMs));
}

/**
 * Starts one bot process on the simulated venue with the parts `quanta run` wires
 * (src/runtime/bot.ts): rate budget, first listing, credentials (registered, reused, renewed),
 * the journal on its SQLite file, the trading stack (strategies, pre-trade checks, executor,
 * dispatcher), recovery, the poller and the trading loop with credential renewal. Every timer
 * is the process's virtual one. Left out: the control server, alerts, the recorder, the state
 * lock (one process at a time by construction) and the trading modes.
 */
export async function startSimBot(options: SimBotOptions): Promise<SimBot> {
  const { config, time, log, now } = options;
  const base = await baseOf(options);
  const markets = await firstMarkets(base);
  const credentials = credentialsOf(base);
  await untilDone(time, () => credentials.ensure(time.timeoutSignal(config.venue.timeoutMs * 3)));
  const file = OrderJournal.open(statePaths(config.state.dir, config.venue).journal, {
    bootId: 'simulation',
    startTimer: time.startTimer,
    now,
  });
  options.opened(file);
  const journal = options.wrapJournal?.(file) ?? file;
  const venue = venueOf(base, credentials);
  const { executor, session } = await buildTradingStack({
    config,
    strategies: options.strategies,
    journal,
    venue,
    signer: credentialOrderSigner(credentials, signingDomainOf(config)),
    budget: base.budget,
    rate: stackRateOf(config),
    killSwitchOn: () => false,
    capitalX18: accountCapitalOf(config),
    now,
    monotonic: time.monotonic,
    clockRefusal: (ttlMs) => base.venueClock.refusal(ttlMs),
    sleep: time.sleep,
    log,
    strategyTimer: time.startTimer,
    drainTimer: time.startTimer,
  });
  const poller = createVenuePoller({
    transport: venue,
    poll: config.poll,
    now,
    monotonic: time.monotonic,
    sleep: time.sleep,
    log,
    budget: base.budget,
  });
  executor.recover(markets);
  const loop = new TradingLoop({
    poller,
    session,
    beforeTrading: credentialRenewal(credentials, config, log, undefined, time.startTimer),
  });
  return {
    journal: file,
    executor,
    credentials,
    clock: base.venueClock,
    run: (signal) => loop.run(signal),
  };
}
