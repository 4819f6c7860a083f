/**
 * config/live.example.yaml says it documents every key with its default. This checks it against
 * the config schema itself: every key the schema has is written in the example (sections that
 * are off unless written, like `control:`, as commented-out YAML, which the test reads), and a
 * key the schema gives a default shows that default, or says on its own line which default it
 * replaces (`# default .quanta: …`). The example, comments read as YAML, must also load.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { z } from 'zod';
import { parseConfig } from '../../../src/config/index.ts';
import { configSchema } from '../../../src/config/schema.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

const EXAMPLE = join(ROOT, 'config/live.example.yaml');

// Keys the example leaves out on purpose, with why.
const LEFT_OUT: Record<string, string> = {
  'log.pretty': 'older spelling of log.format, accepted from old configs, not offered to new ones',
};

/** One key of the schema: its path (`notify[].url`) and its default, when it has one. */
interface SchemaKey {
  readonly path: string;
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
}

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  defaultValue?: unknown;
};
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Every leaf key of `schema` under `path`, read from zod's definitions. */
function schemaKeys(schema: z.ZodType, path: string): SchemaKey[] {
  let node = schema;
  let hasDefault = false;
  let defaultValue: unknown;
  for (;;) {
    const def = defOf(node);
    if (def.type === 'default' && def.innerType !== undefined) {
      if (!hasDefault) [hasDefault, defaultValue] = [true, def.defaultValue];
      node = def.innerType;
    } else if ((def.type === 'optional' || def.type === 'prefault') && def.innerType) {
      node = def.innerType;
    } else if (def.type === 'pipe' && def.in !== undefined) {
      node = def.in;
    } else break;
  }
  const def = defOf(node);
  if (def.type === 'object' && def.shape !== undefined)
    return Object.entries(def.shape).flatMap(([key, child]) =>
      schemaKeys(child, path === '' ? key : `${path}.${key}`),
    );
  if (def.type === 'array' && def.element !== undefined && defOf(def.element).type === 'object')
    return schemaKeys(def.element, `${path}[]`);
  return [{ path, hasDefault, defaultValue }];
}

const SCHEMA_KEYS = schemaKeys(configSchema, '');
const KEY_NAMES = new Set(SCHEMA_KEYS.flatMap(({ path }) => path.replaceAll('[]', '').split('.')));

/**
 * The example with its commented-out keys read as YAML: a comment line whose text is
 * `key: …` or `- key: …` for a key the schema has (`# control:`, `#   host: 127.0.0.1`,
 * `  # expectedProcesses: 3`) loses its `#`, keeping its indentation.
 */
function uncommented(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const m = /^( *)#( +)((?:- )?(\w+):.*)$/.exec(line);
      if (m === null || !KEY_NAMES.has(m[4] ?? '')) return line;
      return `${m[1] ?? ''}${' '.repeat((m[2] ?? ' ').length - 1)}${m[3] ?? ''}`;
    })
    .join('\n');
}

const TEXT = uncommented(readFileSync(EXAMPLE, 'utf8'));
const DOC = parseDocument(TEXT);

/** Every value written at `path` (`notify[].url`: that key of every item), with its key's line. */
function written(path: string): { value: unknown; line: string }[] {
  let found: { node: Node; at: number }[] = [{ node: DOC.contents as Node, at: 0 }];
  for (const part of path.split('.')) {
    const key = part.replace('[]', '');
    found = found.flatMap(({ node }) => {
      const pair = isMap(node)
        ? node.items.find((item) => isScalar(item.key) && item.key.value === key)
        : undefined;
      const child = pair?.value as Node | undefined;
      if (pair === undefined || child === undefined || child === null) return [];
      const at = (pair.key as Node).range?.[0] ?? 0;
      return part.endsWith('[]') && isSeq(child)
        ? (child.items as Node[]).map((item) => ({ node: item, at }))
        : [{ node: child, at }];
    });
  }
  return found.map(({ node, at }) => {
    const lineStart = TEXT.lastIndexOf('\n', at) + 1;
    const lineEnd = TEXT.indexOf('\n', at);
    return {
      value: (node as { toJSON(): unknown }).toJSON(),
      line: TEXT.slice(lineStart, lineEnd < 0 ? undefined : lineEnd),
    };
  });
}

describe('config/live.example.yaml', () => {
  it('reads the schema (the walk finds nested, list and defaulted keys)', () => {
    const paths = SCHEMA_KEYS.map(({ path }) => path);
    expect(paths).toContain('venue.signing.orderChainId');
    expect(paths).toContain('notify[].urlEnv');
    expect(paths).toContain('paper.listings[].activeAfterMs');
    expect(SCHEMA_KEYS.find(({ path }) => path === 'record.gzip')).toEqual({
      path: 'record.gzip',
      hasDefault: true,
      defaultValue: true,
    });
  });

  it('writes every key of the schema', () => {
    const missing = SCHEMA_KEYS.filter(
      ({ path }) => LEFT_OUT[path] === undefined && written(path).length === 0,
    ).map(({ path }) => path);
    expect(missing).toEqual([]);
  });

  it('shows each default, or says on the line which default it replaces', () => {
    const wrong = SCHEMA_KEYS.filter(({ hasDefault }) => hasDefault).flatMap(
      ({ path, defaultValue }) =>
        written(path)
          .filter(({ value, line }) => {
            if (JSON.stringify(value) === JSON.stringify(defaultValue)) return false;
            const comment = line.slice(line.indexOf(' # ') + 3);
            return !comment.includes(`default ${JSON.stringify(defaultValue).replaceAll('"', '')}`);
          })
          .map(
            ({ value, line }) =>
              `${path}: ${JSON.stringify(value)}, default ${JSON.stringify(defaultValue)} (${line.trim()})`,
          ),
    );
    expect(wrong).toEqual([]);
  });

  it('loads with its commented-out sections read too', () => {
    const config = parseConfig(TEXT, EXAMPLE, join(ROOT, 'config'), {
      env: {
        QUANTA_CONTROL_TOKEN: 'x'.repeat(32),
        QUANTA_SLACK_WEBHOOK: 'https://hooks.example.invalid/x',
      },
    });
    expect(config.record?.gzip).toBe(true);
    expect(config.backtest.startingCapital).toBe('100000');
    expect(config.control?.port).toBe(9464);
  });
});
