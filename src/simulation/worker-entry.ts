/**
 * The file a `quanta sim --seeds` worker thread loads when quanta runs compiled (dist/): the
 * task handler through tsx's namespaced import, as optimize/worker-entry.ts does.
 */
import { tsImport } from 'tsx/esm/api';

const handler = (await tsImport('./pool-worker.js', import.meta.url)) as {
  default: (task: unknown) => Promise<unknown>;
};

export default handler.default;
