import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MIXED_VENUE_MESSAGE, venueMode } from '../config/venue-mode.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';

/** Where a bot keeps its files under `state.dir`. */
export interface StatePaths {
  readonly journal: string;
  readonly credentials: string;
  /**
   * Throwaway wallet key of fully embedded paper runs (used only when the key variable is
   * unset); `undefined` for a real venue, which must never get a generated key.
   */
  readonly paperWalletKey: string | undefined;
}

/** The journal's and the credentials' file names in a bot's state folder. */
const JOURNAL_FILE = 'journal.sqlite';
const CREDENTIALS_FILE = 'credentials.json';

/** A bot's state folder for this venue: `state.dir`, or its `paper/` for a fully embedded one. */
function stateFolderOf(
  stateDir: string,
  venue: { readonly writeUrl: string; readonly readUrl: string },
): { readonly root: string; readonly dir: string; readonly embedded: boolean } {
  const mode = venueMode(venue);
  if (mode === 'mixed') {
    throw new QuantaError(ErrorCodes.CONFIG_INVALID, `venue: ${MIXED_VENUE_MESSAGE}`);
  }
  const root = resolve(stateDir);
  const embedded = mode === 'embedded';
  return { root, dir: embedded ? join(root, 'paper') : root, embedded };
}

/**
 * Where a bot with this state dir and venue keeps its journal, without touching anything (for
 * readers such as `quanta status`; {@link statePaths} empties an embedded venue's folder).
 */
export function journalPathOf(
  stateDir: string,
  venue: { readonly writeUrl: string; readonly readUrl: string },
): string {
  return join(stateFolderOf(stateDir, venue).dir, JOURNAL_FILE);
}

/**
 * Where a bot with this state dir and venue keeps its credentials, without touching anything
 * (for readers such as `quanta status`).
 */
export function credentialsPathOf(
  stateDir: string,
  venue: { readonly writeUrl: string; readonly readUrl: string },
): string {
  return join(stateFolderOf(stateDir, venue).dir, CREDENTIALS_FILE);
}

/**
 * The state files of a bot. An embedded paper venue is new in every process and knows neither
 * earlier credentials nor earlier orders, so fully embedded runs keep theirs in `paper/`, emptied
 * here, at start; a real venue's files live in `state.dir` itself and survive restarts. Readers
 * use {@link journalPathOf} and {@link credentialsPathOf}, which empty nothing.
 *
 * @param venue - `venue.writeUrl` and `venue.readUrl` as written in the config (`embedded` or a
 *   URL). Only when both are `embedded` is the paper directory used (and emptied).
 * @throws QuantaError `QUANTA_CONFIG_INVALID` for a venue embedded for one API only: emptying
 *   state at start, or a throwaway key, would lose a real venue's orders or funds.
 */
export function statePaths(
  stateDir: string,
  venue: { readonly writeUrl: string; readonly readUrl: string },
): StatePaths {
  const { root, dir, embedded } = stateFolderOf(stateDir, venue);
  if (embedded) rmSync(dir, { recursive: true, force: true });
  return {
    journal: join(dir, JOURNAL_FILE),
    credentials: join(dir, CREDENTIALS_FILE),
    paperWalletKey: embedded ? join(root, 'paper-wallet.key') : undefined,
  };
}
