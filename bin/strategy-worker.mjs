// The file the worker thread of a strategy with `isolate: worker` loads when quanta runs from its
// TypeScript sources (bin/worker-hooks.mjs says why it is needed).
import { importSource } from './worker-hooks.mjs';

await importSource('../src/strategy/isolate/strategy-worker.ts');
