/**
 * The file a sweep's worker thread loads when quanta runs compiled (dist/). It loads the task
 * handler through tsx's namespaced import, so strategies written in TypeScript load in the
 * thread as they do in the main process (hooks registered there do not reach worker threads), and
 * lets a strategy outside any project import this quanta.
 */
import { tsImport } from 'tsx/esm/api';
import { registerQuantaFallback } from '../strategy/isolate/quanta-fallback-hook.ts';

registerQuantaFallback();
const handler = (await tsImport('./pool-worker.js', import.meta.url)) as {
  default: (task: unknown) => Promise<unknown>;
};

export default handler.default;
