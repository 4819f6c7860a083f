// What a worker thread needs to run quanta from its TypeScript sources (the repository, tests,
// `npm start`). Hooks registered in the main process (bin/quanta.js) do not reach worker threads
// on Node 20, so this repeats them: the `quanta-source` condition (so `import ... from 'quanta'`
// is src/index.ts), this quanta for strategies outside any project, and tsx (its namespaced
// import, the form that works inside a worker thread). The workers: bin/optimize-worker.mjs (a
// sweep's sets) and bin/strategy-worker.mjs (a strategy with `isolate: worker`).
import { register } from 'node:module';
import { tsImport } from 'tsx/esm/api';

const HOOK = `
let entry;
export function initialize(data) { entry = data.entry; }
export async function resolve(specifier, context, next) {
  const withCondition = { ...context, conditions: [...context.conditions, 'quanta-source'] };
  try {
    return await next(specifier, withCondition);
  } catch (error) {
    if (specifier === 'quanta' && error?.code === 'ERR_MODULE_NOT_FOUND')
      return { url: entry, shortCircuit: true };
    throw error;
  }
}`;
register('data:text/javascript,' + encodeURIComponent(HOOK), {
  data: { entry: new URL('../src/index.ts', import.meta.url).href },
});

/** Imports a TypeScript module of quanta's sources, `path` relative to this folder. */
export function importSource(path) {
  return tsImport(path, import.meta.url);
}
