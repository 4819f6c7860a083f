/**
 * Small modules a newcomer can hold in their head (issue 26): no function in src/ is longer than
 * 80 lines and no file longer than 400, unless the file says why at its top with a comment of the
 * form `// size-exempt: <reason>` (a table, a generated constant). Every function-like node with
 * a body counts (declarations, methods, constructors, accessors, function expressions and arrow
 * functions, nested ones too), from its first token to its last (its doc comment not included).
 *
 * While the big modules are being split, the ones still over are listed in PENDING: the test
 * fails when anything not listed is over, and when a listed one now fits (so the list only
 * shrinks: remove it when you split it).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../../src');
const MAX_FUNCTION_LINES = 80;
const MAX_FILE_LINES = 400;

/** Files (relative to src/) and functions (`file: qualified name`) still over the limits. */
const PENDING: readonly string[] = [];

/** The comment that exempts a file, read from its leading comments only. */
const EXEMPT = /^\/\/ size-exempt: (\S.*)$/m;

/** Why the file is exempt, when its top comment (before any code) says so. */
function exemptionOf(text: string): string | undefined {
  const ranges = ts.getLeadingCommentRanges(text, 0) ?? [];
  for (const { pos, end } of ranges) {
    const reason = EXEMPT.exec(text.slice(pos, end))?.[1];
    if (reason !== undefined) return reason.trim();
  }
  return undefined;
}

/** A name for a function-like node: its own, or what it is assigned to or handed to. */
function nameOf(node: ts.SignatureDeclaration, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name !== undefined) return node.name.getText(file);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
    return parent.name.getText(file);
  if (ts.isPropertyDeclaration(parent)) return parent.name.getText(file);
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    const callee = parent.expression.getText(file);
    return `${ts.isNewExpression(parent) ? 'new ' : ''}${callee}(callback)`;
  }
  return '(anonymous)';
}

/**
 * The function's name qualified by the classes and functions around it: `Class.method`,
 * `outer > inner`.
 */
function qualifiedNameOf(node: ts.SignatureDeclaration, file: ts.SourceFile): string {
  let name = nameOf(node, file);
  for (let at = node.parent; !ts.isSourceFile(at); at = at.parent) {
    if (ts.isClassLike(at)) name = `${at.name?.getText(file) ?? '(class)'}.${name}`;
    else if (ts.isFunctionLike(at) && 'body' in at && at.body !== undefined)
      name = `${nameOf(at, file)} > ${name}`;
  }
  return name;
}

/** One measured thing over its limit: `file` or `file: qualified function name`. */
interface Oversize {
  readonly key: string;
  readonly lines: number;
}

/** The file `name` (its text) and its functions that are over the limits. */
function oversizeOf(name: string, text: string): Oversize[] {
  if (exemptionOf(text) !== undefined) return [];
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number): number => file.getLineAndCharacterOfPosition(pos).line;
  const found: Oversize[] = [];
  const fileLines = lineOf(file.end) + (text.endsWith('\n') || text === '' ? 0 : 1);
  if (fileLines > MAX_FILE_LINES) found.push({ key: name, lines: fileLines });
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const lines = lineOf(node.end) - lineOf(node.getStart(file)) + 1;
      if (lines > MAX_FUNCTION_LINES) {
        found.push({ key: `${name}: ${qualifiedNameOf(node, file)}`, lines });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const OVERSIZE = sourceFiles(SRC).flatMap((path) =>
  oversizeOf(relative(SRC, path), readFileSync(path, 'utf8')),
);

it(`no function in src/ is over ${MAX_FUNCTION_LINES} lines, no file over ${MAX_FILE_LINES}`, () => {
  const unlisted = OVERSIZE.filter(({ key }) => !PENDING.includes(key)).map(
    ({ key, lines }) => `${key} (${lines} lines)`,
  );
  expect(unlisted).toEqual([]);
});

it('PENDING lists only what is still over (remove an entry when you split it)', () => {
  const over = new Set(OVERSIZE.map(({ key }) => key));
  expect(PENDING.filter((key) => !over.has(key))).toEqual([]);
});

it('measures nested arrows and methods, and reads the exemption only from the top', () => {
  const body = (n: number): string => Array.from({ length: n }, (_, i) => `  f(${i});`).join('\n');
  const text = [
    'export class C {',
    '  m(): void {',
    '    const inner = (): void => {',
    body(80),
    '    };',
    '  }',
    '}',
    'export const g = (): void => {',
    body(78),
    '};',
    '',
  ].join('\n');
  expect(oversizeOf('x.ts', text)).toEqual([
    { key: 'x.ts: C.m', lines: 84 },
    { key: 'x.ts: C.m > inner', lines: 82 },
  ]);
  const long = `${'// a line\n'.repeat(401)}`;
  expect(oversizeOf('t.ts', long)).toEqual([{ key: 't.ts', lines: 401 }]);
  expect(oversizeOf('t.ts', `// size-exempt: a generated table\n${long}`)).toEqual([]);
  expect(exemptionOf('// size-exempt: a generated table\nconst x = 1;\n')).toBe(
    'a generated table',
  );
  // Below the first code, or without a reason, it exempts nothing.
  expect(exemptionOf('const x = 1;\n// size-exempt: too late\n')).toBeUndefined();
  expect(exemptionOf('// size-exempt:\nconst x = 1;\n')).toBeUndefined();
});
