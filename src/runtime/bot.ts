import type { CredentialManager } from '../account/credential-manager.ts';
import { systemClock } from '../clock/clock.ts';
import { VenueClock, type VenueTimeProbe } from '../clock/venue-clock.ts';
import type { Config } from '../config/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { Market } from '../domain/index.ts';
import type { Executor, ExecutorObserver } from '../execution/executor.ts';
import { Flattener, FLATTEN_STRATEGY } from '../execution/flatten.ts';
import { OrderJournal } from '../execution/journal.ts';
import { riskLimitsOf } from '../execution/pre-trade/index.ts';
import { accountCapitalOf } from '../stack/account-capital.ts';
import { MODE_SCOPE, TradingModes } from '../execution/trading-mode.ts';
import type { ProducedIntent } from '../stack/trading-session.ts';
import type { Logger } from '../log/logger.ts';
import { RecordingWriter } from '../market/recording/index.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { checkStrategySymbols } from '../strategy/check-symbols.ts';
import { prepareStrategies, type PreparedStrategy } from '../strategy/prepare-strategies.ts';
import type { StartTimer } from '../clock/timers.ts';
import type { Fill } from '../domain/index.ts';
import type { VenueConnection } from '../venue/endpoints/index.ts';
import { httpVenueClient, type VenueCredentials } from '../venue/http-venue-client.ts';
import type { VenueClient } from '../venue/venue-client.ts';
import { accountFromPrivateKey } from '../venue/signing/index.ts';
import { credentialRenewal, openCredentials, readBotWalletKey } from './bot-credentials.ts';
import { CleanupStack } from './cleanup-stack.ts';
import { BotMetrics } from './control/bot-metrics.ts';
import { BotOperations } from './control/bot-operations.ts';
import { LiveParams, PARAMS_SCOPE, readParamsAudit, restoreLiveParams } from './live-params.ts';
import { LiveFeed } from './control/live-feed.ts';
import { AlertWatch } from './control/alert-watch.ts';
import { Notifier, notifyTargets, type NotifyTarget } from './control/notifier.ts';
import { controlTokens } from './control/control-auth.ts';
import { startControlServer } from './control/control-server.ts';
import { resolveVenue, type VenueEndpoints } from './embedded-venue.ts';
import { firstListing } from './first-listing.ts';
import { preloadHistory } from './warmup-history.ts';
import { keepPrecision } from './kept-precision.ts';
import { credentialOrderSigner } from './credential-order-signer.ts';
import { stopTrading, type RunSummary } from './shutdown.ts';
import { signingDomainOf } from './signing-domain.ts';
import { systemSleep, systemTimeoutSignal } from '../clock/timers.ts';
import { logStartBanner } from './start-banner.ts';
import { lockStateDir } from './state-lock.ts';
import { statePaths } from './state-paths.ts';
import { StatusLine } from './status-line.ts';
import { TradingLoop } from './trading-loop.ts';
import { buildTradingStack, type TradingStack } from '../stack/trading-stack.ts';
import { createVenuePoller } from './venue-poller.ts';
import { lookupsUnderBudget } from './lookup-permits.ts';
import { openRateBudget, stackRateOf } from './rate-budget.ts';
import type { RateBudget } from '../execution/rate-budget/rate-budget.ts';

export type { RunSummary } from './shutdown.ts';

/** Least time between two pushes of the status to the live page (after snapshots). */
const LIVE_PAGE_PUSH_MS = 250;

/** How long shutdown waits for queued alerts (the stop alert) to go out. */
const NOTIFY_CLOSE_MS = 3000;

/** Options of {@link startBot}. */
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

/** A started bot: venue reachable, credentials valid, journal open, strategies initialized. */
export interface Bot {
  readonly venue: VenueEndpoints;
  readonly journal: OrderJournal;
  readonly executor: Executor;
  /** The trading mode (control server, kill-switch file, SIGUSR2). */
  readonly modes: TradingModes;
  /** What the status line and the control server read. */
  readonly operations: BotOperations;
  /** The control server's URL, when `control:` is configured. */
  readonly controlUrl: string | undefined;
  /** Polls and trades until `signal` aborts. */
  run(signal: AbortSignal): Promise<void>;
  /** Drains in-flight orders (bounded by `execution.drainTimeoutMs`), stops strategies, closes everything. */
  shutdown(): Promise<RunSummary>;
}

/**
 * Starts a bot: resolves the venue (starting the embedded paper venue if asked), registers or
 * reuses credentials, opens the journal, loads strategies and recovers orders left in flight.
 * Each step is a named part of `runtime/` that tests and benchmarks can build on its own.
 *
 * @throws QuantaError with the code that decides the exit status (config, credentials, venue).
 */
export async function startBot(options: BotOptions): Promise<Bot> {
  const { config } = options;
  // A control server that anyone on the network could command is refused before anything else.
  if (config.control !== undefined) controlTokens(config.control, options.env, config.source);
  // Webhook URLs named by variable must be there before anything starts (exit 2 otherwise).
  const targets = notifyTargets(config, options.env);
  // Strategy modules and params first: a typo is reported before any venue is contacted.
  const strategies = await prepareStrategies(
    config.strategies,
    [options.projectRoot],
    config.source,
  );
  const venue = await resolveVenue(config);
  const cleanup = new CleanupStack();
  cleanup.push(async () => venue.embedded?.close());
  try {
    return await assembleBot(options, strategies, venue, cleanup, targets);
  } catch (error) {
    await cleanup.close();
    throw error;
  }
}

/**
 * The read and write sides of the venue, each with the configured request timeout, both telling
 * `timing` what their answers say about the venue's clock.
 */
function venueConnections(venue: VenueEndpoints, config: Config, timing: VenueTimeProbe) {
  const timeoutMs = config.venue.timeoutMs;
  return {
    read: { baseUrl: venue.readUrl, timeoutMs, timing } satisfies VenueConnection,
    write: { baseUrl: venue.writeUrl, timeoutMs, timing } satisfies VenueConnection,
  };
}

async function assembleBot(
  options: BotOptions,
  strategies: readonly PreparedStrategy[],
  venue: VenueEndpoints,
  cleanup: CleanupStack,
  targets: readonly NotifyTarget[],
): Promise<Bot> {
  const { config, log } = options;
  const now = options.now ?? systemClock.now;
  const monotonic = options.monotonic ?? systemClock.monotonic;
  const sleep = options.sleep ?? systemSleep;
  // This host's clock against the venue's, from the first answer on (issue 25).
  const venueClock = new VenueClock({
    clock: { now, monotonic },
    log: log.child({ part: 'clock' }),
  });
  // One bot per state.dir, and a state.dir that can be written, before anything is emptied,
  // registered or sent (issue 12).
  const stateLock = lockStateDir(config.state.dir);
  cleanup.push(() => stateLock.release());
  const paths = statePaths(config.state.dir, config.venue);
  const { read, write } = venueConnections(venue, config, venueClock.probe);
  if (venue.embedded !== undefined)
    log.info({ url: venue.embedded.url }, 'embedded paper venue listening');

  const walletKey = readBotWalletKey(config, options.env, paths);
  // One budget for every request of the account from here on (issue 15): the first listing,
  // registrations, orders, polls and lookups; shared through Redis with the other processes of
  // the same venue and wallet when execution.rateBudget says so. It opens before the first
  // request: a bot starting beside others that use the whole budget must not add to it unasked.
  const budget = await openRateBudget({
    config,
    writeUrl: venue.writeUrl,
    walletAddress: accountFromPrivateKey(walletKey, 'wallet key').address,
    monotonic,
    sleep,
    log,
  });
  cleanup.push(() => budget.close());
  // Start-up requests go with an order's priority: nothing trades before them.
  const takePermit = (signal: AbortSignal) => budget.take('order', signal);

  // Market parameters are needed to check the configured symbols and to book recovered fills
  // with the right fees: without them the bot does not start (fail closed).
  // Orders and lookups need the credentials registered below; the listing comes first.
  const late: { credentials?: CredentialManager } = {};
  const http = httpVenueClient({ read, write, credentials: lateCredentials(late) });
  const client = options.venueClient === undefined ? http : options.venueClient(http);
  const initialMarkets = await firstListing(client, log, {
    timeoutMs: config.venue.timeoutMs,
    takePermit,
  });
  checkStrategySymbols(
    strategies,
    new Set(initialMarkets.map((market) => market.symbol)),
    'the venue',
    config.source,
  );
  logStartBanner(log, { config, venue, strategies });

  const credentials = await openCredentials({
    config,
    env: options.env,
    paths,
    venue: client,
    venueUrl: write.baseUrl,
    walletKey,
    takePermit,
    now,
    log,
  });
  late.credentials = credentials;
  const journal = OrderJournal.open(paths.journal);
  cleanup.push(() => journal.close());
  // The listed tick and quantum of the traded markets, for `quanta status` (journal only).
  const traded = new Set(config.strategies.flatMap((strategy) => strategy.markets));
  keepPrecision(
    journal,
    initialMarkets.filter((market) => traded.has(market.symbol)),
  );
  // `record:` keeps the snapshots this bot trades on, so the run can be compared with its
  // backtest afterwards (quanta compare) without a second poller.
  const recorder =
    config.record === undefined
      ? undefined
      : await RecordingWriter.open({
          dir: config.record.dir,
          gzip: config.record.gzip,
          source: venue.embedded === undefined ? venue.readUrl : 'embedded paper venue',
        });
  if (recorder !== undefined) cleanup.push(() => recorder.close());
  const record = (snapshot: Snapshot): void => {
    recorder?.write(snapshot);
    options.onSnapshot?.(snapshot);
  };
  const modes = new TradingModes({
    now,
    log,
    killSwitchFile: config.risk.killSwitchFile,
    store: {
      get: (key) => journal.kvGet(MODE_SCOPE, key),
      set: (key, value) => journal.kvSet(MODE_SCOPE, key, value),
    },
  });
  const notifier =
    targets.length === 0
      ? undefined
      : new Notifier({ targets, bot: config.state.dir, log: log.child({ part: 'notify' }) });
  // Filled in once the parts it reads exist; alerts before that have nothing to say.
  const alertRoute: { watch?: AlertWatch } = {};
  // Metrics only where they can be scraped (the control server).
  const metrics =
    config.control === undefined
      ? undefined
      : new BotMetrics({
          strategies: strategies.map((strategy) => strategy.name),
          markets: [...new Set(config.strategies.flatMap((strategy) => strategy.markets))],
          internalStrategies: [FLATTEN_STRATEGY],
        });
  // Live params changed before a restart stay in effect (issue 30).
  const paramsStore = {
    list: () => journal.kvList(PARAMS_SCOPE),
    set: (key: string, value: string) => journal.kvSet(PARAMS_SCOPE, key, value),
  };
  const restored = restoreLiveParams(
    strategies,
    (index) => config.strategies[index]?.params,
    readParamsAudit(paramsStore),
    log,
  );
  // The poller's reads and the orders' 429s are counted where metrics are on.
  const venueClient = metrics === undefined ? client : metrics.venueClient(client);
  const stack = await httpTradingStack({
    options,
    strategies: restored.strategies,
    journal,
    credentials,
    venueClient,
    timeoutMs: config.venue.timeoutMs,
    now,
    monotonic,
    venueClock,
    modes,
    metrics,
    budget,
    alerts: notifier === undefined ? undefined : alertRoute,
  });
  const { dispatcher, executor, session } = stack;
  const poller = createVenuePoller({
    transport: venueClient,
    poll: config.poll,
    now,
    monotonic,
    sleep,
    log,
    budget,
  });

  executor.recover(initialMarkets);
  if (options.warmup !== undefined)
    await preloadHistory({
      dir: options.warmup,
      markets: initialMarkets,
      strategies: restored.strategies,
      session,
      now: now(),
      log,
    });
  const symbolOf = symbolLookup(initialMarkets);
  const liveParams = new LiveParams({
    strategies: restored.strategies,
    raw: restored.raw,
    store: paramsStore,
    target: session,
    now,
    log: log.child({ part: 'params' }),
  });
  const operations = new BotOperations({
    params: liveParams,
    config,
    now,
    executor,
    dispatcher,
    session,
    poller,
    journal,
    credentials,
    modes,
    symbolOf,
    rateBudget: () => budget.status(),
    clock: () => venueClock.report(),
    ...(metrics === undefined ? {} : { metrics: () => metrics.exposition() }),
    ...(config.control === undefined
      ? {}
      : {
          feed: new LiveFeed({
            now: monotonic,
            minIntervalMs: LIVE_PAGE_PUSH_MS,
            log: log.child({ part: 'control' }),
          }),
        }),
  });
  modes.onChange(() => operations.pushNow());
  metrics?.attach({
    stats: () => executor.stats(),
    account: () => operations.accountValue(),
    queueDepth: () => dispatcher.pending,
    pollFailuresInRow: () => poller.failures,
    lastGoodPollAgeMs: () => poller.lastGoodAgeMs(),
    credentialsExpireAt: () => credentials.current().expiryTs,
    pausedStrategies: () => session.pausedStrategies(),
    strategyTimeouts: () => session.strategyTimeouts(),
    strategyErrors: () => session.strategyErrors(),
    mode: () => modes.mode,
    ready: () => operations.notReadyReasons().length === 0,
    rateBudget: () => budget.status(),
    clock: () => venueClock.report(),
  });
  if (notifier !== undefined) {
    const watch = new AlertWatch({
      notify: (alert) => notifier.notify(alert),
      wantsFills: notifier.wantsFills,
      now,
      pausedStrategies: () => session.pausedStrategies(),
      pauseReasonOf: (name) => session.pauseReasonOf(name),
      refusals: () => executor.stats().refusals,
      symbolOf,
      staleAfterMs: config.poll.staleAfterMs,
    });
    alertRoute.watch = watch;
    modes.onChange((change) => watch.modeChanged(change));
  }
  const flattener = new Flattener({
    executor,
    modes,
    strategies: session.strategyNames(),
    limits: riskLimitsOf(config.risk),
    inFlight: () => dispatcher.pending,
    log: log.child({ part: 'flatten' }),
  });
  const status = new StatusLine({
    // Its spacing is a duration.
    now: monotonic,
    log,
    executor,
    poller,
    dispatcher,
    session,
    credentialsExpireAt: () => credentials.current().expiryTs,
    mode: () => modes.mode,
    budget,
  });
  const loop = new TradingLoop({
    poller,
    // The strategies trade, then the flatten mode (when on) closes what is open.
    session: {
      onSnapshot: async (snapshot) => {
        await session.onSnapshot(snapshot);
        await flattener.onSnapshot(snapshot);
      },
    },
    onSnapshot: recorder === undefined ? options.onSnapshot : record,
    beforeTrading: credentialRenewal(credentials, config, log, (error) => {
      operations.renewalEnded(error);
      alertRoute.watch?.renewal(error);
    }),
    afterTrading: (snapshot, snapshots) => {
      operations.traded(snapshot, snapshots);
      alertRoute.watch?.traded(snapshot);
      status.maybeLog(snapshot, snapshots);
    },
  });
  const control =
    config.control === undefined
      ? undefined
      : await startControlServer({
          host: config.control.host,
          port: config.control.port,
          tokens: controlTokens(config.control, options.env, config.source),
          handlers: operations.handlers(),
          log: log.child({ part: 'control' }),
        });
  if (control !== undefined) cleanup.push(() => control.close());
  alertRoute.watch?.started({
    strategies: session.strategyNames(),
    venue: venue.embedded === undefined ? venue.writeUrl : 'embedded paper venue',
    ...(control === undefined ? {} : { control: control.url }),
  });

  return {
    venue,
    journal,
    executor,
    modes,
    operations,
    controlUrl: control?.url,
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
        symbolOf,
        snapshots: loop.snapshots,
        lastSnapshot: operations.lastSnapshot,
      });
      alertRoute.watch?.stopped({
        snapshots: summary.snapshots,
        drained: summary.drained,
        unresolvedOrders: summary.stats.unresolvedOrders,
        positions: summary.positions,
      });
      // The stop alert (and what is still queued) gets a moment to go out; never longer.
      await notifier?.close(NOTIFY_CLOSE_MS);
      await cleanup.close();
      return summary;
    },
  };
}

/** The trading stack of a bot: orders signed with its credentials and sent over HTTP. */
async function httpTradingStack(parts: {
  options: BotOptions;
  strategies: readonly PreparedStrategy[];
  journal: OrderJournal;
  credentials: CredentialManager;
  venueClient: VenueClient;
  /** A lookup's wait for a permit (`venue.timeoutMs`). */
  timeoutMs: number;
  now: () => number;
  monotonic: () => number;
  venueClock: VenueClock;
  modes: TradingModes;
  metrics: BotMetrics | undefined;
  budget: RateBudget;
  alerts: { readonly watch?: AlertWatch } | undefined;
}): Promise<TradingStack> {
  const { options, credentials, venueClient, modes, metrics, alerts, budget } = parts;
  const { config } = options;
  const onIntent =
    metrics === undefined
      ? options.onIntent
      : (produced: ProducedIntent) => {
          metrics.intent(produced.strategy);
          options.onIntent?.(produced);
        };
  return buildTradingStack({
    config,
    strategies: parts.strategies,
    journal: parts.journal,
    // Lookups wait for a permit behind the orders, within the request timeout.
    venue: lookupsUnderBudget(venueClient, budget, () => systemTimeoutSignal(parts.timeoutMs)),
    signer: credentialOrderSigner(credentials, signingDomainOf(config)),
    budget,
    rate: stackRateOf(config),
    // The kill-switch file is read by the modes: its content names the mode (empty: halt).
    killSwitchOn: () => false,
    tradingMode: () => modes.mode,
    capitalX18: accountCapitalOf(config),
    now: parts.now,
    monotonic: parts.monotonic,
    clockRefusal: (ttlMs) => parts.venueClock.refusal(ttlMs),
    sleep: options.sleep ?? systemSleep,
    log: options.log,
    ...(onIntent === undefined ? {} : { onIntent }),
    ...(metrics === undefined
      ? {}
      : { onAttempt: (orderId: number, attempt: number) => metrics.attempt(orderId, attempt) }),
    ...(metrics === undefined && alerts === undefined
      ? {}
      : {
          observer: {
            dispatched: (record, roundTripMs) =>
              metrics?.observer.dispatched?.(record, roundTripMs),
            updated: (record) => {
              metrics?.observer.updated?.(record);
              alerts?.watch?.orderUpdated(record);
            },
          } satisfies ExecutorObserver,
        }),
    ...(alerts === undefined
      ? {}
      : { onFill: (strategy: string, fill: Fill) => alerts.watch?.fill(strategy, fill) }),
    ...(options.strategyTimer === undefined ? {} : { strategyTimer: options.strategyTimer }),
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
  };
}

/** A market's symbol as listed at start (its id when it was not listed). */
function symbolLookup(markets: readonly Market[]): (marketId: number) => string {
  const symbols = new Map(markets.map((market) => [market.id, market.symbol]));
  return (marketId) => symbols.get(marketId) ?? String(marketId);
}
