/**
 * What a sweep searches: the config strategy its params are for, and the sets that strategy's
 * own params schema accepts.
 */
import type { Config } from '../config/index.ts';
import { ErrorCodes, isQuantaError, QuantaError } from '../errors/index.ts';
import { loadStrategy, parseStrategyParams } from '../strategy/load-strategy.ts';
import type { ParamSet } from './expand-space.ts';
import type { FailedSet } from './rank.ts';
import type { SweepSpace } from './space.ts';

/** Which config strategy the space's params are for. */
export function strategyIndexOf(config: Config, space: SweepSpace): number {
  const names = config.strategies.map((entry, index) => entry.name ?? `#${index}`);
  if (space.strategy === undefined) {
    if (config.strategies.length === 1) return 0;
    throw new QuantaError(
      ErrorCodes.CONFIG_INVALID,
      `${space.locate([])} strategy: the config runs ${config.strategies.length} strategies; name the one to search`,
      { details: ['Add strategy: <instance name or index> to the space file.'] },
    );
  }
  if (typeof space.strategy === 'number') {
    if (space.strategy < config.strategies.length) return space.strategy;
  } else {
    const byName = config.strategies.findIndex((entry) => entry.name === space.strategy);
    if (byName >= 0) return byName;
    const byModule = config.strategies.findIndex((entry) =>
      entry.module.replace(/\.[cm]?[tj]s$/, '').endsWith(`/${String(space.strategy)}`),
    );
    if (byModule >= 0) return byModule;
  }
  throw new QuantaError(
    ErrorCodes.CONFIG_INVALID,
    `${space.locate(['strategy'])} strategy: no strategy ${JSON.stringify(space.strategy)} in the config`,
    { details: [`The config's strategies: ${names.join(', ')}`] },
  );
}

/**
 * Checks every set with the strategy's own params schema (as a config's params are checked). A
 * param the schema does not name is an error pointing at the space file; a set the schema
 * refuses for its values (say exitZ above entryZ) is skipped and listed.
 */
export async function validateSets(
  config: Config,
  index: number,
  space: SweepSpace,
  sets: readonly ParamSet[],
  projectRoot: string,
): Promise<{ valid: ParamSet[]; skipped: FailedSet[]; instance: string }> {
  const entry = config.strategies[index]!;
  const strategy = await loadStrategy(entry.module, [projectRoot], entry.searched);
  const instance = entry.name ?? strategy.name;
  const valid: ParamSet[] = [];
  const skipped: FailedSet[] = [];
  let first: QuantaError | undefined;
  for (const set of sets) {
    try {
      parseStrategyParams(
        strategy,
        instance,
        { ...(entry.params as object), ...set.params },
        {
          keyPath: 'params',
          locate: (path) =>
            space.params.has(String(path[0]))
              ? space.locate(['params', String(path[0])])
              : (config.source?.locate(['strategies', index, 'params', ...path]) ??
                space.locate(['params'])),
        },
      );
      valid.push(set);
    } catch (error) {
      if (!isQuantaError(error, ErrorCodes.STRATEGY_PARAMS)) throw error;
      // A name the schema does not know is wrong in every set: the space file is wrong.
      if (error.details.some((line) => line.includes('unknown param'))) throw error;
      first ??= error;
      skipped.push({ id: set.id, params: set.params, error: error.details.join('; ') });
    }
  }
  if (valid.length === 0 && first !== undefined) throw first;
  skipped.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { valid, skipped, instance };
}
