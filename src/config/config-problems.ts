import type { Document, LineCounter } from 'yaml';
import type { z } from 'zod';
import { describeValue } from './describe-value.ts';
import { locateNode } from './locate-node.ts';
import type { ConfigSource } from './schema.ts';

/** One thing wrong with a config file, anchored at a source offset. */
export interface ConfigProblem {
  readonly offset: number;
  /** The line after `<file>:<line>:<col> `: `<key.path>: <what was expected>, got <value>`. */
  readonly text: string;
}

/** `['strategies', 0, 'markets']` → `strategies[0].markets`; the empty path is the top level. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const step of path) {
    out += typeof step === 'number' ? `[${step}]` : `${out === '' ? '' : '.'}${String(step)}`;
  }
  return out === '' ? '(top level)' : out;
}

/**
 * One error line about a config key found after the file was parsed (a strategy module that
 * fails to import, a paper listing the venue does not have):
 * `<file>:<line>:<col> <key.path>: <text>`, the location left out only for a config built in
 * code (no file).
 *
 * @example
 * locatedLine(config.source, ['strategies', 0, 'module'], 'strategy module x.ts not found')
 * // 'bot.yaml:7:13 strategies[0].module: strategy module x.ts not found'
 */
export function locatedLine(
  source: ConfigSource | undefined,
  path: readonly PropertyKey[],
  text: string,
): string {
  const at = source?.locate(path);
  return `${at === undefined ? '' : `${at} `}${formatKeyPath(path)}: ${text}`;
}

/** The value at `path` in plain data, or `undefined` when some step is missing. */
export function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current = data;
  for (const step of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.hasOwn(current, step)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[step];
  }
  return current;
}

/** True when errors about `path` must not show the value (the wallet section). */
export function isHiddenPath(path: readonly PropertyKey[]): boolean {
  return path[0] === 'wallet';
}

/**
 * Turns zod's issues into problems pointing into the YAML source: an unknown key points at the
 * key and lists the allowed ones (the strict mapping's issue message carries that list); a
 * missing key points at the mapping that lacks it; any other issue points at the offending value
 * and ends with what was found there.
 */
export function problemsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  doc: Document,
  data: unknown,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of issues) {
    const path = issue.path;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const keyPath = [...path, key];
        const where = locateNode(doc, keyPath);
        problems.push({
          offset: where.key ?? where.parent,
          text: `${formatKeyPath(keyPath)}: unknown key ${JSON.stringify(key)} (allowed: ${issue.message})`,
        });
      }
      continue;
    }
    const value = valueAt(data, path);
    const where = locateNode(doc, path);
    if (value === undefined && issue.code === 'invalid_type') {
      problems.push({ offset: where.parent, text: `${formatKeyPath(path)}: is required` });
      continue;
    }
    problems.push({
      offset: where.value ?? where.parent,
      text: `${formatKeyPath(path)}: ${issue.message}, got ${describeValue(value, isHiddenPath(path))}`,
    });
  }
  return problems;
}

/**
 * Renders problems as `<file>:<line>:<col> <text>` lines in source order, without duplicates.
 */
export function renderProblems(
  problems: readonly ConfigProblem[],
  fileName: string,
  lineCounter: LineCounter,
): string[] {
  const sorted = [...problems].sort((a, b) => a.offset - b.offset);
  const lines: string[] = [];
  for (const problem of sorted) {
    const { line, col } = lineCounter.linePos(problem.offset);
    const rendered = `${fileName}:${line}:${col} ${problem.text}`;
    if (!lines.includes(rendered)) lines.push(rendered);
  }
  return lines;
}
