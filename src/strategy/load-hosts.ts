import type { Logger } from '../log/logger.ts';
import type { StrategyStore } from './define-strategy.ts';
import type { OpenOrder } from '../domain/index.ts';
import type { PreparedStrategy } from './prepare-strategies.ts';
import { StrategyWorkerClient } from './isolate/strategy-worker-client.ts';
import { StrategyHost, type PositionFacts, type StrategyHostOptions } from './strategy-host.ts';
import type { StartTimer } from '../clock/timers.ts';

/** What every host gets from the bot (live) or the backtest. */
export interface HostEnvironment {
  readonly now: () => number;
  readonly log: Logger;
  readonly storeFor: (instance: string) => StrategyStore;
  readonly positionOf: (instance: string, marketId: number) => bigint;
  readonly openOrdersOf: (instance: string) => readonly OpenOrder[];
  /** Each instance's position facts (`ctx.entryPrice`, `ctx.unrealizedPnl`, `ctx.equity`). */
  readonly factsOf?: ((instance: string) => PositionFacts) | undefined;
  /** Each instance's protective exits (`ctx.setExits`, `ctx.exits`). */
  readonly exitsOf?: ((instance: string) => StrategyHostOptions['exits']) | undefined;
  /** Told about every value a strategy returned that is not a valid intent. */
  readonly onInvalidIntent: (instance: string, detail: string) => void;
  /** Told about every intent a strategy returned before its warm-up ended (refused). */
  readonly onWarmingUp?: ((instance: string, detail: string) => void) | undefined;
  /** Starts the `onSnapshot` deadline timers; default the real one (clock/timers.ts). */
  readonly startTimer?: StartTimer | undefined;
  /** Told about every `ctx.plot` point of every instance. */
  readonly onPlot?:
    ((instance: string, name: string, value: string, at: number) => void) | undefined;
  /** Keep each host's candles and indicator values for the report (the backtest does). */
  readonly chartBars?: boolean | undefined;
}

/**
 * Wraps every prepared strategy in a {@link StrategyHost} and runs their `init`; a strategy with
 * `isolate: worker` runs in a worker thread of its own (see `StrategyWorkerClient`).
 */
export async function loadStrategyHosts(
  prepared: readonly PreparedStrategy[],
  env: HostEnvironment,
): Promise<StrategyHost[]> {
  const hosts = prepared.map(({ name, strategy, params, symbols, timeoutMs, worker }) => {
    const log = env.log.child({ strategy: name });
    // isolate: worker: the same host around a stand-in that sends every call to the worker.
    const client =
      worker === undefined
        ? undefined
        : new StrategyWorkerClient({ name, symbols, strategy, worker, log });
    return new StrategyHost({
      strategy: client?.strategy ?? strategy,
      name,
      params,
      symbols,
      now: env.now,
      log,
      store: env.storeFor(name),
      positionOf: (marketId) => env.positionOf(name, marketId),
      openOrders: () => env.openOrdersOf(name),
      facts: env.factsOf?.(name),
      exits: env.exitsOf?.(name),
      onInvalidIntent: (detail) => env.onInvalidIntent(name, detail),
      ...(env.onWarmingUp === undefined
        ? {}
        : { onWarmingUp: (detail: string) => env.onWarmingUp?.(name, detail) }),
      timeoutMs,
      startTimer: env.startTimer,
      onPlot:
        env.onPlot === undefined
          ? undefined
          : (plot, value, at) => env.onPlot?.(name, plot, value, at),
      onPause: client === undefined ? undefined : () => client.terminate(),
      chartBars: env.chartBars,
      // The worker parsed its own copy of the params at start; nothing carries a change there yet.
      paramsFixed:
        client === undefined
          ? undefined
          : `strategy ${name} runs with isolate: worker, whose params cannot change while it runs yet: change the config and restart`,
    });
  });
  for (const host of hosts) await host.start();
  return hosts;
}
