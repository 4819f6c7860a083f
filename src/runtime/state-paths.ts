import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where a bot keeps its files under `state.dir`. */
export interface StatePaths {
  readonly journal: string;
  readonly credentials: string;
  /** Throwaway wallet key of paper runs (only used when the key variable is unset). */
  readonly paperWalletKey: string;
}

/**
 * The state files of a bot. An embedded paper venue is new in every process and knows neither
 * earlier credentials nor earlier orders, so embedded runs keep theirs in `paper/`, emptied at
 * start; a real venue's files live in `state.dir` itself and survive restarts.
 */
export function statePaths(stateDir: string, embedded: boolean): StatePaths {
  const root = resolve(stateDir);
  const dir = embedded ? join(root, 'paper') : root;
  if (embedded) rmSync(dir, { recursive: true, force: true });
  return {
    journal: join(dir, 'journal.sqlite'),
    credentials: join(dir, 'credentials.json'),
    paperWalletKey: join(root, 'paper-wallet.key'),
  };
}
