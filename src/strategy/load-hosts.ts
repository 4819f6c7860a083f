import type { Logger } from '../log/logger.ts';
import type { OpenOrder, StrategyStore } from './define-strategy.ts';
import { loadStrategy, parseStrategyParams } from './load-strategy.ts';
import { StrategyHost } from './strategy-host.ts';

/** One strategy entry of the config. */
export interface StrategyEntry {
  readonly module: string;
  readonly markets: readonly string[];
  readonly params: unknown;
  readonly name?: string | undefined;
}

/** What every host gets from the bot (live) or the backtest. */
export interface HostEnvironment {
  readonly baseDirs: readonly string[];
  readonly now: () => number;
  readonly log: Logger;
  readonly storeFor: (instance: string) => StrategyStore;
  readonly positionOf: (instance: string, marketId: number) => bigint;
  readonly openOrdersOf: (instance: string) => readonly OpenOrder[];
}

/**
 * Loads every configured strategy, validates its params and wraps it in a {@link StrategyHost}.
 * Instance names are the config `name`, else the strategy's name, made unique with `#2`, `#3`.
 *
 * @throws QuantaError `QUANTA_STRATEGY_LOAD` / `QUANTA_STRATEGY_PARAMS` for the first bad entry.
 */
export async function loadStrategyHosts(
  entries: readonly StrategyEntry[],
  env: HostEnvironment,
): Promise<StrategyHost[]> {
  const hosts: StrategyHost[] = [];
  const used = new Set<string>();
  for (const entry of entries) {
    const strategy = await loadStrategy(entry.module, env.baseDirs);
    const base = entry.name ?? strategy.name;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}#${n}`;
    used.add(name);
    const host = new StrategyHost({
      strategy,
      name,
      params: parseStrategyParams(strategy, name, entry.params),
      symbols: entry.markets,
      now: env.now,
      log: env.log.child({ strategy: name }),
      store: env.storeFor(name),
      positionOf: (marketId) => env.positionOf(name, marketId),
      openOrders: () => env.openOrdersOf(name),
    });
    hosts.push(host);
  }
  for (const host of hosts) await host.start();
  return hosts;
}
