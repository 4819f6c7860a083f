/**
 * The house rules of docs/design.md §2 (its table), read from the sources: arrows point one way
 * (each folder imports only the folders listed for it), no file takes part in an import circle
 * (type-only imports included: a circle of types is still a circle of knowledge), domain types
 * live below venue and sim, and stack/ is the only folder that wires the trading stack (for
 * runtime and backtest alike).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../../src');

// Cross-cutting helpers every layer may use: the error registry, the logger and the clocks.
const SHARED = ['errors', 'log', 'clock'];

/**
 * Which folders each folder may import (docs/design.md §2, arrows pointing down). No
 * exceptions: `config/` is a leaf (it knows none of the others) that the layers configured by it
 * read (strategy entries and file locations for errors, the backtest's section); `stack/` is the
 * one place execution and strategy meet (the trading session and `buildTradingStack`), used by
 * runtime and backtest alike.
 */
const ALLOWED: Record<string, readonly string[]> = {
  money: [],
  domain: ['money'],
  config: ['money'],
  venue: ['domain', 'money'],
  sim: ['domain', 'money'],
  account: ['venue', 'domain', 'money'],
  market: ['domain', 'venue', 'money'],
  strategy: ['market', 'config', 'domain', 'money'],
  execution: ['market', 'venue', 'domain', 'money'],
  paper: ['sim', 'venue', 'domain', 'money'],
  stack: ['execution', 'strategy', 'market', 'venue', 'config', 'domain', 'money'],
  runtime: [
    'stack',
    'execution',
    'strategy',
    'market',
    'account',
    'paper',
    'sim',
    'venue',
    'config',
    'domain',
    'money',
  ],
  backtest: [
    'stack',
    'execution',
    'strategy',
    'market',
    'paper',
    'sim',
    'venue',
    'config',
    'domain',
    'money',
  ],
  // The whole-bot simulation (issue 31): the bot's parts on the in-process paper venue.
  simulation: [
    'runtime',
    'stack',
    'execution',
    'strategy',
    'market',
    'account',
    'paper',
    'sim',
    'venue',
    'config',
    'domain',
    'money',
  ],
  // Sweeps: backtests of many parameter sets (issue 16).
  optimize: ['backtest', 'strategy', 'market', 'config', 'money'],
  cli: [
    'simulation',
    'runtime',
    'optimize',
    'backtest',
    'paper',
    'account',
    'market',
    'venue',
    'config',
    'domain',
    'money',
  ],
  errors: [],
  log: [],
  clock: [],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const FILES = sourceFiles(SRC);
// Static imports and re-exports.
const STATIC_IMPORT = /(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g;
// Modules loaded when needed, `import('./x.ts')` and tsx's `tsImport('./x.js', import.meta.url)`:
// loaded later, still an arrow between folders. (A URL handed to a worker is not an import.)
const DYNAMIC_IMPORT = /\b(?:import|tsImport)\(\s*'(\.[^']+)'/g;

/** The source files `text` (the file `file`) imports, statically or dynamically. */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(STATIC_IMPORT), ...text.matchAll(DYNAMIC_IMPORT)].map((m) =>
    resolve(dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts')),
  );
}

/** The files of src/ that package.json exports (docs/architecture.md, "The package entries"). */
const PACKAGE_ENTRIES = ['index', 'indicators', 'runtime-entry', 'backtest-entry'];

const IMPORTS = new Map(FILES.map((file) => [file, importsOf(file, readFileSync(file, 'utf8'))]));
const folderOf = (file: string): string =>
  relative(SRC, file).split('/')[0]?.replace(/\.ts$/, '') ?? '';

it('every folder imports only the folders below it', () => {
  const violations: string[] = [];
  for (const [file, targets] of IMPORTS) {
    const from = folderOf(file);
    // The package entries (`quanta`, `quanta/indicators`, `quanta/runtime`, `quanta/backtest`)
    // re-export the public surface.
    if (PACKAGE_ENTRIES.includes(from)) continue;
    const allowed = ALLOWED[from];
    expect(allowed, `folder ${from} is missing from the table`).toBeDefined();
    for (const target of targets) {
      const to = folderOf(target);
      if (to === from || SHARED.includes(to) || allowed?.includes(to) === true) continue;
      violations.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
    }
  }
  expect(violations).toEqual([]);
});

it('no file takes part in an import circle', () => {
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const target of IMPORTS.get(file) ?? []) {
      if (!IMPORTS.has(target)) continue;
      if (state.get(target) === 'open')
        circles.push(
          path
            .slice(path.indexOf(target))
            .map((f) => relative(SRC, f))
            .join(' > '),
        );
      else if (state.get(target) === undefined) visit(target);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of FILES) if (state.get(file) === undefined) visit(file);
  expect(circles).toEqual([]);
});

it('only stack/ builds the trading stack', () => {
  const builders = FILES.filter((file) => folderOf(file) !== 'stack').filter((file) =>
    /new (Dispatcher|Executor|TradingSession)\(/.test(readFileSync(file, 'utf8')),
  );
  expect(builders.map((f) => relative(SRC, f))).toEqual([]);
});

it('reads dynamic imports too (a module loaded when needed is still an arrow)', () => {
  const file = join(SRC, 'cli/a.ts');
  const text = [
    "import { x } from '../money/index.ts';",
    "const { startPaperVenue } = await import('../paper/index.ts');",
    "const handler = await tsImport('./pool-worker.js', import.meta.url);",
  ].join('\n');
  expect(importsOf(file, text).map((target) => relative(SRC, target))).toEqual([
    'money/index.ts',
    'paper/index.ts',
    'cli/pool-worker.ts',
  ]);
});
