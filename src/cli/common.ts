import { resolve } from 'node:path';
import { loadConfig, DEFAULT_CONFIG_PATH, type Config } from '../config/index.ts';
import { createLogger, type Logger } from '../log/logger.ts';
import { prettyStream } from '../log/pretty-stream.ts';

/** The project root (where package.json and strategies/ live). */
export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

/** Loads the config named by `--config` (default `config/paper.yaml`, relative to the cwd). */
export function loadConfigFlag(path: string | undefined, env: NodeJS.ProcessEnv): Promise<Config> {
  return loadConfig(path ?? DEFAULT_CONFIG_PATH, { env });
}

/**
 * The process logger for a config: readable lines on a terminal, JSON lines otherwise
 * (`log.format: auto`, the default); `log.format: pretty | json` or the environment variable
 * `QUANTA_LOG_FORMAT` (which wins) force one.
 */
export function loggerFor(
  config: Config,
  out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): Logger {
  return createLogger({
    level: config.log.level,
    ...(logFormatOf(config, out, env) === 'pretty' ? { destination: prettyStream(out) } : {}),
  });
}

/** The effective log format: env `QUANTA_LOG_FORMAT`, then `log.format`/`log.pretty`, then the TTY. */
export function logFormatOf(
  config: Config,
  out: { isTTY?: boolean },
  env: NodeJS.ProcessEnv,
): 'pretty' | 'json' {
  const forced = env['QUANTA_LOG_FORMAT'];
  if (forced === 'pretty' || forced === 'json') return forced;
  if (config.log.pretty !== undefined) return config.log.pretty ? 'pretty' : 'json';
  if (config.log.format !== 'auto') return config.log.format;
  return out.isTTY === true ? 'pretty' : 'json';
}
