// The file a `quanta sim --seeds` worker thread loads when quanta runs from its TypeScript
// sources (bin/worker-hooks.mjs says why it is needed).
import { importSource } from './worker-hooks.mjs';

const handler = await importSource('../src/simulation/pool-worker.ts');

export default handler.default;
