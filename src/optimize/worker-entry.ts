/**
 * The file a sweep's worker thread loads when quanta runs compiled (dist/). It loads the task
 * handler through tsx's namespaced import, so strategies written in TypeScript load in the
 * thread as they do in the main process (hooks registered there do not reach worker threads), and
 * lets a strategy outside any project import this quanta.
 */
import { register } from 'node:module';
import { tsImport } from 'tsx/esm/api';

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
register('data:text/javascript,' + encodeURIComponent(HOOK), {
  data: { entry: new URL('../index.js', import.meta.url).href },
});

const handler = (await tsImport('./pool-worker.js', import.meta.url)) as {
  default: (task: unknown) => Promise<unknown>;
};

export default handler.default;
