import { DEFAULT_STRATEGY_HEAP_MB, locatedLine, type ConfigSource } from '../config/index.ts';
import { ErrorCodes, isQuantaError, QuantaError } from '../errors/index.ts';
import type { Strategy } from './define-strategy.ts';
import { findStrategyFile, loadStrategy, parseStrategyParams } from './load-strategy.ts';
import { planIndicators, planTimeframes } from './bars/bar-plan.ts';

/** One strategy entry of the config. */
export interface StrategyEntry {
  readonly module: string;
  readonly markets: readonly string[];
  readonly params: unknown;
  readonly name?: string | undefined;
  /** Milliseconds one `onSnapshot` may take; none = no deadline. */
  readonly timeoutMs?: number | undefined;
  /** Every place the config loader looked for the module (listed when it is missing). */
  readonly searched?: readonly string[] | undefined;
  /** `worker`: run the strategy in a worker thread of its own (default `none`). */
  readonly isolate?: 'none' | 'worker' | undefined;
  /** The worker's heap limit in MB (with `isolate: worker`). */
  readonly heapLimitMb?: number | undefined;
}

/** How an isolated strategy's worker thread finds it and what it may use. */
export interface WorkerIsolation {
  /** The module's file, as the main thread found it. */
  readonly file: string;
  /** The params as configured: the worker parses them again with the strategy's own schema. */
  readonly rawParams: unknown;
  /** `resourceLimits.maxOldGenerationSizeMb` of the worker. */
  readonly heapLimitMb: number;
}

/** A strategy loaded and its params parsed: everything needed to host it, nothing started. */
export interface PreparedStrategy {
  /** Position in the config's `strategies` list. */
  readonly index: number;
  /** Instance name: the config `name`, else the strategy's name, made unique with `#2`, `#3`. */
  readonly name: string;
  readonly strategy: Strategy;
  /** Params parsed by the strategy's schema. */
  readonly params: unknown;
  readonly symbols: readonly string[];
  /** Milliseconds one `onSnapshot` may take (`strategies[].timeoutMs`); none = no deadline. */
  readonly timeoutMs: number | undefined;
  /** Set when the strategy runs in a worker thread (`isolate: worker`). */
  readonly worker?: WorkerIsolation | undefined;
}

/**
 * Loads every configured strategy module and validates its params, before a bot or backtest
 * touches anything else: a broken module or a misspelled param is reported (exit 2) before the
 * venue is contacted or a key registered.
 *
 * @param baseDirs - where relative module paths are looked up (configs resolve theirs already).
 * @param source - the config file, so param errors point at `file:line:col`.
 * @throws QuantaError `QUANTA_STRATEGY_LOAD` / `QUANTA_STRATEGY_PARAMS` for the first bad entry;
 *   `QUANTA_CONFIG_INVALID` when there is no strategy at all (nothing would trade).
 */
export async function prepareStrategies(
  entries: readonly StrategyEntry[],
  baseDirs: readonly string[],
  source?: ConfigSource,
): Promise<PreparedStrategy[]> {
  if (entries.length === 0) {
    throw new QuantaError(
      ErrorCodes.CONFIG_INVALID,
      locatedLine(source, ['strategies'], 'no strategies to run'),
      {
        details: [
          'Add a list like: strategies: [{ module: strategies/dca.ts, markets: [ETH-USD] }]',
          '(quanta register and quanta markets need no strategies).',
        ],
      },
    );
  }
  const prepared: PreparedStrategy[] = [];
  const used = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    const strategy = await loadAt(source, index, () =>
      loadStrategy(entry.module, baseDirs, entry.searched),
    );
    const base = entry.name ?? strategy.name;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}#${n}`;
    used.add(name);
    const params = parseStrategyParams(strategy, name, entry.params, {
      keyPath: `strategies[${index}].params`,
      ...(source === undefined
        ? {}
        : { locate: (path) => source.locate(['strategies', index, 'params', ...path]) }),
    });
    // Declared bars are checked here, before anything starts (the host plans them again).
    await loadAt(source, index, () => {
      const timeframes = planTimeframes(name, strategy.bars);
      return Promise.resolve(
        planIndicators(name, strategy.indicators?.bind(strategy), params, timeframes),
      );
    });
    prepared.push({
      index,
      name,
      strategy,
      params,
      symbols: entry.markets,
      timeoutMs: entry.timeoutMs,
      ...(entry.isolate === 'worker'
        ? {
            worker: {
              file: findStrategyFile(entry.module, baseDirs, entry.searched),
              rawParams: entry.params,
              heapLimitMb: entry.heapLimitMb ?? DEFAULT_STRATEGY_HEAP_MB,
            },
          }
        : {}),
    });
  }
  return prepared;
}

/**
 * `load()`, its `QUANTA_STRATEGY_LOAD` error (not found, failed to import, no strategy exported)
 * pointed at the entry's `module` key: `<file>:<line>:<col> strategies[i].module: …`.
 */
async function loadAt<T>(
  source: ConfigSource | undefined,
  index: number,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isQuantaError(error, ErrorCodes.STRATEGY_LOAD)) throw error;
    throw new QuantaError(
      ErrorCodes.STRATEGY_LOAD,
      locatedLine(source, ['strategies', index, 'module'], error.shortMessage),
      { details: error.details, cause: error.cause ?? error },
    );
  }
}
