import type { Logger } from '../log/logger.ts';
import { REFUSED_EVERY_KEY_HINT, type CredentialRefusal } from './refusal-spacing.ts';

/**
 * The log line of a key the venue refused (`CredentialManager.refused`), saying what follows:
 * nothing for an earlier key, a new key already under way, one at once, or one after a wait
 * (an error then: key after key refused points at the config, REFUSED_EVERY_KEY_HINT).
 */
export function logRefusal(log: Logger, refusal: CredentialRefusal): void {
  const { signer, newest, waitMs, inARow, registering } = refusal;
  const refused = `the venue refused the credentials of signing key ${signer}`;
  if (!newest) log.warn({ signer }, `${refused}, an earlier one: no order goes out with them`);
  else if (registering)
    log.warn(
      { signer },
      `${refused}: no order goes out with them; a new key is being registered already`,
    );
  else if (waitMs === 0)
    log.warn({ signer }, `${refused}: no order goes out with them; a new key is registered`);
  else
    log.error(
      { signer, waitMs, refusalsInARow: inARow },
      `${refused} too, soon after the last new key: registering again in ${waitMs} ms (${REFUSED_EVERY_KEY_HINT})`,
    );
}
