import type { Logger } from '../log/logger.ts';
import { REFUSED_EVERY_KEY_HINT, type CredentialRefusal } from './refusal-spacing.ts';

/**
 * The log line of a key the venue refused (`CredentialManager.refused`), saying what follows:
 * nothing for an earlier key, a new key at once (or already under way), or one after a wait (an
 * error then, with what to check: key after key refused points at the config); a wait set while
 * a new key is under way only matters if that registration fails, and the line says so.
 */
export function logRefusal(log: Logger, refusal: CredentialRefusal): void {
  const { signer, newest, waitMs, inARow, registering } = refusal;
  const refused = `the venue refused the credentials of signing key ${signer}`;
  if (!newest) log.warn({ signer }, `${refused}, an earlier one: no order goes out with them`);
  else if (waitMs === 0)
    log.warn(
      { signer },
      `${refused}: no order goes out with them; ${registering ? 'a new key is being registered already' : 'a new key is registered'}`,
    );
  else {
    const next = registering
      ? `a new key is being registered already; if that fails, the next one waits ${waitMs} ms`
      : `registering again in ${waitMs} ms`;
    log.error(
      { signer, waitMs, refusalsInARow: inARow },
      `${refused} too, soon after the last new key: ${next} (${REFUSED_EVERY_KEY_HINT})`,
    );
  }
}
