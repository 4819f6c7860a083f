import { register } from 'node:module';

const HOOK = `
let entry;
export function initialize(data) { entry = data.entry; }
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (specifier === 'quanta' && error?.code === 'ERR_MODULE_NOT_FOUND')
      return { url: entry, shortCircuit: true };
    throw error;
  }
}`;

/**
 * In a worker thread of compiled quanta (dist/): lets a strategy outside any project import this
 * quanta. Hooks registered in the main process (bin/quanta.js) do not reach worker threads on
 * Node 20, so each worker entry registers this one (a sweep's, a strategy's).
 */
export function registerQuantaFallback(): void {
  register('data:text/javascript,' + encodeURIComponent(HOOK), {
    data: { entry: new URL('../../index.js', import.meta.url).href },
  });
}
