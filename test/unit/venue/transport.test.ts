import { inspect } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../src/errors/index.ts';
import { VenueError } from '../../../src/venue/errors.ts';
import { DEFAULT_MAX_RESPONSE_BYTES, venueRequest } from '../../../src/venue/http/index.ts';
import type { VenueRequestOptions } from '../../../src/venue/http/index.ts';
import { closedPortUrl, sendJson, sendText, startStubServer } from '../../helpers/stub-server.ts';
import type { StubServer } from '../../helpers/stub-server.ts';

const RETRY_DATE = 'Wed, 21 Oct 2015 07:28:00 GMT';
const VENUE_DATE = 'Wed, 21 Oct 2015 07:27:55 GMT';
const SECRETS = {
  'Service-Key': '0123456789abcdef0123456789abcdef',
  'Service-Secret': 'fedcba9876543210'.repeat(4),
  'Service-Signature': '0x' + 'ab'.repeat(65),
};

let stub: StubServer;
let midFlight: AbortController | undefined;

beforeAll(async () => {
  stub = await startStubServer({
    'GET /ok': (_req, res) => sendJson(res, 200, { body: { n: 1 }, message: 'ok', status: 200 }),
    'POST /echo': (_req, res, body) =>
      sendJson(res, 200, { body: { received: body }, message: 'ok', status: 200 }),
    'GET /prefix/api/v1/market': (_req, res) =>
      sendJson(res, 200, { body: { prefixed: true }, message: 'ok', status: 200 }),
    'GET /no-body': (_req, res) => sendJson(res, 200, { message: 'done', status: 200 }),
    'POST /bare-error': (_req, res) => sendJson(res, 400, { error: 'market 9 not found' }),
    'GET /empty-200': (_req, res) => sendText(res, 200, '', undefined),
    'GET /empty-500': (_req, res) => sendText(res, 500, '', undefined),
    'GET /html-502': (_req, res) =>
      sendText(
        res,
        502,
        '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n',
        'text/html',
      ),
    'GET /truncated': (_req, res) =>
      sendText(res, 200, '{"body":{"markets":[{"id":1,"Symbol":"ETH-', 'application/json'),
    'GET /text-plain-json': (_req, res) =>
      sendText(res, 200, '{"body":{"n":2},"message":"ok","status":200}', 'text/plain'),
    'POST /rate-limited': (_req, res) =>
      sendText(
        res,
        429,
        '{"body":null,"message":"too many requests","status":429}',
        'application/json',
        {
          'retry-after': '2',
        },
      ),
    // The venue's Date 5 s before the Retry-After date.
    'POST /rate-limited-date': (_req, res) =>
      sendText(res, 429, '', undefined, { 'retry-after': RETRY_DATE, date: VENUE_DATE }),
    'POST /rate-limited-date-undated': (_req, res) => {
      res.sendDate = false;
      sendText(res, 429, '', undefined, { 'retry-after': RETRY_DATE });
    },
    'POST /replayed': (_req, res) =>
      sendJson(res, 409, { body: null, message: 'signature already used', status: 409 }),
    'GET /never-ends': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"body":');
    },
    'GET /hangs-before-headers': () => {
      midFlight?.abort();
    },
    'GET /abort-after-headers': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"body":', () => midFlight?.abort());
    },
    'GET /gzip-bomb': (_req, res) => {
      // A few KB on the wire, 8 MiB once fetch has decompressed it.
      const packed = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(packed.length),
      });
      res.end(packed);
    },
    'GET /huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = (): void => {
        while (sent < 8 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      pump();
    },
    'GET /declared-huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write('{"body":');
    },
    'GET /cut': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"body":{"markets":[', () => res.destroy());
    },
    'GET /redirect': (_req, res) => sendText(res, 302, '', undefined, { location: '/ok' }),
    'POST /echo-headers-400': (req, res) =>
      sendJson(res, 400, {
        body: null,
        message: `bad request: secret=${String(req.headers['service-secret'])}`,
        status: 400,
      }),
  });
});

afterAll(async () => {
  await stub.close();
});

function options(
  over: Partial<VenueRequestOptions> & Pick<VenueRequestOptions, 'path'>,
): VenueRequestOptions {
  return { baseUrl: stub.url, method: 'GET', timeoutMs: 5000, ...over };
}

/** Runs venueRequest expecting a VenueError; returns its parts, with the stub's port hidden. */
async function failure(opts: VenueRequestOptions): Promise<{
  code: string;
  status: number | undefined;
  endpoint: string;
  venueMessage: string | undefined;
  retryAfterMs: number | undefined;
  message: string;
}> {
  const error: unknown = await venueRequest(opts).then(
    () => new Error('expected the request to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VenueError);
  const e = error as VenueError;
  return {
    code: e.code,
    status: e.status,
    endpoint: e.endpoint,
    venueMessage: e.venueMessage,
    retryAfterMs: e.retryAfterMs,
    message: e.message.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT'),
  };
}

describe('venueRequest: good answers', () => {
  it('returns body, message and status, and sends query and accept', async () => {
    const got = await venueRequest(
      options({ path: '/ok', query: { type: 'PERPETUAL', skip: undefined, n: 3 } }),
    );
    expect(got).toEqual({ body: { n: 1 }, message: 'ok', status: 200 });
    const sent = stub.requests.at(-1);
    expect(sent?.url).toBe('/ok?type=PERPETUAL&n=3');
    expect(sent?.headers.accept).toBe('application/json');
  });

  it('sends a string body byte for byte and anything else as JSON', async () => {
    const exact = '{ "marketId":1,  "amount":"0.10" }';
    const first = await venueRequest(options({ method: 'POST', path: '/echo', body: exact }));
    expect(first.body).toEqual({ received: exact });
    expect(stub.requests.at(-1)?.headers['content-type']).toBe('application/json');
    const second = await venueRequest(options({ method: 'POST', path: '/echo', body: { a: '1' } }));
    expect(second.body).toEqual({ received: '{"a":"1"}' });
  });

  it('keeps a path prefix of the base URL', async () => {
    const got = await venueRequest(
      options({ baseUrl: `${stub.url}/prefix/`, path: '/api/v1/market' }),
    );
    expect(got.body).toEqual({ prefixed: true });
  });

  it('tolerates an absent body and JSON sent as text/plain', async () => {
    expect(await venueRequest(options({ path: '/no-body' }))).toEqual({
      body: undefined,
      message: 'done',
      status: 200,
    });
    expect((await venueRequest(options({ path: '/text-plain-json' }))).body).toEqual({ n: 2 });
  });
});

describe('venueRequest: every bad answer becomes a typed VenueError', () => {
  it('bare {"error"} on 400', async () => {
    expect(await failure(options({ method: 'POST', path: '/bare-error' }))).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_REJECTED",
        "endpoint": "POST /bare-error",
        "message": "venue refused POST /bare-error (400): market 9 not found",
        "retryAfterMs": undefined,
        "status": 400,
        "venueMessage": "market 9 not found",
      }
    `);
  });

  it('empty body on 200 and on 500', async () => {
    expect(await failure(options({ path: '/empty-200' }))).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_BAD_RESPONSE",
        "endpoint": "GET /empty-200",
        "message": "venue gave an unusable answer to GET /empty-200 (200): empty answer",
        "retryAfterMs": undefined,
        "status": 200,
        "venueMessage": undefined,
      }
    `);
    expect(await failure(options({ path: '/empty-500' }))).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_SERVER_ERROR",
        "endpoint": "GET /empty-500",
        "message": "venue failed at GET /empty-500 (500)",
        "retryAfterMs": undefined,
        "status": 500,
        "venueMessage": undefined,
      }
    `);
  });

  it('HTML 502 from a proxy', async () => {
    expect(await failure(options({ path: '/html-502' }))).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_SERVER_ERROR",
        "endpoint": "GET /html-502",
        "message": "venue failed at GET /html-502 (502): 502 Bad Gateway",
        "retryAfterMs": undefined,
        "status": 502,
        "venueMessage": "502 Bad Gateway",
      }
    `);
  });

  it('truncated JSON', async () => {
    expect(await failure(options({ path: '/truncated' }))).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_BAD_RESPONSE",
        "endpoint": "GET /truncated",
        "message": "venue gave an unusable answer to GET /truncated (200): invalid or truncated JSON",
        "retryAfterMs": undefined,
        "status": 200,
        "venueMessage": undefined,
      }
    `);
  });

  it('429 with Retry-After in seconds, and as an HTTP date against the injected clock', async () => {
    expect(await failure(options({ method: 'POST', path: '/rate-limited' })))
      .toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_RATE_LIMITED",
        "endpoint": "POST /rate-limited",
        "message": "venue rate-limited POST /rate-limited (429, retry after 2000 ms): too many requests",
        "retryAfterMs": 2000,
        "status": 429,
        "venueMessage": "too many requests",
      }
    `);
    // Without a Date header, a Retry-After date is read against the host's clock.
    const now = (): number => Date.parse(RETRY_DATE) - 750;
    const undated = await failure(
      options({ method: 'POST', path: '/rate-limited-date-undated', now }),
    );
    expect(undated.code).toBe(ErrorCodes.VENUE_RATE_LIMITED);
    expect(undated.retryAfterMs).toBe(750);
  });

  it("reads a Retry-After date against the answer's own Date, not a host clock ahead or behind", async () => {
    // The venue says: it is 07:27:55, come back at 07:28:00. A host clock 2 minutes ahead read
    // that as "no wait"; one 2 minutes behind as 2 minutes 5 s.
    for (const offsetMs of [120_000, -120_000, 0]) {
      const now = (): number => Date.parse(VENUE_DATE) + offsetMs;
      const dated = await failure(options({ method: 'POST', path: '/rate-limited-date', now }));
      expect({ offsetMs, wait: dated.retryAfterMs }).toEqual({ offsetMs, wait: 5_000 });
    }
  });

  it('tells the caller of each error answer before it throws (a 429 pauses every sender)', async () => {
    const told: (number | undefined)[] = [];
    const answeredError = (error: VenueError): void => void told.push(error.status);
    await failure(options({ method: 'POST', path: '/rate-limited', answeredError }));
    await failure(options({ method: 'POST', path: '/replayed', body: '{}', answeredError }));
    await venueRequest(options({ method: 'GET', path: '/ok', answeredError }));
    expect(told).toEqual([429, 409]);
  });

  it('409 signature already used', async () => {
    expect(await failure(options({ method: 'POST', path: '/replayed', body: '{}' })))
      .toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_SIGNATURE_USED",
        "endpoint": "POST /replayed",
        "message": "venue has already seen this signature at POST /replayed (409): signature already used
      an earlier request with these exact signed bytes was accepted",
        "retryAfterMs": undefined,
        "status": 409,
        "venueMessage": "signature already used",
      }
    `);
  });

  it('404 for an unknown path', async () => {
    const e = await failure(options({ path: '/api/v1/quotes', query: { marketId: 1 } }));
    expect([e.code, e.status, e.endpoint]).toEqual([
      ErrorCodes.VENUE_NOT_FOUND,
      404,
      'GET /api/v1/quotes',
    ]);
  });

  it('a redirect is not followed', async () => {
    const before = stub.requests.length;
    const e = await failure(options({ path: '/redirect' }));
    expect([e.code, e.status]).toEqual([ErrorCodes.VENUE_BAD_RESPONSE, 302]);
    expect(stub.requests.length).toBe(before + 1);
  });

  it('an answer that never ends times out', { timeout: 5000 }, async () => {
    expect(await failure(options({ path: '/never-ends', timeoutMs: 200 }))).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_TIMEOUT",
        "endpoint": "GET /never-ends",
        "message": "venue did not answer GET /never-ends within 200 ms
      raise venue.timeoutMs if the venue is slow but healthy",
        "retryAfterMs": undefined,
        "status": undefined,
        "venueMessage": undefined,
      }
    `);
  });

  it('a huge answer hits the default 4 MiB cap', { timeout: 10_000 }, async () => {
    const e = await failure(options({ path: '/huge' }));
    expect(e).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_RESPONSE_TOO_LARGE",
        "endpoint": "GET /huge",
        "message": "venue answer to GET /huge (200) exceeds 4194304 bytes; stopped reading",
        "retryAfterMs": undefined,
        "status": 200,
        "venueMessage": undefined,
      }
    `);
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(4 * 1024 * 1024);
  });

  it(
    'a compressed answer within the cap on the wire is still capped once decompressed',
    { timeout: 10_000 },
    async () => {
      const e = await failure(options({ path: '/gzip-bomb', maxResponseBytes: 1024 * 1024 }));
      expect([e.code, e.status]).toEqual([ErrorCodes.VENUE_RESPONSE_TOO_LARGE, 200]);
    },
  );

  it(
    'a declared Content-Length above the cap fails before reading',
    { timeout: 5000 },
    async () => {
      const e = await failure(options({ path: '/declared-huge', maxResponseBytes: 1024 }));
      expect([e.code, e.status]).toEqual([ErrorCodes.VENUE_RESPONSE_TOO_LARGE, 200]);
    },
  );

  it('a connection cut in the middle of the answer', { timeout: 5000 }, async () => {
    const e = await failure(options({ path: '/cut' }));
    expect(e.code).toBe(ErrorCodes.VENUE_UNREACHABLE);
    expect(e.status).toBeUndefined();
    expect(e.message).toContain('127.0.0.1:PORT');
  });

  it('a refused connection names the URL and the config keys', async () => {
    const url = await closedPortUrl();
    const e = await failure(
      options({ baseUrl: url, method: 'POST', path: '/api/v1/order', body: '{}' }),
    );
    expect(e).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_VENUE_UNREACHABLE",
        "endpoint": "POST /api/v1/order",
        "message": "venue unreachable at http://127.0.0.1:PORT for POST /api/v1/order: connection refused (ECONNREFUSED)
      check that the venue runs there and that venue.writeUrl/readUrl point at it",
        "retryAfterMs": undefined,
        "status": undefined,
        "venueMessage": undefined,
      }
    `);
  });

  it(
    'an unknown host is unreachable, or times out when DNS is slow',
    { timeout: 10_000 },
    async () => {
      const e = await failure(
        options({ baseUrl: 'http://quanta-test.invalid', path: '/ok', timeoutMs: 3000 }),
      );
      expect([ErrorCodes.VENUE_UNREACHABLE, ErrorCodes.VENUE_TIMEOUT]).toContain(e.code);
      expect(e.message).toContain('quanta-test.invalid');
    },
  );
});

describe('venueRequest: caller abort', () => {
  it('an already aborted signal sends nothing', async () => {
    const before = stub.requests.length;
    const e = await failure(options({ path: '/ok', signal: AbortSignal.abort() }));
    expect(e).toMatchInlineSnapshot(`
      {
        "code": "QUANTA_ABORTED",
        "endpoint": "GET /ok",
        "message": "GET /ok aborted by the caller",
        "retryAfterMs": undefined,
        "status": undefined,
        "venueMessage": undefined,
      }
    `);
    expect(stub.requests.length).toBe(before);
  });

  it('an abort while waiting for the answer', { timeout: 5000 }, async () => {
    midFlight = new AbortController();
    const e = await failure(options({ path: '/hangs-before-headers', signal: midFlight.signal }));
    expect([e.code, e.status]).toEqual([ErrorCodes.ABORTED, undefined]);
  });

  it('an abort once the answer has started', { timeout: 5000 }, async () => {
    midFlight = new AbortController();
    const e = await failure(options({ path: '/abort-after-headers', signal: midFlight.signal }));
    expect([e.code, e.status]).toEqual([ErrorCodes.ABORTED, undefined]);
  });
});

describe('venueRequest: requests it cannot build', () => {
  it.each([
    ['a base URL that is no URL', { baseUrl: 'venue.example' }],
    ['a ws: base URL', { baseUrl: 'ws://127.0.0.1:1' }],
    ['user info in the base URL', { baseUrl: 'http://u:pw@127.0.0.1:1' }],
    ['a zero timeout', { timeoutMs: 0 }],
    ['a bigint body', { method: 'POST' as const, body: { amount: 1n } }],
    ['a header value with a newline', { headers: { 'Service-Secret': 'abc\r\nX-Evil: 1' } }],
    ['a header name with a space', { headers: { 'Service Secret': 'x' } }],
  ])('%s → VENUE_HTTP, nothing sent', async (_name, over) => {
    const before = stub.requests.length;
    const e = await failure(options({ path: '/ok', ...over }));
    expect(e.code).toBe(ErrorCodes.VENUE_HTTP);
    expect(e.message).not.toContain('abc');
    expect(e.message).not.toContain(':pw@');
    expect(stub.requests.length).toBe(before);
  });
});

describe('venueRequest: credentials never reach an error', () => {
  it(
    'keeps every header value out of message, JSON and inspect output of every failure',
    { timeout: 15_000 },
    async () => {
      const refused = await closedPortUrl();
      const cases: VenueRequestOptions[] = [
        options({ method: 'POST', path: '/bare-error' }),
        options({ path: '/empty-500' }),
        options({ path: '/html-502' }),
        options({ path: '/truncated' }),
        options({ method: 'POST', path: '/rate-limited' }),
        options({ method: 'POST', path: '/replayed' }),
        options({ path: '/never-ends', timeoutMs: 200 }),
        options({ path: '/huge', maxResponseBytes: 1024 }),
        options({ path: '/cut' }),
        options({ path: '/redirect' }),
        options({ method: 'POST', path: '/echo-headers-400', body: '{}' }),
        options({ baseUrl: refused, method: 'POST', path: '/api/v1/order', body: '{}' }),
        options({ path: '/ok', signal: AbortSignal.abort() }),
        options({ path: '/ok', timeoutMs: -1 }),
      ];
      for (const opts of cases) {
        const error: unknown = await venueRequest({ ...opts, headers: SECRETS }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, opts.path).toBeInstanceOf(VenueError);
        const seen = [
          (error as Error).message,
          JSON.stringify(error),
          inspect(error, { depth: 20, showHidden: true }),
        ].join('\n');
        for (const secret of Object.values(SECRETS)) {
          expect(seen, `${opts.path} leaks a header`).not.toContain(secret);
          expect(seen.toLowerCase(), `${opts.path} leaks a header`).not.toContain(
            secret.slice(0, 16),
          );
        }
      }
      // The echo route really did echo it, and the mask is what stopped it.
      expect(
        stub.requests.some(
          (r) =>
            r.url === '/echo-headers-400' &&
            r.headers['service-secret'] === SECRETS['Service-Secret'],
        ),
      ).toBe(true);
    },
  );

  it('shows the echoing venue’s words with the secret masked', async () => {
    const e = await failure(
      options({ method: 'POST', path: '/echo-headers-400', body: '{}', headers: SECRETS }),
    );
    expect(e.venueMessage).toBe('bad request: secret=[redacted]');
  });
});
