/**
 * The file a strategy's worker thread (`isolate: worker`) loads when quanta runs compiled
 * (dist/). It loads the worker through tsx's namespaced import, so a strategy written in
 * TypeScript loads in the thread as it does in the main process (hooks registered there do not
 * reach worker threads), and lets a strategy outside any project import this quanta.
 */
import { tsImport } from 'tsx/esm/api';
import { registerQuantaFallback } from './quanta-fallback-hook.ts';

registerQuantaFallback();
await tsImport('./strategy-worker.js', import.meta.url);
