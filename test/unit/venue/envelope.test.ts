import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../src/errors/index.ts';
import { VenueError } from '../../../src/venue/errors.ts';
import { parseEnvelope, parseRetryAfter } from '../../../src/venue/http/index.ts';
import type { EnvelopeContext } from '../../../src/venue/http/index.ts';

const JSON_TYPE = 'application/json';
const ctx: EnvelopeContext = { endpoint: 'GET /api/v1/market' };

/** Runs parseEnvelope expecting a VenueError, and returns its observable parts. */
function failure(
  status: number,
  text: string,
  contentType: string | undefined = JSON_TYPE,
  context: EnvelopeContext = ctx,
): {
  code: string;
  status: number | undefined;
  venueMessage: string | undefined;
  retryAfterMs: number | undefined;
  message: string;
} {
  try {
    parseEnvelope(status, text, contentType, context);
  } catch (error) {
    expect(error).toBeInstanceOf(VenueError);
    const e = error as VenueError;
    expect(e.endpoint).toBe(context.endpoint);
    return {
      code: e.code,
      status: e.status,
      venueMessage: e.venueMessage,
      retryAfterMs: e.retryAfterMs,
      message: e.message,
    };
  }
  throw new Error(`expected parseEnvelope(${String(status)}, ${text}) to throw`);
}

describe('parseEnvelope: success', () => {
  it('returns body and message of a proper envelope', () => {
    expect(
      parseEnvelope(200, '{"body":{"markets":[]},"message":"ok","status":200}', JSON_TYPE),
    ).toEqual({ body: { markets: [] }, message: 'ok' });
  });

  it('tolerates an absent body and an absent message', () => {
    expect(parseEnvelope(200, '{"message":"done","status":200}', JSON_TYPE)).toEqual({
      body: undefined,
      message: 'done',
    });
    expect(parseEnvelope(200, '{"body":{"a":1},"status":200}', JSON_TYPE)).toEqual({
      body: { a: 1 },
      message: '',
    });
    expect(parseEnvelope(200, '{"body":null,"message":"ok"}', JSON_TYPE)).toEqual({
      body: null,
      message: 'ok',
    });
  });

  it('reads JSON sent as text/plain, without a content type, or behind a BOM', () => {
    const text = '{"body":{"x":"1"},"message":"ok","status":200}';
    for (const type of ['text/plain', undefined, 'application/octet-stream']) {
      expect(parseEnvelope(200, text, type).body).toEqual({ x: '1' });
    }
    expect(parseEnvelope(200, `\uFEFF ${text}\n`, JSON_TYPE).body).toEqual({ x: '1' });
  });

  it('accepts any 2xx HTTP status', () => {
    expect(parseEnvelope(201, '{"body":1,"message":"","status":200}', JSON_TYPE).body).toBe(1);
  });

  it('accepts an envelope status given as a string', () => {
    expect(parseEnvelope(200, '{"body":1,"message":"ok","status":"200"}', JSON_TYPE).body).toBe(1);
  });
});

describe('parseEnvelope: error statuses', () => {
  it('keeps the envelope message of a docs/conventions.md §2 error', () => {
    expect(
      failure(400, '{"body":null,"message":"market 9 not found","status":400}', JSON_TYPE, {
        endpoint: 'POST /api/v1/order',
      }),
    ).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_REJECTED",
        "message": "venue refused POST /api/v1/order (400): market 9 not found",
        "retryAfterMs": undefined,
        "status": 400,
        "venueMessage": "market 9 not found",
      }
    `);
  });

  it('reads a bare {"error": "…"} and an error object', () => {
    expect(failure(401, '{"error":"invalid credentials"}')).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_CREDENTIALS_REFUSED",
        "message": "venue refused the credentials for GET /api/v1/market (401): invalid credentials
      register again (quanta register) or check venue.brokerId and the credentials",
        "retryAfterMs": undefined,
        "status": 401,
        "venueMessage": "invalid credentials",
      }
    `);
    expect(failure(403, '{"error":{"code":7,"message":"wrong broker"}}').venueMessage).toBe(
      'wrong broker',
    );
    expect(failure(404, '{"error":"","message":""}').venueMessage).toBeUndefined();
  });

  it('maps an empty 500 to a server error without a venue message', () => {
    expect(failure(500, '', undefined)).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_SERVER_ERROR",
        "message": "venue failed at GET /api/v1/market (500)",
        "retryAfterMs": undefined,
        "status": 500,
        "venueMessage": undefined,
      }
    `);
  });

  it('takes the <title> of a proxy HTML page', () => {
    const html =
      '<html>\n<head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    expect(failure(502, html, 'text/html')).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_SERVER_ERROR",
        "message": "venue failed at GET /api/v1/market (502): 502 Bad Gateway",
        "retryAfterMs": undefined,
        "status": 502,
        "venueMessage": "502 Bad Gateway",
      }
    `);
  });

  it('falls back to <h1>, then to the visible text, of HTML without a title', () => {
    expect(
      failure(503, '<body><h1>Service &amp; co down</h1></body>', undefined).venueMessage,
    ).toBe('Service & co down');
    expect(
      failure(504, '<div><style>p{}</style><p>Gateway</p> <p>Timeout</p></div>', 'text/html')
        .venueMessage,
    ).toBe('Gateway Timeout');
  });

  it('salvages the message of truncated JSON, else keeps an excerpt of it', () => {
    expect(failure(400, '{"body":null,"message":"amount off grid","sta').venueMessage).toBe(
      'amount off grid',
    );
    expect(failure(500, '{"body":null,"stat').venueMessage).toBe('{"body":null,"stat');
  });

  it('keeps plain text of an error status', () => {
    expect(failure(503, 'upstream connect error\nor disconnect', 'text/plain').venueMessage).toBe(
      'upstream connect error or disconnect',
    );
    expect(failure(500, '"boom"').venueMessage).toBe('boom');
    expect(failure(500, '[1,2]').venueMessage).toBeUndefined();
  });

  it('recognises a 400 or a 409 "signature already used"', () => {
    const body = '{"body":null,"message":"signature already used","status":400}';
    expect(failure(400, body).code).toBe(ErrorCodes.VENUE_SIGNATURE_USED);
    expect(failure(409, '').code).toBe(ErrorCodes.VENUE_SIGNATURE_USED);
  });

  it('cuts a huge venue message to 200 characters', () => {
    const said = failure(400, JSON.stringify({ message: 'm'.repeat(10_000) })).venueMessage;
    expect(said).toHaveLength(200);
  });

  it('parses Retry-After on 429 (seconds or HTTP date) and 503, not elsewhere', () => {
    const date = 'Wed, 21 Oct 2015 07:28:00 GMT';
    const at = Date.parse(date);
    expect(failure(429, '', undefined, { ...ctx, retryAfter: '3' })).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_RATE_LIMITED",
        "message": "venue rate-limited GET /api/v1/market (429, retry after 3000 ms)",
        "retryAfterMs": 3000,
        "status": 429,
        "venueMessage": undefined,
      }
    `);
    expect(
      failure(429, '', undefined, { ...ctx, retryAfter: date, nowMs: at - 1500 }).retryAfterMs,
    ).toBe(1500);
    expect(failure(503, '', undefined, { ...ctx, retryAfter: '1' }).retryAfterMs).toBe(1000);
    expect(failure(400, '', undefined, { ...ctx, retryAfter: '1' }).retryAfterMs).toBeUndefined();
    expect(failure(429, '', undefined, ctx).retryAfterMs).toBeUndefined();
  });

  it('gives VENUE_BAD_RESPONSE for a redirect or informational status', () => {
    expect(failure(302, '', undefined)).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_BAD_RESPONSE",
        "message": "venue answered GET /api/v1/market with unexpected HTTP status 302
      a redirect or informational status: point venue.writeUrl/readUrl at the final URL",
        "retryAfterMs": undefined,
        "status": 302,
        "venueMessage": undefined,
      }
    `);
  });
});

describe('parseEnvelope: unusable success answers', () => {
  it.each([
    ['empty body', '', JSON_TYPE, 'empty answer'],
    ['whitespace body', '  \n', undefined, 'empty answer'],
    ['HTML', '<html><title>Login</title></html>', 'text/html', 'HTML instead of JSON: Login'],
    ['truncated JSON', '{"body":{"markets":[{"id":1', JSON_TYPE, 'invalid or truncated JSON'],
    ['plain text', 'OK', 'text/plain', 'text instead of JSON'],
    ['a JSON array', '[]', JSON_TYPE, 'JSON that is not an object'],
    ['JSON null', 'null', JSON_TYPE, 'JSON that is not an object'],
    ['a JSON string', '"ok"', JSON_TYPE, 'JSON that is not an object'],
    ['no envelope', '{"markets":[]}', JSON_TYPE, 'no envelope'],
    [
      'a bare error',
      '{"error":"market 9 not found"}',
      JSON_TYPE,
      'an error in a success answer: market 9 not found',
    ],
  ])('%s → VENUE_BAD_RESPONSE', (_name, text, type, what) => {
    const e = failure(200, text, type);
    expect(e.code).toBe(ErrorCodes.VENUE_BAD_RESPONSE);
    expect(e.status).toBe(200);
    expect(e.message).toBe(`venue gave an unusable answer to GET /api/v1/market (200): ${what}`);
  });

  it('never echoes raw text of a 2xx body, which may hold credentials', () => {
    const secret = 'ab'.repeat(32);
    const truncated = `{"body":{"service_key":"${'c'.repeat(32)}","service_secret":"${secret.slice(0, 40)}`;
    const e = failure(200, truncated);
    expect(e.venueMessage).toBeUndefined();
    expect(e.message).not.toContain(secret.slice(0, 40));
    expect(failure(200, secret, 'text/plain').message).not.toContain(secret);
  });
});

describe('parseEnvelope: HTTP and envelope status disagree', () => {
  it('uses the worse of the two and says both', () => {
    expect(failure(200, '{"body":null,"message":"market 9 not found","status":400}'))
      .toMatchInlineSnapshot(`
        {
          "code": "QUANTA_VENUE_REJECTED",
          "message": "venue refused GET /api/v1/market (400): market 9 not found
        HTTP status 200, envelope status 400",
          "retryAfterMs": undefined,
          "status": 400,
          "venueMessage": "market 9 not found",
        }
      `);
  });

  it.each([
    [200, 500, 500, ErrorCodes.VENUE_SERVER_ERROR],
    [200, '429', 429, ErrorCodes.VENUE_RATE_LIMITED],
    [500, 200, 500, ErrorCodes.VENUE_SERVER_ERROR],
    [400, 200, 400, ErrorCodes.VENUE_REJECTED],
    [400, 503, 503, ErrorCodes.VENUE_SERVER_ERROR],
    [502, 400, 502, ErrorCodes.VENUE_SERVER_ERROR],
    [400, 401, 400, ErrorCodes.VENUE_REJECTED],
    [200, 302, 302, ErrorCodes.VENUE_BAD_RESPONSE],
  ])('HTTP %s, envelope %s → %s', (http, envelopeStatus, expected, code) => {
    const e = failure(http, JSON.stringify({ body: null, message: 'x', status: envelopeStatus }));
    expect(e.status).toBe(expected);
    expect(e.code).toBe(code);
  });

  it('ignores an envelope status that is no HTTP status', () => {
    for (const status of ['ok', 42, 2000, 200.5, null, true]) {
      expect(parseEnvelope(200, JSON.stringify({ body: 1, status }), JSON_TYPE).body).toBe(1);
    }
  });
});

describe('parseEnvelope: secrets and robustness', () => {
  it('masks secrets in what the venue echoes, before cutting the excerpt', () => {
    const secret = 'f'.repeat(64);
    const said = `${'x'.repeat(190)} bad header Service-Secret=${secret}`;
    const e = failure(400, JSON.stringify({ message: said }), JSON_TYPE, {
      ...ctx,
      secrets: [secret],
    });
    expect(e.message).not.toContain('ffffffff');
    expect(
      failure(401, `{"error":"${secret.toUpperCase()}"}`, JSON_TYPE, { ...ctx, secrets: [secret] })
        .venueMessage,
    ).toBe('[redacted]');
  });

  it('throws only VenueError, whatever status and text', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }),
        fc.oneof(fc.string(), fc.json(), fc.constantFrom('', '<html>', '{"message":"x","status":')),
        fc.option(fc.constantFrom(JSON_TYPE, 'text/html', 'text/plain'), { nil: undefined }),
        (status, text, type) => {
          try {
            const ok = parseEnvelope(status, text, type, ctx);
            expect(status >= 200 && status <= 299).toBe(true);
            expect(typeof ok.message).toBe('string');
          } catch (error) {
            expect(error).toBeInstanceOf(VenueError);
            expect((error as VenueError).venueMessage?.length ?? 0).toBeLessThanOrEqual(200);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
  it.each([
    ['0', 0],
    ['2', 2000],
    [' 120 ', 120_000],
    ['Wed, 21 Oct 2015 07:28:05 GMT', 5000],
    ['Wed, 21 Oct 2015 07:27:00 GMT', 0],
    ['86400', 86_400_000],
    ['86401', undefined],
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
    [undefined, undefined],
  ])('%s → %s', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
