#!/usr/bin/env node
// The `quanta` command. Everything runs in this one process, so signals reach the CLI directly.
//
// - In the repository (src/ present): runs the TypeScript sources through tsx, registered here,
//   with the `quanta-source` export condition added so that `import ... from 'quanta'` in a
//   strategy resolves to src/index.ts, the same module instances the CLI uses.
// - Installed from the package (no src/): runs the compiled dist/ under plain node. tsx is
//   registered only when the config names a TypeScript strategy (`*.ts`, `*.mts`, `*.cts`).
// - Either way, a strategy outside any project with quanta installed still imports this quanta.
import { existsSync, readFileSync } from 'node:fs';
import { register as registerHooks } from 'node:module';

const source = new URL('../src/cli/main.ts', import.meta.url);
const inRepository = existsSync(source);

// One resolve hook. In the repository it adds the `quanta-source` condition; in both modes a
// strategy that imports 'quanta' or 'quanta/indicators' from a folder where no quanta is
// installed (a `quanta init DIR` anywhere on disk) gets this very quanta, not ERR_MODULE_NOT_FOUND.
const HOOK = `
let entries;
let sourceCondition = false;
export function initialize(data) {
  entries = data.entries;
  sourceCondition = data.sourceCondition;
}
export async function resolve(specifier, context, next) {
  const withCondition = sourceCondition
    ? { ...context, conditions: [...context.conditions, 'quanta-source'] }
    : context;
  try {
    return await next(specifier, withCondition);
  } catch (error) {
    const entry = Object.hasOwn(entries, specifier) ? entries[specifier] : undefined;
    if (entry !== undefined && error?.code === 'ERR_MODULE_NOT_FOUND')
      return { url: entry, shortCircuit: true };
    throw error;
  }
}`;
// The package's public entry points (package.json "exports"), as sources or compiled.
const entry = (name) =>
  new URL(inRepository ? `../src/${name}.ts` : `../dist/${name}.js`, import.meta.url).href;
registerHooks('data:text/javascript,' + encodeURIComponent(HOOK), {
  data: {
    entries: { quanta: entry('index'), 'quanta/indicators': entry('indicators') },
    sourceCondition: inRepository,
  },
});

if (inRepository) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  if (await namesTypeScriptStrategy(process.argv.slice(2))) {
    const { register } = await import('tsx/esm/api');
    register();
  }
  await import('../dist/cli/main.js');
}

/**
 * Whether the config a `run`/`backtest` command would load names a TypeScript strategy module.
 * A best guess only: any problem here is left to the CLI, which reports it properly.
 */
async function namesTypeScriptStrategy(args) {
  if (!['run', 'backtest', 'optimize'].includes(args[0])) return false;
  let path = 'config/paper.yaml';
  for (let i = 1; i < args.length; i++) {
    if (args[i] === '--config' && args[i + 1] !== undefined) path = args[i + 1];
    else if (args[i].startsWith('--config=')) path = args[i].slice('--config='.length);
  }
  try {
    const { parse } = await import('yaml');
    const strategies = parse(readFileSync(path, 'utf8'))?.strategies;
    return (
      Array.isArray(strategies) &&
      strategies.some((entry) => /\.[cm]?tsx?$/.test(String(entry?.module ?? '')))
    );
  } catch {
    return false;
  }
}
