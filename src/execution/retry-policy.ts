import { ErrorCodes, isQuantaError, meaningOf, summarizeError } from '../errors/index.ts';
import { VenueError } from '../venue/errors.ts';

/** What to do after a failed send attempt. */
export type AttemptVerdict =
  /** Resend the identical bytes (after backoff, and after the pause a 429 asks for). */
  | 'retry'
  /** The venue has seen this signature: an earlier attempt landed. */
  | 'accepted'
  /** The venue refused the order for good (400/401/403/404/413). */
  | 'rejected'
  /** This attempt never left the process (e.g. its signing key expired); not retried. */
  | 'unsent'
  /** It may or may not have landed, and we may not retry (expired, attempts used up, unknown failure). */
  | 'unknown';

/**
 * Decides what happens after a failed send (docs/design.md §4 rule 4) from the error's code
 * in the registry (`ErrorMeanings`), never from its class: transport failures, 5xx, 429 and
 * unusable answers are retried with the identical bytes while the order has not expired and
 * attempts remain; a 409 "signature already used" means an earlier attempt landed;
 * 400/401/403/404 are final; a refusal inside this process means this attempt never left.
 * Anything without a meaning for orders is `unknown`, never retried.
 */
export function judgeFailedAttempt(input: {
  error: unknown;
  attempt: number;
  maxAttempts: number;
  now: number;
  expiryTs: number;
}): AttemptVerdict {
  switch (meaningOf(input.error).send) {
    case 'landed':
      return 'accepted';
    case 'final':
      return 'rejected';
    case 'not-sent':
      return 'unsent';
    case 'unexpected':
      return 'unknown';
    case 'retry':
    case 'pause':
      return input.attempt >= input.maxAttempts || input.now >= input.expiryTs
        ? 'unknown'
        : 'retry';
  }
}

/** Pause when a 429 came without a usable `Retry-After`. */
const DEFAULT_PAUSE_MS = 1000;

/**
 * How long every sender must wait after this failed attempt: the venue's `Retry-After` for an
 * error the registry marks `pause` (429), else undefined (no pause).
 */
export function pauseAllSendersMs(error: unknown): number | undefined {
  if (meaningOf(error).send !== 'pause') return undefined;
  return (error instanceof VenueError ? error.retryAfterMs : undefined) ?? DEFAULT_PAUSE_MS;
}

/** The journal's final record of an order whose sending ended without a venue order. */
export interface UnplacedOutcome {
  readonly state: 'EXPIRED' | 'ACCEPTED' | 'REJECTED' | 'UNKNOWN';
  readonly error: string;
}

/**
 * What the journal records for an order whose dispatch ended without the venue's order (not
 * placed, not interrupted): the order effect of the last error's code in `ErrorMeanings`, made
 * `UNKNOWN` whenever an earlier attempt (of this run or of a run before a crash) may have landed,
 * because a later attempt's refusal says nothing about it (docs/design.md §4 rule 4: validation runs before
 * the replay guard, so a resend of a landed order can still get a 400).
 *
 * @param dispatch - the last error and the attempts this dispatch made.
 * @param attemptsEver - the journal's count of attempts of the order, this dispatch's included.
 */
export function unplacedOrderOutcome(
  dispatch: { readonly error: unknown; readonly attempts: number },
  attemptsEver: number,
): UnplacedOutcome {
  const message = summarizeError(dispatch.error).message;
  // It expired before this dispatch's first try, or before a resend (the expiry check comes
  // before the attempt is counted, so every counted attempt came before it and may have landed).
  if (dispatch.attempts === 0 || isQuantaError(dispatch.error, ErrorCodes.ORDER_EXPIRED)) {
    return Math.max(attemptsEver, dispatch.attempts) === 0
      ? { state: 'EXPIRED', error: 'expired before it was sent' }
      : { state: 'UNKNOWN', error: `expired before a resend could confirm it: ${message}` };
  }
  const earlierAttempts = Math.max(attemptsEver, dispatch.attempts) - 1;
  const mayHaveLanded = `an earlier attempt may have landed; check the venue: ${message}`;
  switch (meaningOf(dispatch.error).order) {
    case 'ACCEPTED':
      return {
        state: 'ACCEPTED',
        error:
          'venue had already seen this signature: an earlier attempt landed; its fill is not known',
      };
    case 'UNKNOWN':
      return { state: 'UNKNOWN', error: message };
    case 'REJECTED':
      return earlierAttempts > 0
        ? { state: 'UNKNOWN', error: `refused on a resend, but ${mayHaveLanded}` }
        : { state: 'REJECTED', error: message };
    case 'NOT_SENT':
      return earlierAttempts > 0
        ? { state: 'UNKNOWN', error: `the last attempt was never sent, but ${mayHaveLanded}` }
        : { state: 'REJECTED', error: `never sent: ${message}` };
  }
}
