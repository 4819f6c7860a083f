import { ErrorCodes, isQuantaError } from '../errors/index.ts';
import { VenueError } from '../venue/errors.ts';

/** What to do after a failed send attempt. */
export type AttemptVerdict =
  /** Resend the identical bytes (after backoff). */
  | 'retry'
  /** The venue has seen this signature: an earlier attempt landed. */
  | 'accepted'
  /** The venue refused the order for good (400/401/403/404/413). */
  | 'rejected'
  /** It may or may not have landed, and we may not retry (expired, attempts used up, unknown failure). */
  | 'unknown';

const RETRYABLE: ReadonlySet<string> = new Set([
  ErrorCodes.VENUE_TIMEOUT,
  ErrorCodes.VENUE_UNREACHABLE,
  ErrorCodes.VENUE_SERVER_ERROR,
  ErrorCodes.VENUE_RATE_LIMITED,
  ErrorCodes.VENUE_BAD_RESPONSE,
]);

const FINAL_REFUSALS: ReadonlySet<string> = new Set([
  ErrorCodes.VENUE_REJECTED,
  ErrorCodes.VENUE_CREDENTIALS_REFUSED,
  ErrorCodes.VENUE_FORBIDDEN,
  ErrorCodes.VENUE_NOT_FOUND,
  ErrorCodes.INSECURE_TRANSPORT,
]);

/**
 * The one allow-list deciding what happens after a failed send (DESIGN order-safety rule 4):
 * only transport failures, 5xx, 429 and unusable answers are retried, only while the order has
 * not expired and attempts remain; 409 "signature already used" means an earlier attempt
 * landed; 400/401/403/404 are final. Anything not on the list is `unknown`, never retried.
 */
export function judgeFailedAttempt(input: {
  error: unknown;
  attempt: number;
  maxAttempts: number;
  now: number;
  expiryTs: number;
}): AttemptVerdict {
  const { error } = input;
  if (isQuantaError(error, ErrorCodes.VENUE_SIGNATURE_USED)) return 'accepted';
  if (error instanceof VenueError && FINAL_REFUSALS.has(error.code)) return 'rejected';
  if (isQuantaError(error, ErrorCodes.INSECURE_TRANSPORT)) return 'rejected';
  const retryable = error instanceof VenueError && RETRYABLE.has(error.code);
  if (!retryable) return 'unknown';
  if (input.attempt >= input.maxAttempts || input.now >= input.expiryTs) return 'unknown';
  return 'retry';
}
