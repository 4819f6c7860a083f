import { systemClock } from '../clock/clock.ts';
import { systemSleep, systemTimeoutSignal } from '../clock/timers.ts';
import type { Market } from '../domain/index.ts';
import { Flattener } from '../execution/flatten.ts';
import { OrderJournal } from '../execution/journal.ts';
import { riskLimitsOf } from '../execution/pre-trade/index.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { checkStrategySymbols } from '../strategy/check-symbols.ts';
import type { PreparedStrategy } from '../strategy/prepare-strategies.ts';
import { openCredentials, readBotWalletKey } from './bot-credentials.ts';
import {
  openBotCore,
  recoverOrders,
  startTrading,
  tradingLoop,
  type BotCore,
  type BotStartUp,
  type BotTime,
  type BotTrading,
} from './bot-core.ts';
import { botHandle, type BotWithParts } from './bot-handle.ts';
import type { BotOptions } from './bot-options.ts';
import type { CleanupStack } from './cleanup-stack.ts';
import { controlTokens } from './control/control-auth.ts';
import { startControlServer } from './control/control-server.ts';
import type { BotOperations } from './control/bot-operations.ts';
import type { NotifyTarget } from './control/notifier.ts';
import type { VenueEndpoints } from './embedded-venue.ts';
import { firstListing } from './first-listing.ts';
import { liveOperations, watchAlerts } from './live-operations.ts';
import { liveAdditions, openLiveState, type LiveState } from './live-state.ts';
import { logStartBanner } from './start-banner.ts';
import { lockStateDir } from './state-lock.ts';
import { statePaths, type StatePaths } from './state-paths.ts';
import { StatusLine } from './status-line.ts';
import type { TradingLoop } from './trading-loop.ts';
import { preloadHistory } from './warmup-history.ts';

/** The signal of a wait nothing cancels. */
const UNCANCELLED = new AbortController().signal;

/** The system's clocks and timers, or the ones a test injects through {@link BotOptions}. */
function botTimeOf(options: BotOptions): BotTime {
  return {
    now: options.now ?? systemClock.now,
    monotonic: options.monotonic ?? systemClock.monotonic,
    sleep: options.sleep ?? systemSleep,
    timeoutSignal: systemTimeoutSignal,
    ...(options.strategyTimer === undefined ? {} : { strategyTimer: options.strategyTimer }),
  };
}

/**
 * How `quanta run` starts: the first listing retried briefly and checked against the configured
 * symbols, the credentials registered or reused, the journal on its file. Waits between attempts
 * (backoff, `Retry-After`) are the bot's sleep; each attempt's deadline is a real timer.
 */
function liveStartUp(
  options: BotOptions,
  strategies: readonly PreparedStrategy[],
  venue: VenueEndpoints,
  paths: StatePaths,
  cleanup: CleanupStack,
): BotStartUp {
  const { config, log } = options;
  const botSleep = options.sleep ?? systemSleep;
  return {
    async listMarkets(client, budget) {
      // Market parameters are needed to check the configured symbols and to book recovered
      // fills with the right fees: without them the bot does not start (fail closed). The
      // request goes with an order's priority: nothing trades before it.
      const markets = await firstListing(client, log, {
        timeoutMs: config.venue.timeoutMs,
        sleep: (ms) => botSleep(ms, UNCANCELLED),
        takePermit: (signal) => budget.take('order', signal),
      });
      const listed = new Set(markets.map((market) => market.symbol));
      checkStrategySymbols(strategies, listed, 'the venue', config.source);
      logStartBanner(log, { config, venue, strategies });
      return markets;
    },
    credentials: ({ client, write, budget, walletKey }) =>
      openCredentials({
        config,
        env: options.env,
        paths,
        venue: client,
        venueUrl: write.baseUrl,
        walletKey,
        takePermit: (signal) => budget.take('order', signal),
        now: options.now ?? systemClock.now,
        monotonic: options.monotonic ?? systemClock.monotonic,
        // The registrations' 429 waits, at start and at every renewal: the bot's sleep (a test's
        // injected one too). A registration without a signal of its own waits uncancelled.
        sleep: (ms, signal) => botSleep(ms, signal ?? UNCANCELLED),
        log,
      }),
    openJournal() {
      const journal = OrderJournal.open(paths.journal);
      cleanup.push(() => journal.close());
      return journal;
    },
  };
}

/**
 * The bot `quanta run` starts: the core every mode shares (src/runtime/bot-core.ts) and, around
 * it, what a live bot adds: the state lock, the recorder, modes, alerts, metrics, live params,
 * warm-up, the status line, flatten and the control server.
 */
export async function assembleBot(
  options: BotOptions,
  strategies: readonly PreparedStrategy[],
  venue: VenueEndpoints,
  cleanup: CleanupStack,
  targets: readonly NotifyTarget[],
): Promise<BotWithParts> {
  const { config, log } = options;
  // One bot per state.dir, and a state.dir that can be written, before anything is emptied,
  // registered or sent (issue 12).
  const stateLock = lockStateDir(config.state.dir);
  cleanup.push(() => stateLock.release());
  const paths = statePaths(config.state.dir, config.venue);
  if (venue.embedded !== undefined)
    log.info({ url: venue.embedded.url }, 'embedded paper venue listening');
  const core = await openBotCore({
    config,
    log,
    time: botTimeOf(options),
    venue,
    walletKey: readBotWalletKey(config, options.env, paths),
    startUp: liveStartUp(options, strategies, venue, paths, cleanup),
    cleanup,
    ...(options.venueClient === undefined ? {} : { venueClient: options.venueClient }),
  });
  const state = await openLiveState(options, core, strategies, { venue, targets, cleanup });
  // The poller's reads and the orders' 429s are counted where metrics are on.
  const client = state.metrics === undefined ? core.client : state.metrics.venueClient(core.client);
  const trading = await startTrading(
    core,
    state.restored.strategies,
    client,
    liveAdditions(options, state),
  );
  const symbolOf = symbolLookup(core.markets);
  // Before recovery: its lookups can meet the venue refusing a key, an alert (README).
  watchAlerts(config, core, trading, state, symbolOf);
  recoverOrders(core, trading);
  if (options.warmup !== undefined)
    await preloadHistory({
      dir: options.warmup,
      markets: core.markets,
      strategies: state.restored.strategies,
      session: trading.stack.session,
      now: core.options.time.now(),
      log,
    });
  const operations = liveOperations(core, trading, state, symbolOf);
  const loop = liveLoop(options, core, trading, state, operations);
  const controlUrl = await startControl(options, operations, cleanup);
  state.alertRoute.watch?.started({
    strategies: trading.stack.session.strategyNames(),
    venue: venue.embedded === undefined ? venue.writeUrl : 'embedded paper venue',
    ...(controlUrl === undefined ? {} : { control: controlUrl }),
  });
  return botHandle({
    config,
    venue,
    journal: core.journal,
    trading,
    modes: state.modes,
    operations,
    loop,
    controlUrl,
    symbolOf,
    notifier: state.notifier,
    alerts: state.alertRoute,
    cleanup,
  });
}

/** The trading loop of a live bot: strategies, then flatten; recorder, status line and alerts. */
function liveLoop(
  options: BotOptions,
  core: BotCore,
  trading: BotTrading,
  state: LiveState,
  operations: BotOperations,
): TradingLoop {
  const { config, log, time } = core.options;
  const { executor, dispatcher, session } = trading.stack;
  const { modes, recorder, alertRoute } = state;
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
    now: time.monotonic,
    log,
    executor,
    poller: trading.poller,
    dispatcher,
    session,
    credentialsExpireAt: () => core.credentials.current().expiryTs,
    mode: () => modes.mode,
    budget: core.budget,
  });
  // `record:` keeps the snapshots this bot trades on, so the run can be compared with its
  // backtest afterwards (quanta compare) without a second poller.
  const record = (snapshot: Snapshot): void => {
    recorder?.write(snapshot);
    options.onSnapshot?.(snapshot);
  };
  return tradingLoop(core, trading, {
    // The strategies trade, then the flatten mode (when on) closes what is open.
    session: {
      onSnapshot: async (snapshot) => {
        await session.onSnapshot(snapshot);
        await flattener.onSnapshot(snapshot);
      },
    },
    onSnapshot: recorder === undefined ? options.onSnapshot : record,
    renewalEnded: (error) => {
      operations.renewalEnded(error);
      alertRoute.watch?.renewal(error);
    },
    afterTrading: (snapshot, snapshots) => {
      operations.traded(snapshot, snapshots);
      alertRoute.watch?.traded(snapshot);
      status.maybeLog(snapshot, snapshots);
    },
  });
}

/** The control server when `control:` is configured; its URL. */
async function startControl(
  options: BotOptions,
  operations: BotOperations,
  cleanup: CleanupStack,
): Promise<string | undefined> {
  const { config, log } = options;
  if (config.control === undefined) return undefined;
  const control = await startControlServer({
    host: config.control.host,
    port: config.control.port,
    tokens: controlTokens(config.control, options.env, config.source),
    handlers: operations.handlers(),
    log: log.child({ part: 'control' }),
  });
  cleanup.push(() => control.close());
  return control.url;
}

/** A market's symbol as listed at start (its id when it was not listed). */
function symbolLookup(markets: readonly Market[]): (marketId: number) => string {
  const symbols = new Map(markets.map((market) => [market.id, market.symbol]));
  return (marketId) => symbols.get(marketId) ?? String(marketId);
}
