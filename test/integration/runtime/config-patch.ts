/**
 * Sets config keys that `writeBotConfig` does not take (`venue.timeoutMs`, `poll.maxBackoffMs`,
 * a strategy's params between runs) by rewriting the YAML file it wrote.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';

/** A config document as YAML gives it back: sections of keys. */
export type ConfigDocument = Record<string, Record<string, unknown> | Record<string, unknown>[]>;

/** Reads the YAML at `path`, lets `change` edit it, writes it back. */
export async function patchBotConfig(
  path: string,
  change: (document: ConfigDocument) => void,
): Promise<void> {
  const document = parse(await readFile(path, 'utf8')) as ConfigDocument;
  change(document);
  await writeFile(path, stringify(document), 'utf8');
}

/** The section `name` of a config document, created when missing. */
export function section(document: ConfigDocument, name: string): Record<string, unknown> {
  const value = document[name];
  if (value !== undefined && !Array.isArray(value)) return value;
  const created: Record<string, unknown> = {};
  document[name] = created;
  return created;
}
