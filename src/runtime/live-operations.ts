import type { Config } from '../config/index.ts';
import type { BotCore, BotTrading } from './bot-core.ts';
import { AlertWatch } from './control/alert-watch.ts';
import { BotOperations } from './control/bot-operations.ts';
import { LiveFeed } from './control/live-feed.ts';
import { LiveParams } from './live-params.ts';
import type { LiveState } from './live-state.ts';

/** Least time between two pushes of the status to the live page (after snapshots). */
const LIVE_PAGE_PUSH_MS = 250;

/**
 * What the status line, the control server and the live page read and command: status, live
 * params, modes, and the metrics read from the parts (when metrics are on).
 */
export function liveOperations(
  core: BotCore,
  trading: BotTrading,
  state: LiveState,
  symbolOf: (marketId: number) => string,
): BotOperations {
  const { config, log, time } = core.options;
  const { executor, dispatcher, session } = trading.stack;
  const { poller } = trading;
  const { modes, metrics, restored } = state;
  const { budget, venueClock, credentials } = core;
  const liveParams = new LiveParams({
    strategies: restored.strategies,
    raw: restored.raw,
    store: state.paramsStore,
    target: session,
    now: time.now,
    log: log.child({ part: 'params' }),
  });
  const operations = new BotOperations({
    params: liveParams,
    config,
    now: time.now,
    executor,
    dispatcher,
    session,
    poller,
    journal: core.journal,
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
            now: time.monotonic,
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
    credentialsCanSign: () => credentials.state().canSign,
    pausedStrategies: () => session.pausedStrategies(),
    strategyTimeouts: () => session.strategyTimeouts(),
    strategyErrors: () => session.strategyErrors(),
    mode: () => modes.mode,
    ready: () => operations.notReadyReasons().length === 0,
    rateBudget: () => budget.status(),
    clock: () => venueClock.report(),
  });
  return operations;
}

/** The alerts' watch over the bot's parts, when any alert target is configured. */
export function watchAlerts(
  config: Config,
  core: BotCore,
  trading: BotTrading,
  state: LiveState,
  symbolOf: (marketId: number) => string,
): void {
  const { notifier, modes } = state;
  if (notifier === undefined) return;
  const { session, executor } = trading.stack;
  const watch = new AlertWatch({
    notify: (alert) => notifier.notify(alert),
    wantsFills: notifier.wantsFills,
    now: core.options.time.now,
    pausedStrategies: () => session.pausedStrategies(),
    pauseReasonOf: (name) => session.pauseReasonOf(name),
    refusals: () => executor.stats().refusals,
    symbolOf,
    staleAfterMs: config.poll.staleAfterMs,
  });
  state.alertRoute.watch = watch;
  modes.onChange((change) => watch.modeChanged(change));
  core.credentials.onRefused((refusal) => watch.credentialsRefused(refusal));
}
