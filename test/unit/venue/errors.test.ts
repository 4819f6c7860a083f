import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import {
  VenueError,
  venueAbortedError,
  venueBadResponseError,
  venueErrorFromStatus,
  venueResponseTooLargeError,
  venueTimeoutError,
  venueUnreachableError,
} from '../../../src/venue/errors.ts';

const ORDER = 'POST /api/v1/order';

describe('venueErrorFromStatus', () => {
  it.each([
    [400, 'market 9 not found', ErrorCodes.VENUE_REJECTED],
    [400, 'signature already used', ErrorCodes.VENUE_SIGNATURE_USED],
    [400, 'Signature Already Used', ErrorCodes.VENUE_SIGNATURE_USED],
    [401, 'unknown credentials', ErrorCodes.VENUE_CREDENTIALS_REFUSED],
    [403, 'wrong broker', ErrorCodes.VENUE_FORBIDDEN],
    [404, 'order 7 not found', ErrorCodes.VENUE_NOT_FOUND],
    [409, 'signature already used', ErrorCodes.VENUE_SIGNATURE_USED],
    [409, undefined, ErrorCodes.VENUE_SIGNATURE_USED],
    [413, 'request body too large', ErrorCodes.VENUE_REJECTED],
    [422, 'unprocessable', ErrorCodes.VENUE_REJECTED],
    [429, 'slow down', ErrorCodes.VENUE_RATE_LIMITED],
    [500, 'internal error', ErrorCodes.VENUE_SERVER_ERROR],
    [502, 'Bad Gateway', ErrorCodes.VENUE_SERVER_ERROR],
    [599, undefined, ErrorCodes.VENUE_SERVER_ERROR],
    [302, undefined, ErrorCodes.VENUE_BAD_RESPONSE],
    [101, undefined, ErrorCodes.VENUE_BAD_RESPONSE],
  ])('maps %i (%s) to %s', (status, venueMessage, code) => {
    const error = venueErrorFromStatus({ status, endpoint: ORDER, venueMessage });
    expect(error).toBeInstanceOf(VenueError);
    expect(error).toBeInstanceOf(QuantaError);
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.endpoint).toBe(ORDER);
    expect(error.venueMessage).toBe(venueMessage);
  });

  it('does not take a 400 that merely mentions signatures for a replay', () => {
    const error = venueErrorFromStatus({
      status: 400,
      endpoint: ORDER,
      venueMessage: 'invalid signature',
    });
    expect(error.code).toBe(ErrorCodes.VENUE_REJECTED);
  });

  it('writes short messages naming endpoint, status and the venue words', () => {
    const messages = [400, 401, 403, 404, 409, 429, 503].map(
      (status) =>
        venueErrorFromStatus({
          status,
          endpoint: ORDER,
          venueMessage: status === 409 ? 'signature already used' : 'market 9 not found',
          ...(status === 429 ? { retryAfterMs: 2000 } : {}),
        }).message,
    );
    expect(messages).toMatchInlineSnapshot(`
      [
        "venue refused POST /api/v1/order (400): market 9 not found",
        "venue refused the credentials for POST /api/v1/order (401): market 9 not found
      register again (quanta register) or check venue.brokerId and the credentials",
        "venue forbade POST /api/v1/order (403): market 9 not found",
        "venue has nothing at POST /api/v1/order (404): market 9 not found",
        "venue has already seen this signature at POST /api/v1/order (409): signature already used
      an earlier request with these exact signed bytes was accepted",
        "venue rate-limited POST /api/v1/order (429, retry after 2000 ms): market 9 not found",
        "venue failed at POST /api/v1/order (503): market 9 not found",
      ]
    `);
  });

  it('leaves the venue part out when the venue said nothing', () => {
    const error = venueErrorFromStatus({ status: 500, endpoint: 'GET /api/v1/market' });
    expect(error.shortMessage).toMatchInlineSnapshot(`"venue failed at GET /api/v1/market (500)"`);
    expect(error.venueMessage).toBeUndefined();
  });

  it('keeps retryAfterMs and extra details', () => {
    const error = venueErrorFromStatus({
      status: 429,
      endpoint: ORDER,
      retryAfterMs: 1500,
      details: ['HTTP status 200, envelope status 429'],
    });
    expect(error.retryAfterMs).toBe(1500);
    expect(error.details).toEqual(['HTTP status 200, envelope status 429']);
  });
});

describe('venue messages on errors', () => {
  const said = (venueMessage: string | undefined): string | undefined =>
    new VenueError({
      code: ErrorCodes.VENUE_REJECTED,
      shortMessage: 'x',
      endpoint: ORDER,
      venueMessage,
    }).venueMessage;

  it('flattens whitespace and control characters to one line', () => {
    expect(said('  market 9\n\tnot\u0000found \r\n')).toBe('market 9 not found');
  });

  it('cuts to 200 characters with an ellipsis', () => {
    const cut = said('x'.repeat(500));
    expect(cut).toHaveLength(200);
    expect(cut?.endsWith('…')).toBe(true);
    expect(said('y'.repeat(200))).toBe('y'.repeat(200));
  });

  it('gives undefined for nothing printable', () => {
    expect(said(undefined)).toBeUndefined();
    expect(said(' \n\t ')).toBeUndefined();
  });

  it('is applied to every VenueError', () => {
    const error = venueErrorFromStatus({
      status: 400,
      endpoint: ORDER,
      venueMessage: 'z'.repeat(999),
    });
    expect(error.venueMessage).toHaveLength(200);
    expect(error.shortMessage.length).toBeLessThan(260);
  });
});

describe('the other error builders', () => {
  it('give the right codes and readable messages', () => {
    const errors = [
      venueTimeoutError(ORDER, 200),
      venueUnreachableError(ORDER, 'http://127.0.0.1:9', 'connection refused (ECONNREFUSED)'),
      venueAbortedError(ORDER),
      venueResponseTooLargeError('GET /api/v1/market', 200, 1024),
      venueBadResponseError('GET /api/v1/market', 200, 'empty answer'),
    ];
    expect(errors.map((e) => [e.code, e.status, e.message])).toMatchInlineSnapshot(`
      [
        [
          "QUANTA_VENUE_TIMEOUT",
          undefined,
          "venue did not answer POST /api/v1/order within 200 ms
      raise venue.timeoutMs if the venue is slow but healthy",
        ],
        [
          "QUANTA_VENUE_UNREACHABLE",
          undefined,
          "venue unreachable at http://127.0.0.1:9 for POST /api/v1/order: connection refused (ECONNREFUSED)
      check that the venue runs there and that venue.writeUrl/readUrl point at it",
        ],
        [
          "QUANTA_ABORTED",
          undefined,
          "POST /api/v1/order aborted by the caller",
        ],
        [
          "QUANTA_VENUE_RESPONSE_TOO_LARGE",
          200,
          "venue answer to GET /api/v1/market (200) exceeds 1024 bytes; stopped reading",
        ],
        [
          "QUANTA_VENUE_BAD_RESPONSE",
          200,
          "venue gave an unusable answer to GET /api/v1/market (200): empty answer",
        ],
      ]
    `);
  });
});
