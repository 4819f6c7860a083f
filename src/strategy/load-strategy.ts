import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { isStrategy, type Strategy } from './define-strategy.ts';

/**
 * Imports a strategy module and returns its default export.
 *
 * @param modulePath - path from the config (`strategies/dca.ts`), resolved against `baseDirs`
 *   in order (the config file's folder, then the project root).
 * @throws QuantaError `QUANTA_STRATEGY_LOAD` when the file is missing, fails to import, or its
 *   default export was not made by `defineStrategy`.
 */
export async function loadStrategy(
  modulePath: string,
  baseDirs: readonly string[],
): Promise<Strategy> {
  const candidates = isAbsolute(modulePath)
    ? [modulePath]
    : baseDirs.map((dir) => resolve(dir, modulePath));
  const file = candidates.find((candidate) => existsSync(candidate));
  if (file === undefined) {
    throw new QuantaError(ErrorCodes.STRATEGY_LOAD, `strategy module ${modulePath} not found`, {
      details: [`Looked in: ${candidates.join(', ')}`],
    });
  }
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
 * Parses a strategy's params from the config with the strategy's own schema.
 * @throws QuantaError `QUANTA_STRATEGY_PARAMS` listing each bad param.
 */
export function parseStrategyParams(
  strategy: Strategy,
  instanceName: string,
  params: unknown,
): unknown {
  if (strategy.params === undefined) return params;
  const result = strategy.params.safeParse(params);
  if (result.success) return result.data;
  const lines = result.error.issues.map(
    (issue) =>
      `strategy ${instanceName}: params.${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`,
  );
  throw new QuantaError(
    ErrorCodes.STRATEGY_PARAMS,
    lines[0] ?? `strategy ${instanceName}: invalid params`,
    {
      details: lines.slice(1),
    },
  );
}
