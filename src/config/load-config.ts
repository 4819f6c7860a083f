import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { parseConfig, type ParseConfigOptions } from './parse-config.ts';
import type { Config } from './schema.ts';

/** The config `quanta run` uses when no `--config` is given (relative to the working directory). */
export const DEFAULT_CONFIG_PATH = 'config/paper.yaml';

/**
 * Reads, validates and completes a YAML config file. Relative paths inside it are taken from the
 * file's directory; error lines name the file as `path` was given.
 *
 * @param path - the config file, absolute or relative to the working directory.
 * @param options - `env` expands a leading `~` in paths (default `process.env`).
 * @throws QuantaError `QUANTA_CONFIG_NOT_FOUND` naming the absolute path tried when the file
 *   cannot be read; `QUANTA_CONFIG_INVALID` listing every problem (see `parseConfig`).
 * @example
 * const config = await loadConfig(DEFAULT_CONFIG_PATH);
 * config.poll.intervalMs // 1000
 */
export async function loadConfig(path: string, options: ParseConfigOptions = {}): Promise<Config> {
  const absolute = resolve(path);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const reason =
      code === 'ENOENT' || code === 'ENOTDIR'
        ? 'not found'
        : code === 'EISDIR'
          ? 'is a directory, not a file'
          : `cannot be read (${code ?? 'unknown error'})`;
    throw new QuantaError(ErrorCodes.CONFIG_NOT_FOUND, `config file ${absolute} ${reason}`, {
      cause: error,
      details: [`Pass an existing YAML file with --config (default: ${DEFAULT_CONFIG_PATH}).`],
    });
  }
  return parseConfig(text, path, dirname(absolute), options);
}
