/**
 * The dispatcher's retry policy and the journal's outcome, both read from the error registry:
 * what one failed attempt means, how long every sender pauses, and what the journal records
 * for an order that was not placed.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import {
  judgeFailedAttempt,
  pauseAllSendersMs,
  unplacedOrderOutcome,
} from '../../../src/execution/retry-policy.ts';
import {
  VenueError,
  venueAbortedError,
  venueBadResponseError,
  venueErrorFromStatus,
  venueResponseTooLargeError,
  venueTimeoutError,
  venueUnreachableError,
} from '../../../src/venue/errors.ts';

const EP = 'POST /api/v1/order';
const status = (s: number, venueMessage?: string) =>
  venueErrorFromStatus({ status: s, endpoint: EP, venueMessage });
const keyExpired = new QuantaError(
  ErrorCodes.SIGNING_KEY_EXPIRED,
  'signing key expired: no valid credential for signer 0xabc',
);
const judge = (error: unknown, attempt = 1, maxAttempts = 3, now = 0, expiryTs = 1000) =>
  judgeFailedAttempt({ error, attempt, maxAttempts, now, expiryTs });

describe('judgeFailedAttempt', () => {
  it.each([
    ['timeout', venueTimeoutError(EP, 100), 'retry'],
    ['unreachable', venueUnreachableError(EP, 'http://x', 'connection refused'), 'retry'],
    ['500', status(500), 'retry'],
    ['503', status(503), 'retry'],
    ['429', status(429), 'retry'],
    // It may have landed behind a proxy that mangled the answer: the resend's 409 tells.
    ['unusable answer on 200', venueBadResponseError(EP, 200, 'HTML instead of JSON'), 'retry'],
    ['unusable answer on 503', venueBadResponseError(EP, 503, 'HTML instead of JSON'), 'retry'],
    ['302 (not followed)', status(302), 'retry'],
    ['answer too large', venueResponseTooLargeError(EP, 200, 10), 'retry'],
    [
      '200 whose order does not parse',
      new QuantaError(ErrorCodes.INVALID_WIRE_DATA, 'order 7: amountx18: expected x18'),
      'retry',
    ],
    ['409', status(409), 'accepted'],
    ['400 "signature already used"', status(400, 'signature already used'), 'accepted'],
    ['400', status(400, 'market 9 is not active'), 'rejected'],
    ['401', status(401), 'rejected'],
    ['403', status(403), 'rejected'],
    ['404', status(404), 'rejected'],
    ['413', status(413), 'rejected'],
    ['signing key expired', keyExpired, 'unsent'],
    [
      'request not buildable',
      new VenueError({ code: ErrorCodes.VENUE_HTTP, shortMessage: 'bad header', endpoint: EP }),
      'unsent',
    ],
    ['credentials over plain http', new QuantaError(ErrorCodes.INSECURE_TRANSPORT, 'x'), 'unsent'],
    ['aborted by the caller', venueAbortedError(EP), 'unknown'],
    ['a plain Error', new Error('fetch failed'), 'unknown'],
    ['a non-error', 'timeout', 'unknown'],
  ])('%s → %s', (_name, error, verdict) => {
    expect(judge(error)).toBe(verdict);
  });

  it('judges by code, not class: a QuantaError means what a VenueError with its code means', () => {
    // The old policy trusted only VenueErrors: this is how an expired key became UNKNOWN.
    expect(judge(new QuantaError(ErrorCodes.VENUE_CREDENTIALS_REFUSED, 'x'))).toBe('rejected');
    expect(judge(new QuantaError(ErrorCodes.VENUE_TIMEOUT, 'x'))).toBe('retry');
  });

  it('stops retrying once attempts are used up or the order has expired', () => {
    const timeout = venueTimeoutError(EP, 100);
    expect(judge(timeout, 2, 3)).toBe('retry');
    expect(judge(timeout, 3, 3)).toBe('unknown');
    expect(judge(timeout, 1, 3, 999, 1000)).toBe('retry');
    expect(judge(timeout, 1, 3, 1000, 1000)).toBe('unknown');
    expect(judge(status(429), 3, 3)).toBe('unknown');
    // What is not retried does not depend on attempts.
    expect(judge(status(409), 3, 3)).toBe('accepted');
    expect(judge(keyExpired, 3, 3)).toBe('unsent');
  });
});

describe('pauseAllSendersMs', () => {
  it("pauses every sender for a 429's Retry-After, 1 s when it gave none", () => {
    expect(
      pauseAllSendersMs(venueErrorFromStatus({ status: 429, endpoint: EP, retryAfterMs: 2500 })),
    ).toBe(2500);
    expect(pauseAllSendersMs(status(429))).toBe(1000);
    expect(pauseAllSendersMs(new QuantaError(ErrorCodes.VENUE_RATE_LIMITED, 'x'))).toBe(1000);
  });

  it('does not pause for anything else', () => {
    for (const error of [status(503), status(400), keyExpired, new Error('x')])
      expect(pauseAllSendersMs(error)).toBeUndefined();
  });
});

describe('unplacedOrderOutcome', () => {
  it('records what the last error means when no earlier attempt may have landed', () => {
    expect(unplacedOrderOutcome({ error: status(409), attempts: 2 }, 2)).toEqual({
      state: 'ACCEPTED',
      error:
        'venue had already seen this signature: an earlier attempt landed; its fill is not known',
    });
    expect(
      unplacedOrderOutcome({ error: status(400, 'market 9 not found'), attempts: 1 }, 1),
    ).toEqual({
      state: 'REJECTED',
      error: 'venue refused POST /api/v1/order (400): market 9 not found',
    });
    expect(unplacedOrderOutcome({ error: keyExpired, attempts: 1 }, 1)).toEqual({
      state: 'REJECTED',
      error: 'never sent: signing key expired: no valid credential for signer 0xabc',
    });
    expect(unplacedOrderOutcome({ error: venueTimeoutError(EP, 100), attempts: 3 }, 3)).toEqual({
      state: 'UNKNOWN',
      error: 'venue did not answer POST /api/v1/order within 100 ms',
    });
    expect(unplacedOrderOutcome({ error: new Error('bug'), attempts: 1 }, 1)).toEqual({
      state: 'UNKNOWN',
      error: 'bug',
    });
  });

  it('is UNKNOWN when an earlier attempt, of this run or of one before a crash, may have landed', () => {
    // 503 then 400 in one dispatch: validation runs before the replay guard, so a landed order's
    // resend can get a 400 too (docs/design.md §4 rule 4).
    expect(unplacedOrderOutcome({ error: status(400, 'market 9 is not active'), attempts: 2 }, 2))
      .toMatchInlineSnapshot(`
      {
        "error": "refused on a resend, but an earlier attempt may have landed; check the venue: venue refused POST /api/v1/order (400): market 9 is not active",
        "state": "UNKNOWN",
      }
    `);
    // Sent once before a crash; after the restart the key has expired.
    expect(unplacedOrderOutcome({ error: keyExpired, attempts: 1 }, 2)).toMatchInlineSnapshot(`
      {
        "error": "the last attempt was never sent, but an earlier attempt may have landed; check the venue: signing key expired: no valid credential for signer 0xabc",
        "state": "UNKNOWN",
      }
    `);
    expect(unplacedOrderOutcome({ error: status(401), attempts: 1 }, 2).state).toBe('UNKNOWN');
  });

  it('an order whose first attempt went unanswered and whose resend expired stays UNKNOWN', () => {
    // The expiry check runs before an attempt is counted: the one counted attempt may have landed.
    const expired = new QuantaError(
      ErrorCodes.ORDER_EXPIRED,
      'order 5 expired before it could be sent',
    );
    expect(unplacedOrderOutcome({ error: expired, attempts: 1 }, 1).state).toBe('UNKNOWN');
    expect(unplacedOrderOutcome({ error: expired, attempts: 0 }, 0).state).toBe('EXPIRED');
  });

  it('tells an order that expired before it was ever sent from one that expired before a resend', () => {
    const expired = new Error('order 4 expired before it could be sent');
    expect(unplacedOrderOutcome({ error: expired, attempts: 0 }, 0)).toEqual({
      state: 'EXPIRED',
      error: 'expired before it was sent',
    });
    expect(unplacedOrderOutcome({ error: expired, attempts: 0 }, 1)).toEqual({
      state: 'UNKNOWN',
      error: 'expired before a resend could confirm it: order 4 expired before it could be sent',
    });
  });
});
