import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config/index.ts';
import { findStrategyFile } from '../strategy/load-strategy.ts';

/**
 * What a sweep's results depend on besides its config and space text: the recording's files
 * (name, size and modification time of each) and the source of each strategy module the config
 * names. Part of the sweep's id, so a resumed sweep reuses no result of a recording recorded
 * again or a strategy edited since, and queue workers drop what they cached for another sweep.
 * A URL recording is named by its URL alone (nothing to read without downloading it); a module
 * is hashed as its own file, not the files it imports.
 *
 * @example
 * const inputs = await sweepInputs(config, '/data/rec', process.cwd());
 * // { recording: [['rec.jsonl.gz', 1048576, 1767571200000]], strategies: ['3f…'] }
 */
export async function sweepInputs(
  config: Config,
  data: string,
  projectRoot: string,
): Promise<{ recording: readonly unknown[]; strategies: readonly string[] }> {
  const strategies: string[] = [];
  for (const entry of config.strategies) {
    const file = findStrategyFile(entry.module, [projectRoot], entry.searched);
    strategies.push(
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    );
  }
  return { recording: await recordingFiles(data), strategies };
}

async function recordingFiles(data: string): Promise<unknown[]> {
  if (/^https?:\/\//i.test(data)) return [];
  const top = await stat(data);
  if (!top.isDirectory()) return [[data, top.size, top.mtimeMs]];
  const files: unknown[] = [];
  for (const name of (await readdir(data)).sort()) {
    const info = await stat(join(data, name));
    if (info.isFile()) files.push([name, info.size, info.mtimeMs]);
  }
  return files;
}
