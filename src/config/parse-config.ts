import { LineCounter, parseDocument, type Document, type YAMLError } from 'yaml';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import {
  formatKeyPath,
  problemsFromIssues,
  renderProblems,
  valueAt,
  type ConfigProblem,
} from './config-problems.ts';
import { describeValue, looksSecret } from './describe-value.ts';
import { findPastedKeys } from './find-pasted-keys.ts';
import { HIDDEN_KEY, hideSecrets, scrubSecretRuns, type ShownDocument } from './hide-secrets.ts';
import { keyPathAt, locateNode } from './locate-node.ts';
import { resolveConfigPaths, type PathProblem } from './resolve-paths.ts';
import { configSchema, type Config, type ConfigSource } from './schema.ts';
import { MIXED_VENUE_MESSAGE, venueMode } from './venue-mode.ts';

const MAX_ALIAS_COUNT = 100;

/** Options of `parseConfig` and `loadConfig`. */
export interface ParseConfigOptions {
  /** Environment used to expand a leading `~` in paths; defaults to `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Working directory, where bare strategy module paths are looked up second. */
  readonly cwd?: string;
}

/**
 * Parses and validates the text of a YAML config file, fills in defaults and makes its paths
 * absolute (relative ones are taken from `baseDir`).
 *
 * @param text - the YAML source.
 * @param fileName - how error lines name the file (usually the path as the user gave it).
 * @param baseDir - the config file's directory.
 * @throws QuantaError `QUANTA_CONFIG_INVALID` listing every problem found, one per line, as
 *   `<file>:<line>:<col> <key.path>: <what was expected>, got <value>`. Values under `wallet`
 *   and anything shaped like a secret (a run of 32+ hex digits, however written, and numbers
 *   YAML made of such text) are never shown, not even in part. A venue that is `embedded` for
 *   one API and real for the other is refused.
 * @example
 * const config = parseConfig(
 *   'venue: { writeUrl: embedded, readUrl: embedded }\nstrategies: [{ module: strategies/dca.ts, markets: [ETH-USD] }]',
 *   'inline.yaml',
 *   process.cwd(),
 * );
 * config.execution.rateLimit // { requests: 10, perMs: 1000 }
 */
export function parseConfig(
  text: string,
  fileName: string,
  baseDir: string,
  options: ParseConfigOptions = {},
): Config {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const fail = (problems: readonly ConfigProblem[]): never => {
    throw configError(problems, text, fileName, lineCounter);
  };
  const data = documentData(doc, fail);
  // Validation runs on the real data; errors are described from a copy where every
  // secret-shaped scalar (values and keys) has been replaced.
  const shown = hideSecrets(doc, MAX_ALIAS_COUNT);
  const { result, problems } = validate(data, shown);
  if (!result.success || problems.length > 0) return fail(problems);
  const mixed = mixedVenueProblem(doc, result.data.venue);
  if (mixed !== undefined) fail([mixed]);
  const resolved = resolveConfigPaths(
    result.data,
    baseDir,
    options.env ?? process.env,
    options.cwd ?? process.cwd(),
  );
  if (resolved.problems.length > 0) fail(pathProblems(doc, shown, resolved.problems));
  return { ...resolved.config, source: configSource(doc, lineCounter, fileName) };
}

/** The error listing every problem, one `file:line:col key.path: …` line each, secrets scrubbed. */
function configError(
  problems: readonly ConfigProblem[],
  text: string,
  fileName: string,
  lineCounter: LineCounter,
): QuantaError {
  const lines = renderProblems(problems, fileName, lineCounter).map((line) =>
    scrubSecretRuns(line, text),
  );
  const count = lines.length === 1 ? '1 problem' : `${lines.length} problems`;
  return new QuantaError(ErrorCodes.CONFIG_INVALID, `invalid config ${fileName} (${count}):`, {
    details: lines,
  });
}

/**
 * The document as plain data, or `fail` with why there is none: YAML syntax errors, an empty
 * file, too many aliases.
 */
function documentData(doc: Document, fail: (problems: readonly ConfigProblem[]) => never): unknown {
  if (doc.errors.length > 0) {
    // The messages are yaml's own without source excerpts (prettyErrors off): an excerpt could
    // show a secret sitting on the broken line.
    fail(doc.errors.map((error) => syntaxProblem(doc, error)));
  }
  if (doc.contents === null) {
    fail([
      {
        offset: 0,
        text: '(top level): the file is empty; expected a mapping with at least venue and strategies',
      },
    ]);
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return fail([{ offset: 0, text: `YAML: ${message}` }]);
  }
}

/**
 * The schema's verdict on the real data, and every problem described from the secret-free copy:
 * keys that look pasted in the wrong place first, then the schema's issues at other paths.
 */
function validate(
  data: unknown,
  shown: ShownDocument,
): { result: ReturnType<typeof configSchema.safeParse>; problems: ConfigProblem[] } {
  const pasted = findPastedKeys(shown.doc);
  const pastedPaths = new Set(pasted.map(({ path }) => formatKeyPath(path)));
  const result = configSchema.safeParse(data);
  const problems = pasted.map(({ problem }) => problem);
  if (!result.success) {
    const issues = result.error.issues
      .map((issue) => {
        const path = issue.path.map(shown.hideStep);
        const message = shown.hideNumbers(issue.message);
        return issue.code === 'unrecognized_keys'
          ? { ...issue, path, message, keys: issue.keys.map((key) => String(shown.hideStep(key))) }
          : { ...issue, path, message };
      })
      .filter((issue) => !pastedPaths.has(formatKeyPath(issue.path)));
    problems.push(...problemsFromIssues(issues, shown.doc, shown.data));
  }
  return { result, problems };
}

/** The problem of a venue `embedded` for one API and real for the other, pointed at the embedded one. */
function mixedVenueProblem(doc: Document, venue: Config['venue']): ConfigProblem | undefined {
  if (venueMode(venue) !== 'mixed') return undefined;
  const path = ['venue', venue.writeUrl === 'embedded' ? 'writeUrl' : 'readUrl'];
  const where = locateNode(doc, path);
  return {
    offset: where.value ?? where.parent,
    text: `${formatKeyPath(path)}: ${MIXED_VENUE_MESSAGE}`,
  };
}

/** Paths that do not resolve (a module not found, …), each with the value as it may be shown. */
function pathProblems(
  doc: Document,
  shown: ShownDocument,
  problems: readonly PathProblem[],
): ConfigProblem[] {
  return problems.map(({ path, message }) => {
    const where = locateNode(doc, path);
    return {
      offset: where.value ?? where.parent,
      text: `${formatKeyPath(path)}: ${message}, got ${describeValue(valueAt(shown.data, path))}`,
    };
  });
}

/** Where the config came from, able to point later errors at `file:line:col`. */
function configSource(doc: Document, lineCounter: LineCounter, fileName: string): ConfigSource {
  const locate = (path: readonly PropertyKey[]): string => {
    const where = locateNode(doc, path);
    const { line, col } = lineCounter.linePos(where.key ?? where.value ?? where.parent);
    return `${fileName}:${line}:${col}`;
  };
  return { file: fileName, locate };
}

/**
 * A YAML error as a problem. A key written twice in one mapping is named by its key path (the
 * later one wins in most YAML readers; here it is an error, since either reading may be wrong);
 * a key that looks like a secret is not shown.
 */
function syntaxProblem(doc: Document, error: YAMLError): ConfigProblem {
  const offset = error.pos[0];
  if (error.code === 'DUPLICATE_KEY') {
    const path = keyPathAt(doc, offset);
    if (path !== undefined) {
      const shown = path.map((step) =>
        typeof step === 'string' && looksSecret(step) ? HIDDEN_KEY : step,
      );
      const key = shown.at(-1);
      return {
        offset,
        text: `${formatKeyPath(shown)}: duplicate key ${JSON.stringify(key)}: each key may appear once in a mapping`,
      };
    }
  }
  return { offset, text: `YAML syntax: ${error.message}` };
}
