import type { Config } from '../config/index.ts';
import type { Logger } from '../log/logger.ts';
import { loadStrategyHosts } from '../strategy/load-hosts.ts';
import type { PositionFacts, StrategyHost } from '../strategy/strategy-host.ts';
import type { PreparedStrategy } from '../strategy/prepare-strategies.ts';
import type { StartTimer } from '../clock/timers.ts';
import type { VenueClockCheck } from '../clock/venue-clock.ts';
import type { VenueClient } from '../venue/venue-client.ts';
import { Dispatcher } from '../execution/dispatcher.ts';
import type { RateBudget } from '../execution/rate-budget/rate-budget.ts';
import { Executor, type ExecutorObserver, type OrderSigner } from '../execution/executor.ts';
import type { OrderJournal } from '../execution/journal.ts';
import { openOrderView } from '../execution/open-order-view.ts';
import {
  accountViewOf,
  marginFactsOf,
  riskLimitsOf,
  StrategyShares,
} from '../execution/pre-trade/index.ts';
import { ExitBook, EXIT_TAG_PREFIX } from '../execution/exits/exit-book.ts';
import { TradingSession, type ProducedIntent } from './trading-session.ts';
import type { TradingMode } from '../execution/trading-mode.ts';
import type { Fill } from '../domain/index.ts';

/** What differs between live/paper and backtest; everything else is built the same way. */
export interface TradingStackOptions {
  readonly config: Pick<Config, 'risk' | 'execution'>;
  /** Strategies loaded and validated beforehand (`prepareStrategies`). */
  readonly strategies: readonly PreparedStrategy[];
  readonly journal: OrderJournal;
  /**
   * The venue orders are sent to and looked up at: HTTP live and paper, the simulation in a
   * backtest, with whatever wrappers the caller composed around it.
   */
  readonly venue: VenueClient;
  readonly signer: OrderSigner;
  /**
   * The bot's rate budget, shared with its polls and lookups (`openRateBudget`). Absent: the
   * dispatcher's own budget of `rate.requests` per `rate.perMs` (backtests: `Infinity`).
   */
  readonly budget?: RateBudget;
  /** Send rate; backtests pass `Infinity` requests (virtual time) and one attempt. */
  readonly rate: {
    readonly requests: number;
    readonly perMs: number;
    readonly concurrency: number;
    readonly maxAttempts: number;
    /**
     * Orders per `perMs` the strategies share, each `1 / strategies` of it (the budget minus
     * the polls' reserve), when there are two or more; absent: no share (backtests).
     */
    readonly orderShare?: number;
  };
  readonly killSwitchOn: () => boolean;
  /** The trading mode asked before every intent (the bot's `TradingModes`); default `trading`. */
  readonly tradingMode?: () => TradingMode;
  /** Told about orders as they progress (metrics, alerts). */
  readonly observer?: ExecutorObserver;
  /** Told about every fill after the strategy that owns it (alerts). */
  readonly onFill?: (strategy: string, fill: Fill) => void;
  /** Told about every send attempt (the first is 1; metrics count the retries). */
  readonly onAttempt?: (orderId: number, attempt: number) => void;
  /** The wall clock (order expiries, journal and snapshot times, `ctx.now`). */
  readonly now: () => number;
  /** Durations and waits (`Clock.monotonic`); default `now` (backtests: virtual time). */
  readonly monotonic?: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly log: Logger;
  readonly onIntent?: (produced: ProducedIntent) => void;
  /** Starts the strategies' `onSnapshot` deadline timers; default the real one (clock/timers.ts). */
  readonly strategyTimer?: StartTimer;
  /** Starts the dispatcher's drain deadline at shutdown; default a real one (clock/timers.ts). */
  readonly drainTimer?: StartTimer;
  /** This host's clock against the venue's (`VenueClock`); absent: no check, the venue's clock. */
  readonly venueClock?: VenueClockCheck;
  /** Why no credential can carry an order now (`CredentialManager.signingRefusal`); absent: no check. */
  readonly credentialRefusal?: (queuedMs: number) => string | undefined;
  /** Told about every `ctx.plot` point (the backtest draws them; live logs them at debug). */
  readonly onPlot?: (instance: string, name: string, value: string, at: number) => void;
  /** Keep each strategy's candles and indicator values for the report (`StrategyHost.barCharts`). */
  readonly chartBars?: boolean;
  /**
   * The base of the account's equity (`accountCapitalOf`: `risk.capital`, the embedded paper
   * venue's `paper.balance`; a backtest falls back to its starting capital); absent: the account
   * is not known, `ctx.equity()` is undefined, `risk` sizing is refused and every order that adds
   * exposure is refused `MARGIN_UNKNOWN`.
   */
  readonly capitalX18?: bigint | undefined;
}

/** The dispatcher, executor and trading session of one bot or backtest. */
export interface TradingStack {
  readonly dispatcher: Dispatcher;
  readonly executor: Executor;
  readonly session: TradingSession;
}

/**
 * Builds the order path (dispatcher → executor) and the strategies around it (hosts → session)
 * from a config. Live, paper and backtest all call this, so they run the same sizing, checks,
 * journal and strategy plumbing, differing only in transport, signer, clock and rate.
 *
 */
export async function buildTradingStack(options: TradingStackOptions): Promise<TradingStack> {
  const { config, journal, now, log } = options;
  const dispatcher = dispatcherOf(options);
  // The session needs the executor and the executor reports fills to the session.
  const fillRoute: { session?: TradingSession } = {};
  const executor = new Executor({
    journal,
    dispatcher,
    signer: options.signer,
    limits: riskLimitsOf(config.risk),
    killSwitchOn: options.killSwitchOn,
    ...(options.tradingMode === undefined ? {} : { tradingMode: options.tradingMode }),
    ...(options.observer === undefined ? {} : { observer: options.observer }),
    now,
    ...(options.monotonic === undefined ? {} : { monotonic: options.monotonic }),
    log: log.child({ part: 'executor' }),
    orderTtlMs: config.execution.orderTtlMs,
    capitalX18: options.capitalX18,
    lookupOrder: (venueOrderId) => options.venue.getOrder(venueOrderId),
    ...(options.venue.findOrder === undefined ? {} : { findOrder: options.venue.findOrder }),
    ...(options.venueClock === undefined ? {} : { venueClock: options.venueClock }),
    ...(options.credentialRefusal === undefined
      ? {}
      : { credentialRefusal: options.credentialRefusal }),
    onFill: async (strategy, fill) => {
      await fillRoute.session?.onFill(strategy, fill);
      options.onFill?.(strategy, fill);
    },
    // One strategy has nobody to take down (the polls keep their reserve in the budget): its
    // share is the whole budget, and the send backlog check already refuses what cannot leave
    // in time. Shares start with the second strategy.
    ...(options.rate.orderShare === undefined || options.strategies.length < 2
      ? {}
      : {
          shares: new StrategyShares({
            strategies: options.strategies.map((strategy) => strategy.name),
            requests: options.rate.orderShare,
            perMs: options.rate.perMs,
            // A window of the budget: measured on the monotonic clock, as the budget is.
            now: options.monotonic ?? now,
            log: log.child({ part: 'executor' }),
          }),
        }),
  });
  const exits = new ExitBook({
    store: journal,
    positionOf: (instance, marketId) => executor.strategyPositions(instance).get(marketId),
    exitPending: (instance, marketId) =>
      executor
        .openOrders(instance)
        .some(
          (order) => order.marketId === marketId && order.tag?.startsWith(EXIT_TAG_PREFIX) === true,
        ),
    now,
    log: log.child({ part: 'exits' }),
  });
  const hosts = await hostsOf(options, executor, exits);
  const session = new TradingSession({
    hosts,
    executor,
    log,
    ...(options.onIntent === undefined ? {} : { onIntent: options.onIntent }),
    exits,
  });
  fillRoute.session = session;
  return { dispatcher, executor, session };
}

/** The dispatcher of the stack: the venue's order path under the rate settings. */
function dispatcherOf(options: TradingStackOptions): Dispatcher {
  const { journal, now, log } = options;
  return new Dispatcher({
    submitter: options.venue,
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    requests: options.rate.requests,
    perMs: options.rate.perMs,
    concurrency: options.rate.concurrency,
    maxAttempts: options.rate.maxAttempts,
    now,
    ...(options.monotonic === undefined ? {} : { monotonic: options.monotonic }),
    sleep: options.sleep,
    ...(options.drainTimer === undefined ? {} : { startTimer: options.drainTimer }),
    log: log.child({ part: 'dispatcher' }),
    onAttempt: (orderId, attempt) => {
      journal.markAttempt(orderId, now());
      options.onAttempt?.(orderId, attempt);
    },
  });
}

/** What one strategy instance's `ctx` reads of its positions and of the account. */
function positionFactsOf(
  executor: Executor,
  instance: string,
  capitalX18: bigint | undefined,
): PositionFacts {
  return {
    entryPriceX18: (marketId) =>
      executor.strategyPositions(instance).get(marketId).avgEntryPriceX18,
    unrealizedPnlX18: (marketId, snapshot) =>
      executor.unrealizedPnlX18(instance, marketId, snapshot),
    equityX18: (snapshot) => executor.equityX18(snapshot),
    // The account model on the booked fills (orders in flight are not positions yet).
    accountX18: (snapshot) =>
      capitalX18 === undefined
        ? undefined
        : accountViewOf(marginFactsOf(capitalX18, executor.positions, snapshot, () => 0n)),
  };
}

/** The strategy hosts, each reading its positions, orders, store and exits from the stack. */
async function hostsOf(
  options: TradingStackOptions,
  executor: Executor,
  exits: ExitBook,
): Promise<StrategyHost[]> {
  const { journal, now, log } = options;
  return await loadStrategyHosts(options.strategies, {
    now,
    log: log.child({ part: 'strategy' }),
    storeFor: (instance) => ({
      get: (key) => journal.kvGet(instance, key),
      set: (key, value) => journal.kvSet(instance, key, value),
    }),
    positionOf: (instance, marketId) => executor.strategyPositions(instance).amountX18(marketId),
    openOrdersOf: (instance) => executor.openOrders(instance).map(openOrderView),
    factsOf: (instance) => positionFactsOf(executor, instance, options.capitalX18),
    exitsOf: (instance) => ({
      get: (marketId) => exits.get(instance, marketId),
      set: (marketId, spec) => exits.set(instance, marketId, spec),
    }),
    onInvalidIntent: (instance, detail) => executor.refuse(instance, 'INVALID_INTENT', detail),
    onWarmingUp: (instance, detail) => executor.refuse(instance, 'WARMING_UP', detail),
    startTimer: options.strategyTimer,
    onPlot: options.onPlot,
    chartBars: options.chartBars,
  });
}
