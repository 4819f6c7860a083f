import type { z } from 'zod';
import { QuantaError, type ErrorCode } from '../../errors/index.ts';

// Shows at most this many issues; a row broken in ten places is fixed one field at a time.
const MAX_DETAILS = 5;

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Per-parse error map for wire data: a field that is absent says `missing`, a wrong type names
 * the type it got. Neither ever prints the value, so a misplaced secret cannot leak through it;
 * schemas that do echo a value (`got "-5"`) say so in their own messages, field by field.
 */
const wireErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (
    issue.input === undefined &&
    (issue.code === 'invalid_type' || issue.code === 'invalid_value')
  ) {
    return 'missing';
  }
  if (issue.code === 'invalid_type') {
    return `expected ${issue.expected === 'int' ? 'an integer' : issue.expected}, got ${describeType(issue.input)}`;
  }
  return undefined;
};

/** `markets[3].MinAmountx18` from zod's `['markets', 3, 'MinAmountx18']`. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

function formatIssue(issue: z.core.$ZodIssue): string {
  const path = formatPath(issue.path);
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

/**
 * Turns a zod error into one message line per issue, each `<path>: <message>`, the first issue
 * first. Used by every wire parser so messages read alike.
 */
export function zodIssueLines(error: z.ZodError): string[] {
  return error.issues.map(formatIssue);
}

/** What a wire parse failure is reported as. */
export interface WireParseOptions {
  /** The error code to throw. */
  readonly code: ErrorCode;
  /** What was being parsed, the message prefix: `order`, `market 7`, `quotes`. */
  readonly what: string;
}

/**
 * Parses `raw` with `schema`, or throws a QuantaError whose message is
 * `<what>: <path>: <rule>` for the first issue (further issues go to `details`).
 * The zod error is not attached as `cause`: the message already carries all it says.
 *
 * @throws QuantaError with `options.code`.
 */
export function parseWire<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  options: WireParseOptions,
): z.output<S> {
  const result = schema.safeParse(raw, { error: wireErrorMap });
  if (result.success) return result.data;
  const [first = 'invalid', ...rest] = zodIssueLines(result.error);
  throw new QuantaError(options.code, `${options.what}: ${first}`, {
    details: rest.slice(0, MAX_DETAILS).map((line) => `${options.what}: ${line}`),
  });
}
