import { readFile } from 'node:fs/promises';
import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { parseObjective, type Objective } from './objective.ts';

/** How one param is searched. */
export type ParamSpec =
  | { readonly kind: 'values'; readonly values: readonly unknown[] }
  | {
      /** `from`, `from + step`, ... up to `to` inclusive; strings in, strings out. */
      readonly kind: 'range';
      readonly from: string;
      readonly to: string;
      readonly step: string;
      readonly asString: boolean;
    }
  | {
      readonly kind: 'uniform' | 'loguniform' | 'int';
      readonly low: number;
      readonly high: number;
    }
  | { readonly kind: 'choice'; readonly values: readonly unknown[] };

/** Limits a set must meet to be ranked with the others. */
export interface Constraints {
  /** At least this many closed round trips. */
  readonly minTrades?: number;
  /** Max drawdown at most this percentage of the peak. */
  readonly maxDrawdownPct?: string;
}

/** A parsed space file. */
export interface SweepSpace {
  readonly file: string;
  /** The file's text (part of the sweep's identity). */
  readonly text: string;
  readonly objective: Objective;
  readonly constraints: Constraints;
  /** Instance name or index of the strategy whose params are searched (`strategy:`). */
  readonly strategy: string | number | undefined;
  /** Param name to spec, in the file's order. */
  readonly params: ReadonlyMap<string, ParamSpec>;
  /** Random search: how many sets (required when any param is a distribution). */
  readonly samples: number | undefined;
  readonly seed: number;
  /** `file:line:col` of a key path in the space file. */
  locate(path: readonly (string | number)[]): string;
}

const TOP_KEYS = ['objective', 'constraints', 'strategy', 'params', 'samples', 'seed'];
const DISTRIBUTIONS = ['uniform', 'loguniform', 'int'] as const;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Reads and checks a space file (YAML): `objective`, `constraints`, `params` (each param one of
 * `{ values: [...] }`, `{ from, to, step }`, `{ uniform: [lo, hi] }`, `{ loguniform: [lo, hi] }`,
 * `{ int: [lo, hi] }`, `{ choice: [...] }`), `samples` and `seed` for random search, `strategy`
 * when the config has several.
 *
 * @throws QuantaError `QUANTA_CONFIG_INVALID` naming `file:line:col` of each problem;
 *   `QUANTA_CONFIG_NOT_FOUND` when the file cannot be read.
 */
export async function readSpace(file: string): Promise<SweepSpace> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new QuantaError(ErrorCodes.CONFIG_NOT_FOUND, `space file ${file}: cannot read it`, {
      cause,
    });
  }
  return parseSpace(text, file);
}

/** Records a problem at a key path of the space file. */
type Problem = (path: readonly (string | number)[], message: string) => void;

/** Parses a space file's text; see {@link readSpace}. */
export function parseSpace(text: string, file: string): SweepSpace {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const locate = (path: readonly (string | number)[]): string => {
    const offset = offsetOf(doc, path);
    const { line, col } = lines.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  const problems: string[] = [];
  const problem: Problem = (path, message) => {
    problems.push(`${locate(path)} ${path.join('.') || '(file)'}: ${message}`);
  };
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, col } = lines.linePos(error.pos[0]);
      problems.push(`${file}:${line}:${col} ${error.message}`);
    }
    throw invalid(file, problems);
  }
  const root: unknown = doc.toJS();
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw invalid(file, [`${file}:1:1 expected a mapping with objective and params`]);
  }
  const top = root as Record<string, unknown>;
  for (const key of Object.keys(top))
    if (!TOP_KEYS.includes(key)) problem([key], `unknown key (allowed: ${TOP_KEYS.join(', ')})`);
  const objective = objectiveOf(top['objective'], problem);
  const constraints = constraintsOf(top['constraints'], problem);
  const strategy = top['strategy'];
  if (
    strategy !== undefined &&
    typeof strategy !== 'string' &&
    !(Number.isInteger(strategy) && (strategy as number) >= 0)
  )
    problem(['strategy'], 'expected an instance name or an index into the config strategies');
  const params = paramsOf(top['params'], problem);
  const { samples, seed } = samplingOf(top, params, problem);
  if (problems.length > 0) throw invalid(file, problems);
  return {
    file,
    text,
    objective,
    constraints,
    strategy: strategy as string | number | undefined,
    params,
    samples,
    seed,
    locate,
  };
}

/** The objective (default: sharpe). */
function objectiveOf(raw: unknown, problem: Problem): Objective {
  if (raw === undefined) return parseObjective('sharpe');
  try {
    if (typeof raw !== 'string' && typeof raw !== 'number')
      throw new Error('expected a metric name or an expression like sharpe - 0.1 * maxDrawdownPct');
    return parseObjective(String(raw));
  } catch (error) {
    problem(['objective'], (error as Error).message);
    return parseObjective('sharpe');
  }
}

function constraintsOf(raw: unknown, problem: Problem): Constraints {
  const constraints: { minTrades?: number; maxDrawdownPct?: string } = {};
  if (raw === undefined || raw === null) return constraints;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problem(['constraints'], 'expected a mapping like { minTrades: 5, maxDrawdownPct: 10 }');
    return constraints;
  }
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'minTrades') {
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0)
        constraints.minTrades = value;
      else problem(['constraints', key], 'expected a whole number >= 0');
    } else if (key === 'maxDrawdownPct') {
      if (DECIMAL.test(String(value)) && !String(value).startsWith('-'))
        constraints.maxDrawdownPct = String(value);
      else problem(['constraints', key], 'expected a percentage >= 0 like 10 or 2.5');
    } else {
      problem(['constraints', key], 'unknown constraint (allowed: minTrades, maxDrawdownPct)');
    }
  }
  return constraints;
}

function paramsOf(raw: unknown, problem: Problem): Map<string, ParamSpec> {
  const params = new Map<string, ParamSpec>();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problem(['params'], 'expected a mapping of param name to { values }, { from, to, step } ...');
    return params;
  }
  for (const [name, spec] of Object.entries(raw)) {
    const parsed = parseParamSpec(spec, (message, sub = []) =>
      problem(['params', name, ...sub], message),
    );
    if (parsed !== undefined) params.set(name, parsed);
  }
  if (Object.keys(raw).length === 0) problem(['params'], 'no param to search');
  return params;
}

/** How many random sets to draw (needed by a distribution) and the seed (default 1). */
function samplingOf(
  top: Record<string, unknown>,
  params: ReadonlyMap<string, ParamSpec>,
  problem: Problem,
): { samples: number | undefined; seed: number } {
  const random = [...params.values()].some((s) => s.kind !== 'values' && s.kind !== 'range');
  const samples = top['samples'];
  if (samples !== undefined && !(Number.isInteger(samples) && (samples as number) > 0))
    problem(['samples'], 'expected a whole number > 0');
  if (random && samples === undefined)
    problem(['params'], 'a distribution (uniform, loguniform, int, choice) needs samples: N');
  const seed = top['seed'] ?? 1;
  if (!Number.isInteger(seed)) problem(['seed'], 'expected a whole number');
  return { samples: samples as number | undefined, seed: seed as number };
}

function parseParamSpec(
  spec: unknown,
  problem: (message: string, sub?: readonly (string | number)[]) => void,
): ParamSpec | undefined {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    problem('expected { values: [...] }, { from, to, step } or a distribution');
    return undefined;
  }
  const entry = spec as Record<string, unknown>;
  const keys = Object.keys(entry).sort().join(',');
  if (keys === 'values' || keys === 'choice') {
    const values = entry[keys];
    if (!Array.isArray(values) || values.length === 0) {
      problem('expected a non-empty list', [keys]);
      return undefined;
    }
    return { kind: keys, values };
  }
  if (keys === 'from,step,to') {
    const [from, to, step] = [entry['from'], entry['to'], entry['step']];
    const all = [from, to, step];
    if (
      !all.every((v) => (typeof v === 'number' || typeof v === 'string') && DECIMAL.test(String(v)))
    ) {
      problem('from, to and step must be numbers (or decimal strings)');
      return undefined;
    }
    if (Number(step) <= 0 || Number(to) < Number(from)) {
      problem('expected step > 0 and to >= from');
      return undefined;
    }
    return {
      kind: 'range',
      from: String(from),
      to: String(to),
      step: String(step),
      asString: typeof from === 'string',
    };
  }
  for (const kind of DISTRIBUTIONS) {
    if (keys !== kind) continue;
    const bounds = entry[kind];
    if (
      !Array.isArray(bounds) ||
      bounds.length !== 2 ||
      !bounds.every((b) => typeof b === 'number' && Number.isFinite(b)) ||
      (bounds[0] as number) > (bounds[1] as number) ||
      (kind === 'loguniform' && (bounds[0] as number) <= 0) ||
      (kind === 'int' && !bounds.every((b) => Number.isInteger(b)))
    ) {
      problem(`expected [low, high] with low <= high${kind === 'loguniform' ? ', low > 0' : ''}`, [
        kind,
      ]);
      return undefined;
    }
    return { kind, low: bounds[0] as number, high: bounds[1] as number };
  }
  problem(
    `unknown spec keys ${keys || '(none)'} (one of: values; from, to, step; uniform; loguniform; int; choice)`,
  );
  return undefined;
}

function invalid(file: string, problems: readonly string[]): QuantaError {
  return new QuantaError(
    ErrorCodes.CONFIG_INVALID,
    `space file ${file}: ${problems.length === 1 ? '1 problem' : `${problems.length} problems`}`,
    { details: problems },
  );
}

function offsetOf(doc: Document, path: readonly (string | number)[]): number {
  let node: unknown = doc.contents;
  let offset = 0;
  for (const step of path) {
    if (!isMap(node)) break;
    const pair = node.items.find(
      (item) => String(isScalar(item.key) ? item.key.value : item.key) === String(step),
    );
    if (pair === undefined) break;
    const key = pair.key as { range?: [number, number, number] } | null;
    offset = key?.range?.[0] ?? offset;
    node = pair.value;
  }
  return offset;
}
