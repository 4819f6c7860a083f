import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig, DEFAULT_CONFIG_PATH, type Config } from '../config/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { createLogger, type Logger } from '../log/logger.ts';
import { prettyStream } from '../log/pretty-stream.ts';

/** The project root (where package.json and strategies/ live). */
export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

/**
 * Parses a subcommand's flags; unknown flags and stray arguments are usage errors (exit 2).
 * @throws QuantaError `QUANTA_USAGE` with the synopsis.
 */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: T,
  synopsis: string,
): ReturnType<
  typeof parseArgs<{ args: string[]; options: T; allowPositionals: false; strict: true }>
>['values'] {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: false, strict: true }).values;
  } catch (cause) {
    throw new QuantaError(
      ErrorCodes.USAGE,
      cause instanceof Error ? cause.message : String(cause),
      {
        details: [`usage: ${synopsis}`],
      },
    );
  }
}

/** Loads the config named by `--config` (default `config/paper.yaml`, relative to the cwd). */
export function loadConfigFlag(path: string | undefined, env: NodeJS.ProcessEnv): Promise<Config> {
  return loadConfig(path ?? DEFAULT_CONFIG_PATH, { env });
}

/** The process logger for a config: JSON lines on stdout, or readable lines with `log.pretty`. */
export function loggerFor(config: Config, out: NodeJS.WritableStream = process.stdout): Logger {
  return createLogger({
    level: config.log.level,
    ...(config.log.pretty ? { destination: prettyStream(out) } : {}),
  });
}
