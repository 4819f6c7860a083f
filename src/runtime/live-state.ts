import type { Fill } from '../domain/index.ts';
import type { ExecutorObserver } from '../execution/executor.ts';
import { FLATTEN_STRATEGY } from '../execution/flatten.ts';
import type { OrderJournal } from '../execution/journal.ts';
import { MODE_SCOPE, TradingModes } from '../execution/trading-mode.ts';
import { RecordingWriter } from '../market/recording/index.ts';
import type { ProducedIntent } from '../stack/trading-session.ts';
import type { PreparedStrategy } from '../strategy/prepare-strategies.ts';
import type { BotCore, StackAdditions } from './bot-core.ts';
import type { BotOptions } from './bot-options.ts';
import type { CleanupStack } from './cleanup-stack.ts';
import type { AlertWatch } from './control/alert-watch.ts';
import { BotMetrics } from './control/bot-metrics.ts';
import { Notifier, type NotifyTarget } from './control/notifier.ts';
import type { VenueEndpoints } from './embedded-venue.ts';
import { keepPrecision } from './kept-precision.ts';
import { PARAMS_SCOPE, readParamsAudit, restoreLiveParams } from './live-params.ts';

/** What `quanta run` keeps beside the trading stack, read from and written to the journal. */
export interface LiveState {
  /** `record:`'s writer of the snapshots this bot trades on (quanta compare). */
  readonly recorder: RecordingWriter | undefined;
  readonly modes: TradingModes;
  readonly notifier: Notifier | undefined;
  /** Filled in once the parts it reads exist; alerts before that have nothing to say. */
  readonly alertRoute: { watch?: AlertWatch };
  /** Metrics only where they can be scraped (the control server). */
  readonly metrics: BotMetrics | undefined;
  readonly paramsStore: {
    list(): ReturnType<OrderJournal['kvList']>;
    set(key: string, value: string): void;
  };
  /** The strategies with the live params changed before a restart (issue 30). */
  readonly restored: ReturnType<typeof restoreLiveParams>;
}

/**
 * The live bot's state beside the stack: the listed precision of the traded markets (for
 * `quanta status`), the recorder, the trading modes, alerts, metrics and the live params
 * restored from the journal.
 */
export async function openLiveState(
  options: BotOptions,
  core: BotCore,
  strategies: readonly PreparedStrategy[],
  parts: {
    readonly venue: VenueEndpoints;
    readonly targets: readonly NotifyTarget[];
    readonly cleanup: CleanupStack;
  },
): Promise<LiveState> {
  const { config, log } = options;
  const { journal } = core;
  const traded = new Set(config.strategies.flatMap((strategy) => strategy.markets));
  keepPrecision(
    journal,
    core.markets.filter((market) => traded.has(market.symbol)),
  );
  const recorder =
    config.record === undefined
      ? undefined
      : await RecordingWriter.open({
          dir: config.record.dir,
          gzip: config.record.gzip,
          source: parts.venue.embedded === undefined ? parts.venue.readUrl : 'embedded paper venue',
        });
  if (recorder !== undefined) parts.cleanup.push(() => recorder.close());
  const modes = new TradingModes({
    now: core.options.time.now,
    log,
    killSwitchFile: config.risk.killSwitchFile,
    store: {
      get: (key) => journal.kvGet(MODE_SCOPE, key),
      set: (key, value) => journal.kvSet(MODE_SCOPE, key, value),
    },
  });
  const notifier =
    parts.targets.length === 0
      ? undefined
      : new Notifier({
          targets: parts.targets,
          bot: config.state.dir,
          log: log.child({ part: 'notify' }),
        });
  const metrics =
    config.control === undefined
      ? undefined
      : new BotMetrics({
          strategies: strategies.map((strategy) => strategy.name),
          markets: [...traded],
          internalStrategies: [FLATTEN_STRATEGY],
        });
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
  return { recorder, modes, notifier, alertRoute: {}, metrics, paramsStore, restored };
}

/** What the live bot adds to the trading stack: the mode, metrics, alerts, the intent hook. */
export function liveAdditions(options: BotOptions, state: LiveState): StackAdditions {
  const { modes, metrics, notifier } = state;
  const alerts = notifier === undefined ? undefined : state.alertRoute;
  const onIntent =
    metrics === undefined
      ? options.onIntent
      : (produced: ProducedIntent) => {
          metrics.intent(produced.strategy);
          options.onIntent?.(produced);
        };
  return {
    tradingMode: () => modes.mode,
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
  };
}
