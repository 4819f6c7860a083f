import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { didYouMean } from '../config/closest-name.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { isStrategy, type Strategy } from './define-strategy.ts';

/**
 * Imports a strategy module and returns its default export.
 *
 * @param modulePath - path from the config (`strategies/dca.ts`), resolved against `baseDirs`
 *   in order (the config file's folder, then the project root).
 * @param searched - the places the config loader already looked, listed in the "not found" error.
 * @throws QuantaError `QUANTA_STRATEGY_LOAD` when the file is missing, fails to import, or its
 *   default export was not made by `defineStrategy`.
 */
export async function loadStrategy(
  modulePath: string,
  baseDirs: readonly string[],
  searched: readonly string[] = [],
): Promise<Strategy> {
  const file = findStrategyFile(modulePath, baseDirs, searched);
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    throw new QuantaError(
      ErrorCodes.STRATEGY_LOAD,
      `strategy module ${modulePath} failed to load: ${reason}`,
      {
        cause,
      },
    );
  }
  if (!isStrategy(loaded.default)) {
    throw new QuantaError(
      ErrorCodes.STRATEGY_LOAD,
      `strategy module ${modulePath} has no strategy as default export`,
      {
        details: [
          "Write `export default defineStrategy({ name, onSnapshot })` with defineStrategy from 'quanta'.",
        ],
      },
    );
  }
  return loaded.default;
}

/**
 * The file a strategy module path names: the first of `baseDirs` (then `searched`) holding it.
 *
 * @throws QuantaError `QUANTA_STRATEGY_LOAD` listing every place looked when none has it.
 */
export function findStrategyFile(
  modulePath: string,
  baseDirs: readonly string[],
  searched: readonly string[] = [],
): string {
  const candidates = [
    ...new Set([
      ...(isAbsolute(modulePath) ? [modulePath] : baseDirs.map((dir) => resolve(dir, modulePath))),
      ...searched,
    ]),
  ];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (file === undefined) {
    throw new QuantaError(ErrorCodes.STRATEGY_LOAD, `strategy module ${modulePath} not found`, {
      details: [`Looked in: ${candidates.join(', ')}`],
    });
  }
  return file;
}

/** Where a strategy's params sit in the config, to point errors at `file:line:col`. */
export interface ParamsLocation {
  /** `strategies[0].params`: the key path printed before each problem. */
  readonly keyPath: string;
  /** `file:line:col` of a param (`[]` is the params mapping itself); undefined without a file. */
  readonly locate?: (path: readonly PropertyKey[]) => string;
}

/**
 * Parses a strategy's params from the config with the strategy's own schema. A param the schema
 * does not name is an error too (unless the strategy sets `allowUnknownParams`), with the
 * closest allowed name as a hint: a misspelled param must not run silently on its default.
 *
 * @throws QuantaError `QUANTA_STRATEGY_PARAMS` listing each bad param as
 *   `<file>:<line>:<col> strategies[i].params.<name>: <problem>`.
 */
export function parseStrategyParams(
  strategy: Strategy,
  instanceName: string,
  params: unknown,
  where: ParamsLocation = { keyPath: 'params' },
): unknown {
  if (strategy.params === undefined) return params;
  const lines: string[] = [];
  const line = (path: readonly PropertyKey[], text: string): void => {
    const at = where.locate?.(path);
    const keyPath = [where.keyPath, ...path.map(String)].join('.');
    lines.push(`${at === undefined ? '' : `${at} `}${keyPath}: ${text}`);
  };
  const allowed = objectKeysOf(strategy.params);
  if (
    allowed !== undefined &&
    strategy.allowUnknownParams !== true &&
    typeof params === 'object' &&
    params !== null
  ) {
    for (const key of Object.keys(params)) {
      if (allowed.includes(key)) continue;
      line(
        [key],
        `unknown param of strategy ${instanceName}${didYouMean(key, allowed)} (allowed: ${allowed.join(', ') || 'none'})`,
      );
    }
  }
  const result = strategy.params.safeParse(params);
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys' && lines.length > 0) continue; // named above
      line(issue.path, issue.message);
    }
  }
  if (lines.length > 0) {
    throw new QuantaError(
      ErrorCodes.STRATEGY_PARAMS,
      `invalid params for strategy ${instanceName} (${lines.length === 1 ? '1 problem' : `${lines.length} problems`}):`,
      { details: lines },
    );
  }
  return result.data;
}

/**
 * The keys of an object schema, read by shape rather than `instanceof`: a strategy package may
 * bring its own copy of zod. Undefined for schemas that are not plain objects (records, unions).
 */
function objectKeysOf(schema: unknown): string[] | undefined {
  const shape = (schema as { shape?: unknown } | null)?.shape;
  return typeof shape === 'object' && shape !== null ? Object.keys(shape) : undefined;
}
