import type { Hex } from 'viem';
import type { CredentialManager } from '../account/credential-manager.ts';
import type { StartTimer } from '../clock/timers.ts';
import { VenueClock } from '../clock/venue-clock.ts';
import type { Config } from '../config/index.ts';
import type { Market } from '../domain/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { RateBudget } from '../execution/rate-budget/rate-budget.ts';
import { pauseAllSendersMs } from '../execution/retry-policy.ts';
import type { Logger } from '../log/logger.ts';
import type { Poller } from '../market/poller.ts';
import { accountCapitalOf } from '../stack/account-capital.ts';
import {
  buildTradingStack,
  type TradingStack,
  type TradingStackOptions,
} from '../stack/trading-stack.ts';
import type { PreparedStrategy } from '../strategy/prepare-strategies.ts';
import type { VenueConnection } from '../venue/endpoints/index.ts';
import { httpVenueClient, type VenueCredentials } from '../venue/http-venue-client.ts';
import type { VenueClient } from '../venue/venue-client.ts';
import { addressOfPrivateKey } from '../venue/signing/index.ts';
import { credentialRenewal } from './bot-credentials.ts';
import { CleanupStack } from './cleanup-stack.ts';
import { credentialOrderSigner } from './credential-order-signer.ts';
import { lookupsUnderBudget } from './lookup-permits.ts';
import { openRateBudget, stackRateOf } from './rate-budget.ts';
import { signingDomainOf } from './signing-domain.ts';
import { TradingLoop, type TradingLoopOptions } from './trading-loop.ts';
import { marketsInPlay, tradedQuoteScope } from './quote-scope.ts';
import { createVenuePoller } from './venue-poller.ts';

/**
 * The clocks and timers a bot process runs on: the system's under `quanta run`
 * (src/runtime/bot.ts), one simulated process's virtual ones under the simulator
 * (src/simulation/sim-bot.ts).
 */
export interface BotTime {
  readonly now: () => number;
  readonly monotonic: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly timeoutSignal: (ms: number) => AbortSignal;
  /** Request, journal and renewal deadline timers; default the real ones (clock/timers.ts). */
  readonly startTimer?: StartTimer;
  /** The strategies' `onSnapshot` deadline timers; default the real one. */
  readonly strategyTimer?: StartTimer;
  /** The dispatcher's drain deadline at shutdown; default a real one. */
  readonly drainTimer?: StartTimer;
}

/** How a mode starts: what differs between `quanta run` and a simulated process. */
export interface BotStartUp {
  /** The venue's markets at start (with this mode's retries), checked against the config. */
  listMarkets(client: VenueClient, budget: RateBudget): Promise<Market[]>;
  /** The order credentials, registered or reused, valid when this resolves. */
  credentials(parts: {
    readonly client: VenueClient;
    readonly write: VenueConnection;
    readonly budget: RateBudget;
    readonly walletKey: Hex;
  }): Promise<CredentialManager>;
  /** The journal the bot's parts use (its cleanup pushed by the caller when it owns the file). */
  openJournal(): OrderJournal;
}

/** What {@link openBotCore} needs. */
export interface BotCoreOptions {
  readonly config: Config;
  readonly log: Logger;
  readonly time: BotTime;
  readonly venue: { readonly readUrl: string; readonly writeUrl: string };
  readonly walletKey: Hex;
  readonly startUp: BotStartUp;
  /** Closed by the caller when the bot stops or fails to start. */
  readonly cleanup: CleanupStack;
  /** The transport of both venue connections; default `fetch` (the simulator's network). */
  readonly fetchImpl?: typeof fetch;
  /** Told the bot's clock check as soon as it exists. */
  readonly onClock?: (clock: VenueClock) => void;
  /** Wraps the HTTP venue client every read, order and lookup goes through. */
  readonly venueClient?: (http: VenueClient) => VenueClient;
}

/** The parts of a bot process every mode has once it started: venue, budget, credentials, journal. */
export interface BotCore {
  readonly options: BotCoreOptions;
  readonly venueClock: VenueClock;
  readonly budget: RateBudget;
  readonly client: VenueClient;
  readonly markets: Market[];
  readonly credentials: CredentialManager;
  readonly journal: OrderJournal;
}

/**
 * The start of every bot process (`quanta run` and the simulator alike): the venue clock check,
 * the account's rate budget (opened before the first request: a bot starting beside others
 * that use the whole budget must not add to it unasked, issue 15), the venue client, the first
 * listing, the credentials and the journal, in that order.
 */
export async function openBotCore(options: BotCoreOptions): Promise<BotCore> {
  const { config, log, time, startUp } = options;
  // This host's clock against the venue's, from the first answer on (issue 25).
  const venueClock = new VenueClock({
    clock: { now: time.now, monotonic: time.monotonic },
    log: log.child({ part: 'clock' }),
  });
  options.onClock?.(venueClock);
  const budget = await openRateBudget({
    config,
    writeUrl: options.venue.writeUrl,
    walletAddress: addressOfPrivateKey(options.walletKey, 'wallet key'),
    monotonic: time.monotonic,
    sleep: time.sleep,
    log,
  });
  options.cleanup.push(() => budget.close());
  const connection = (baseUrl: string): VenueConnection => ({
    baseUrl,
    timeoutMs: config.venue.timeoutMs,
    timing: venueClock.probe,
    now: time.now,
    // A 429 to any request (a poll, a lookup, a registration, an order) pauses every sender of
    // the account for its Retry-After: each takes its permit from this budget.
    answeredError: (error) => {
      const pauseMs = pauseAllSendersMs(error);
      if (pauseMs !== undefined) budget.pause(pauseMs);
    },
    ...(options.fetchImpl === undefined ? {} : { fetchImpl: options.fetchImpl }),
    ...(time.startTimer === undefined ? {} : { startTimer: time.startTimer }),
  });
  const read = connection(options.venue.readUrl);
  const write = connection(options.venue.writeUrl);
  // Orders and lookups need the credentials registered below; the listing comes first.
  const late: { credentials?: CredentialManager } = {};
  const http = httpVenueClient({ read, write, credentials: lateCredentials(late) });
  const client = options.venueClient === undefined ? http : options.venueClient(http);
  const markets = await startUp.listMarkets(client, budget);
  const walletKey = options.walletKey;
  const credentials = await startUp.credentials({ client, write, budget, walletKey });
  late.credentials = credentials;
  const journal = startUp.openJournal();
  return { options, venueClock, budget, client, markets, credentials, journal };
}

/** What a mode adds to the trading stack (metrics, alerts, modes); the simulator adds nothing. */
export type StackAdditions = Partial<
  Pick<
    TradingStackOptions,
    'tradingMode' | 'observer' | 'onFill' | 'onAttempt' | 'onIntent' | 'strategyTimer'
  >
>;

/** The trading parts of a started bot: the stack and the poller. */
export interface BotTrading {
  readonly stack: TradingStack;
  readonly poller: Poller;
}

/**
 * The trading stack (buildTradingStack, one wiring for every mode) over the core's journal,
 * credentials and budget, the poller reading `client` (the core's unless a mode counts its
 * reads). The orders left in flight are recovered by {@link recoverOrders}.
 */
export async function startTrading(
  core: BotCore,
  strategies: readonly PreparedStrategy[],
  client: VenueClient,
  additions: StackAdditions,
): Promise<BotTrading> {
  const { config, log, time } = core.options;
  const stack = await buildTradingStack({
    config,
    strategies,
    journal: core.journal,
    // Lookups wait for a permit behind the orders, within the request timeout.
    venue: lookupsUnderBudget(client, core.budget, () =>
      time.timeoutSignal(config.venue.timeoutMs),
    ),
    signer: credentialOrderSigner(core.credentials, signingDomainOf(config)),
    budget: core.budget,
    rate: stackRateOf(config),
    // The kill-switch file is read by the modes: its content names the mode (empty: halt).
    killSwitchOn: () => false,
    capitalX18: accountCapitalOf(config),
    now: time.now,
    monotonic: time.monotonic,
    venueClock: core.venueClock,
    credentialRefusal: (queuedMs) => core.credentials.signingRefusal(queuedMs),
    sleep: time.sleep,
    log,
    ...(time.strategyTimer === undefined ? {} : { strategyTimer: time.strategyTimer }),
    ...(time.drainTimer === undefined ? {} : { drainTimer: time.drainTimer }),
    ...additions,
  });
  const poller = createVenuePoller({
    transport: client,
    poll: config.poll,
    now: time.now,
    monotonic: time.monotonic,
    sleep: time.sleep,
    log,
    budget: core.budget,
    ...(config.poll.quoteMarkets === 'traded'
      ? {
          quoteScope: tradedQuoteScope({
            symbols: strategies.flatMap((strategy) => strategy.symbols),
            inPlay: () => marketsInPlay(stack.executor.positions, core.journal),
          }),
        }
      : {}),
  });
  return { stack, poller };
}

/**
 * Recovers the orders a previous run left in flight (resent or looked up in the background),
 * booking fills with the listed markets' fees. Its own step, called where each mode called it
 * before the split: the simulator's traces depend on when the resends start.
 */
export function recoverOrders(core: BotCore, trading: BotTrading): void {
  trading.stack.executor.recover(core.markets);
}

/** What a mode hangs on the trading loop (the live bot: flatten, recorder, status, alerts). */
export interface LoopHooks {
  readonly session?: TradingLoopOptions['session'];
  readonly onSnapshot?: TradingLoopOptions['onSnapshot'];
  readonly afterTrading?: TradingLoopOptions['afterTrading'];
  /** Told how each credential renewal ended (undefined: it succeeded). */
  readonly renewalEnded?: (error: unknown) => void;
}

/** The loop that polls, renews the credentials when due, and trades each snapshot. */
export function tradingLoop(core: BotCore, trading: BotTrading, hooks: LoopHooks): TradingLoop {
  const { config, log, time } = core.options;
  return new TradingLoop({
    poller: trading.poller,
    session: hooks.session ?? trading.stack.session,
    onSnapshot: hooks.onSnapshot,
    beforeTrading: credentialRenewal(core.credentials, config, log, {
      onAttempt: hooks.renewalEnded,
      startTimer: time.startTimer,
      sleep: time.sleep,
    }),
    afterTrading: hooks.afterTrading,
  });
}

/**
 * The credentials of `late` once registered: the venue client is built before registration (the
 * first listing needs no credentials), its order calls come after.
 */
function lateCredentials(late: { readonly credentials?: CredentialManager }): VenueCredentials {
  const registered = (): CredentialManager => {
    if (late.credentials === undefined)
      throw new QuantaError(
        ErrorCodes.CREDENTIAL_STORE,
        'no credentials yet: order call before registration',
      );
    return late.credentials;
  };
  return {
    current: () => registered().current(),
    forSigner: (signer) => registered().forSigner(signer),
    refused: (signer) => registered().refused(signer),
    isRefused: (signer) => registered().isRefused(signer),
    forLookup: () => registered().forLookup(),
  };
}
