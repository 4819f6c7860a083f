import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Config } from './schema.ts';
import type { StrategyConfig } from './strategy-schema.ts';

/** A path that could not be resolved, with the reason. */
export interface PathProblem {
  readonly path: PropertyKey[];
  readonly message: string;
}

const HOME_PREFIX = /^~(?=$|[\\/])/;
const EXPLICITLY_RELATIVE = /^\.\.?(?:$|[\\/])/;

/**
 * Makes the config's paths absolute. `state.dir`, `record.dir` and `risk.killSwitchFile` are relative to the
 * config file's directory. A strategy module written `./x` or `../x` is relative to that
 * directory too; a bare `strategies/x.ts` is looked up there first, then in the working
 * directory, then in the project root (the nearest directory above the config holding a
 * package.json), so the usual `config/paper.yaml` can name `strategies/dca.ts`. Every place
 * tried is kept in `searched`, for the loader's "not found" error. A leading `~` means `env.HOME`.
 *
 * @param baseDir - the directory of the config file.
 * @param cwd - the working directory (second place a bare module path is looked up).
 */
export function resolveConfigPaths(
  config: Config,
  baseDir: string,
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
): { config: Config; problems: PathProblem[] } {
  const problems: PathProblem[] = [];
  const home = env['HOME'] ?? env['USERPROFILE'];
  const searchPaths = (written: string, path: PropertyKey[], candidates: string[]): string[] => {
    if (HOME_PREFIX.test(written)) {
      if (home === undefined || home === '') {
        problems.push({ path, message: 'expected HOME in the environment to expand "~"' });
        return [written];
      }
      return [join(home, written.replace(HOME_PREFIX, ''))];
    }
    if (isAbsolute(written)) return [resolve(written)];
    return [...new Set(candidates.map((dir) => resolve(dir, written)))];
  };
  const absolute = (written: string, path: PropertyKey[], candidates: string[]): string => {
    const tried = searchPaths(written, path, candidates);
    return tried.find((file) => existsSync(file)) ?? tried[tried.length - 1] ?? written;
  };

  const root = projectRoot(baseDir);
  const strategies = config.strategies.map((strategy, index): StrategyConfig => {
    const searched = searchPaths(
      strategy.module,
      ['strategies', index, 'module'],
      EXPLICITLY_RELATIVE.test(strategy.module) ? [baseDir] : [baseDir, cwd, root],
    );
    const module = searched.find((file) => existsSync(file)) ?? searched[searched.length - 1];
    return { ...strategy, module: module ?? strategy.module, searched };
  });
  const { killSwitchFile } = config.risk;
  return {
    config: {
      ...config,
      state: { ...config.state, dir: absolute(config.state.dir, ['state', 'dir'], [baseDir]) },
      risk: {
        ...config.risk,
        ...(killSwitchFile === undefined
          ? {}
          : { killSwitchFile: absolute(killSwitchFile, ['risk', 'killSwitchFile'], [baseDir]) }),
      },
      ...(config.record === undefined
        ? {}
        : {
            record: {
              ...config.record,
              dir: absolute(config.record.dir, ['record', 'dir'], [baseDir]),
            },
          }),
      strategies,
    },
    problems,
  };
}

function projectRoot(baseDir: string): string {
  for (let dir = resolve(baseDir); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(baseDir);
  }
}
