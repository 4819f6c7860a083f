/**
 * The five endpoint functions against a stub HTTP server on port 0 that answers badly in every
 * way docs/conventions.md §2 lists. Each call must end in a typed result or a typed QuantaError with the
 * right code: never an untyped throw, never a hang.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Market } from '../../../src/domain/index.ts';
import { ErrorCodes, QuantaError, type ErrorCode } from '../../../src/errors/index.ts';
import {
  createOrder,
  getOrder,
  getQuotes,
  listMarkets,
  register,
  type OrderCredentials,
  type VenueConnection,
} from '../../../src/venue/endpoints/index.ts';
import { VenueError } from '../../../src/venue/errors.ts';
import type { RegistrationRequest } from '../../../src/venue/schemas/index.ts';
import { signRegistration } from '../../../src/venue/signing/index.ts';
import { DEFAULT_SIGNING_DOMAIN } from '../../../src/venue/types.ts';
import { readVector } from '../../helpers/vectors.ts';
import { sendJson, sendText, startStubServer } from '../../helpers/stub-server.ts';
import type { StubHandler, StubServer } from '../../helpers/stub-server.ts';

const NOW = Date.parse('2026-03-02T12:00:00Z');
const TIMEOUT_MS = 250;
const JSON_TYPE = 'application/json';

const SERVICE_KEY = '0123456789abcdef0123456789abcdef';
const SERVICE_SECRET = 'fedcba9876543210'.repeat(4);
const CREDENTIALS: OrderCredentials = {
  brokerId: 1,
  serviceKey: SERVICE_KEY,
  serviceSecret: SERVICE_SECRET,
  signerAddress: '0x1111111111111111111111111111111111111111',
  headerPrefix: 'Service-',
};
const ORDER = {
  body: '{"marketId":1,"isBuy":true,"orderType":"MARKET","amount":"0.1","price":"0","expiryTs":1772452860000,"isReduce":false}',
  signature: `0x${'ab'.repeat(65)}`,
};
const ORDER_ID = 42;

const MARKET_ROWS = (
  JSON.parse(readFileSync(new URL('../../fixtures/markets.json', import.meta.url), 'utf8')) as {
    body: { markets: Record<string, unknown>[] };
  }
).body.markets;

const WIRE_ORDER = {
  id: ORDER_ID,
  brokerId: 1,
  subaccountId: '1_0x1111111111111111111111111111111111111111_1',
  marketSymbol: 'ETH-USD',
  marketType: 'PERPETUAL',
  side: 'BUY',
  type: 'MARKET',
  status: 'FILLED',
  amountx18: '100000000000000000',
  pricex18: '0',
  totalFilledx18: '100000000000000000',
  avgFillPricex18: '2000000000000000000000',
  expiryTs: NOW + 60_000,
  createdAt: '2026-03-02T12:00:00Z',
  updatedAt: '2026-03-02T12:00:00Z',
};

/** A good answer body for each endpoint. */
const GOOD_BODY = {
  listMarkets: { markets: MARKET_ROWS },
  getQuotes: {
    quotes: [
      {
        marketId: 1,
        timestamp: NOW,
        bids: [{ price: '1999.5', quantity: '2' }],
        asks: [{ price: '2000.5', quantity: '3' }],
      },
    ],
  },
  register: { service_key: SERVICE_KEY, service_secret: SERVICE_SECRET },
  createOrder: WIRE_ORDER,
  getOrder: WIRE_ORDER,
} as const;

type EndpointName = keyof typeof GOOD_BODY;
const ENDPOINTS = Object.keys(GOOD_BODY) as EndpointName[];

let stub: StubServer;
/** What the stub answers to every route; each test sets it. */
let answer: StubHandler;
let registration: RegistrationRequest;

beforeAll(async () => {
  const forward: StubHandler = (req, res, body) => answer(req, res, body);
  stub = await startStubServer({
    'GET /api/v1/market': forward,
    'GET /api/v1/quotes': forward,
    'POST /api/v1/auth': forward,
    'POST /api/v1/order': forward,
    [`GET /api/v1/order/${ORDER_ID}`]: forward,
  });
  const { keys } = readVector<{
    keys: Record<'wallet' | 'signingKey', { privateKey: `0x${string}` }>;
  }>('eip712.json');
  registration = await signRegistration({
    walletPrivateKey: keys.wallet.privateKey,
    signingPrivateKey: keys.signingKey.privateKey,
    brokerId: 1,
    subaccountIndex: 1,
    expiryTs: NOW + 86_400_000,
    nonce: 0,
    chainId: 42161,
    domain: DEFAULT_SIGNING_DOMAIN,
  });
});

afterAll(async () => {
  await stub.close();
});

beforeEach(() => {
  answer = (_req, res) => sendJson(res, 500, { body: null, message: 'no answer set', status: 500 });
});

function connection(over: Partial<VenueConnection> = {}): VenueConnection {
  return { baseUrl: stub.url, timeoutMs: 5000, ...over };
}

/** Calls one endpoint the way the bot does. */
function call(
  name: EndpointName,
  conn: VenueConnection = connection(),
  signal?: AbortSignal,
): Promise<unknown> {
  switch (name) {
    case 'listMarkets':
      return listMarkets(conn, { signal });
    case 'getQuotes':
      return getQuotes(conn, { signal });
    case 'register':
      return register(conn, 1, registration, { signal });
    case 'createOrder':
      return createOrder(conn, CREDENTIALS, ORDER, { signal });
    case 'getOrder':
      return getOrder(conn, CREDENTIALS, ORDER_ID, { signal });
  }
}

/** Awaits a call that must fail with a QuantaError (a VenueError or a wire parse error). */
async function failure(promise: Promise<unknown>): Promise<QuantaError> {
  const outcome: unknown = await promise.then(
    (value) => ({ resolved: value }),
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(QuantaError);
  return outcome as QuantaError;
}

/** Answers with `text` as given. */
function raw(status: number, text: string, type: string | undefined): StubHandler {
  return (_req, res) => sendText(res, status, text, type);
}

const envelope = (body: unknown, status = 200, message = 'ok'): string =>
  JSON.stringify({ body, message, status });

const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n';

interface BadAnswer {
  readonly name: string;
  readonly status: number;
  readonly text: string;
  readonly type: string | undefined;
  readonly code: ErrorCode;
  readonly venueMessage: string | undefined;
}

/** docs/conventions.md §2: what real deployments send, each on a success and on an error status. */
const BAD_ANSWERS: readonly BadAnswer[] = [
  {
    name: 'envelope without body on 400',
    status: 400,
    text: JSON.stringify({ message: 'market 9 not found', status: 400 }),
    type: JSON_TYPE,
    code: ErrorCodes.VENUE_REJECTED,
    venueMessage: 'market 9 not found',
  },
  {
    name: 'bare {"error"} on 400',
    status: 400,
    text: JSON.stringify({ error: 'market 9 not found' }),
    type: JSON_TYPE,
    code: ErrorCodes.VENUE_REJECTED,
    venueMessage: 'market 9 not found',
  },
  {
    name: 'bare {"error": {"message"}} on 500',
    status: 500,
    text: JSON.stringify({ error: { message: 'database down' } }),
    type: JSON_TYPE,
    code: ErrorCodes.VENUE_SERVER_ERROR,
    venueMessage: 'database down',
  },
  {
    name: 'bare {"error"} on 200',
    status: 200,
    text: JSON.stringify({ error: 'maintenance' }),
    type: JSON_TYPE,
    code: ErrorCodes.VENUE_BAD_RESPONSE,
    venueMessage: 'maintenance',
  },
  {
    name: 'empty body on 200',
    status: 200,
    text: '',
    type: undefined,
    code: ErrorCodes.VENUE_BAD_RESPONSE,
    venueMessage: undefined,
  },
  {
    name: 'empty body on 503',
    status: 503,
    text: '',
    type: JSON_TYPE,
    code: ErrorCodes.VENUE_SERVER_ERROR,
    venueMessage: undefined,
  },
  {
    name: 'HTML 502 from a proxy',
    status: 502,
    text: NGINX_502,
    type: 'text/html',
    code: ErrorCodes.VENUE_SERVER_ERROR,
    venueMessage: '502 Bad Gateway',
  },
  {
    name: 'HTML login page on 200',
    status: 200,
    text: '<!DOCTYPE html><html><head><title>Sign in</title></head><body>…</body></html>',
    type: 'text/html; charset=utf-8',
    code: ErrorCodes.VENUE_BAD_RESPONSE,
    venueMessage: 'Sign in',
  },
  {
    name: 'truncated JSON on 200',
    status: 200,
    text: '{"body":{"markets":[{"id":1,"Symbol":"ETH-',
    type: JSON_TYPE,
    code: ErrorCodes.VENUE_BAD_RESPONSE,
    venueMessage: undefined,
  },
  {
    name: 'truncated JSON on 500',
    status: 500,
    text: '{"body":null,"message":"internal error","sta',
    type: JSON_TYPE,
    code: ErrorCodes.VENUE_SERVER_ERROR,
    venueMessage: 'internal error',
  },
  {
    name: 'HTML under a JSON content type on 200',
    status: 200,
    text: '<html><title>Welcome to nginx!</title></html>',
    type: JSON_TYPE,
    code: ErrorCodes.VENUE_BAD_RESPONSE,
    venueMessage: 'Welcome to nginx!',
  },
  {
    name: 'a JSON error envelope under text/html on 400',
    status: 400,
    text: JSON.stringify({ body: null, message: 'amount off the grid', status: 400 }),
    type: 'text/html',
    code: ErrorCodes.VENUE_REJECTED,
    venueMessage: 'amount off the grid',
  },
  {
    name: 'plain text on 200',
    status: 200,
    text: 'OK',
    type: 'text/plain',
    code: ErrorCodes.VENUE_BAD_RESPONSE,
    venueMessage: undefined,
  },
];

/** Checks that `result` is what `name` must make of its GOOD_BODY, field by field. */
function expectParsed(name: EndpointName, result: unknown): void {
  switch (name) {
    case 'listMarkets':
      expect((result as Market[]).map((m) => [m.id, m.symbol, m.isActive, m.minAmountX18])).toEqual(
        MARKET_ROWS.map((r) => [r.id, r.Symbol, r.IsActive, BigInt(r.MinAmountx18 as string)]),
      );
      return;
    case 'getQuotes':
      expect(result).toEqual(GOOD_BODY.getQuotes.quotes);
      return;
    case 'register':
      expect(result).toEqual({ serviceKey: SERVICE_KEY, serviceSecret: SERVICE_SECRET });
      return;
    case 'createOrder':
    case 'getOrder':
      expect(result).toMatchObject({
        id: ORDER_ID,
        side: 'BUY',
        type: 'MARKET',
        status: 'FILLED',
        amountX18: 10n ** 17n,
        totalFilledX18: 10n ** 17n,
        avgFillPriceX18: 2000n * 10n ** 18n,
        expiryTs: NOW + 60_000,
      });
      return;
  }
}

describe('endpoints: good answers', () => {
  it.each(ENDPOINTS)('%s parses a docs/conventions.md §2 envelope', async (name) => {
    answer = raw(200, envelope(GOOD_BODY[name]), JSON_TYPE);
    expectParsed(name, await call(name));
  });

  it('createOrder sends the signed bytes as they are, with the credential headers', async () => {
    answer = raw(200, envelope(WIRE_ORDER), JSON_TYPE);
    await createOrder(connection(), CREDENTIALS, ORDER);
    const sent = stub.requests.at(-1);
    expect(sent?.body).toBe(ORDER.body);
    expect(sent?.headers).toMatchObject({
      'broker-id': '1',
      'service-key': SERVICE_KEY,
      'service-secret': SERVICE_SECRET,
      'service-signer-address': CREDENTIALS.signerAddress,
      'service-signature': ORDER.signature,
    });
  });

  it('the header prefix is configuration', async () => {
    answer = raw(200, envelope(WIRE_ORDER), JSON_TYPE);
    await createOrder(connection(), { ...CREDENTIALS, headerPrefix: 'X-Api-' }, ORDER);
    const headers = stub.requests.at(-1)?.headers ?? {};
    expect(headers['x-api-key']).toBe(SERVICE_KEY);
    expect(headers['x-api-signature']).toBe(ORDER.signature);
    expect(headers['service-key']).toBeUndefined();
  });
});

describe('endpoints: wrong content types are tolerated when the text is a good envelope', () => {
  const types = [
    ['text/plain', 'text/plain; charset=utf-8'],
    ['text/html', 'text/html'],
    ['no content type', undefined],
  ] as const;
  for (const [label, type] of types) {
    it.each(ENDPOINTS)(`%s under ${label}`, async (name) => {
      answer = raw(200, envelope(GOOD_BODY[name]), type);
      expectParsed(name, await call(name));
    });
  }
});

describe('endpoints: every bad answer of docs/conventions.md §2 gives a typed error', () => {
  for (const bad of BAD_ANSWERS) {
    it.each(ENDPOINTS)(`${bad.name}: %s`, async (name) => {
      answer = raw(bad.status, bad.text, bad.type);
      const error = await failure(call(name));
      expect(error).toBeInstanceOf(VenueError);
      expect(error.code).toBe(bad.code);
      const venueError = error as VenueError;
      expect(venueError.status).toBe(bad.status);
      expect(venueError.venueMessage).toBe(bad.venueMessage);
      expect(venueError.endpoint).toMatch(/^(GET|POST) \/api\/v1\//);
    });
  }

  it('pins how a bad answer reads', async () => {
    answer = raw(502, NGINX_502, 'text/html');
    expect((await failure(call('createOrder'))).message).toMatchInlineSnapshot(
      `"venue failed at POST /api/v1/order (502): 502 Bad Gateway"`,
    );
    answer = raw(200, '', undefined);
    expect((await failure(call('listMarkets'))).message).toMatchInlineSnapshot(
      `"venue gave an unusable answer to GET /api/v1/market (200): empty answer"`,
    );
  });
});

describe('endpoints: a good envelope whose body has the wrong shape', () => {
  it('a success envelope without body → INVALID_WIRE_DATA for every endpoint', async () => {
    answer = raw(200, JSON.stringify({ message: 'ok', status: 200 }), JSON_TYPE);
    const messages: Record<string, string> = {};
    for (const name of ENDPOINTS) {
      const error = await failure(call(name));
      expect(error.code, name).toBe(ErrorCodes.INVALID_WIRE_DATA);
      messages[name] = error.message;
    }
    expect(messages).toMatchInlineSnapshot(`
      {
        "createOrder": "order: missing",
        "getOrder": "order: missing",
        "getQuotes": "quotes: missing",
        "listMarkets": "market list: missing",
        "register": "registration result: missing",
      }
    `);
  });

  it('a market missing a field → INVALID_MARKET naming the market id and the field', async () => {
    const rows = MARKET_ROWS.map((row) => ({ ...row }));
    const broken = rows[1];
    expect(broken).toBeDefined();
    delete broken?.MinAmountx18;
    answer = raw(200, envelope({ markets: rows }), JSON_TYPE);
    const error = await failure(listMarkets(connection()));
    expect(error.code).toBe(ErrorCodes.INVALID_MARKET);
    expect(error.shortMessage).toBe(`market ${String(broken?.id)}: MinAmountx18: missing`);
  });

  it('a market with a bad value → INVALID_MARKET naming id, field and rule', async () => {
    const rows = [{ ...MARKET_ROWS[0], AmtToQtmConversionExpo: 19 }];
    answer = raw(200, envelope({ markets: rows }), JSON_TYPE);
    const error = await failure(listMarkets(connection()));
    expect(error.code).toBe(ErrorCodes.INVALID_MARKET);
    expect(error.shortMessage).toBe('market 1: AmtToQtmConversionExpo: expo above 18 (got 19)');
  });

  it('markets that is not a list → INVALID_WIRE_DATA', async () => {
    answer = raw(200, envelope({ markets: 'none' }), JSON_TYPE);
    const error = await failure(listMarkets(connection()));
    expect(error.code).toBe(ErrorCodes.INVALID_WIRE_DATA);
    expect(error.shortMessage).toBe('market list: markets: expected array, got string');
  });

  it('quotes with a level missing its price → INVALID_WIRE_DATA with the path', async () => {
    answer = raw(
      200,
      envelope({ quotes: [{ marketId: 1, timestamp: NOW, bids: [{ quantity: '1' }], asks: [] }] }),
      JSON_TYPE,
    );
    const error = await failure(getQuotes(connection()));
    expect(error.code).toBe(ErrorCodes.INVALID_WIRE_DATA);
    expect(error.shortMessage).toBe('quotes: quotes[0].bids[0].price: missing');
  });

  it('a registration result with a malformed secret → INVALID_WIRE_DATA, value not quoted', async () => {
    const almost = SERVICE_SECRET.slice(0, 63);
    answer = raw(200, envelope({ service_key: SERVICE_KEY, service_secret: almost }), JSON_TYPE);
    const error = await failure(register(connection(), 1, registration));
    expect(error.code).toBe(ErrorCodes.INVALID_WIRE_DATA);
    expect(error.shortMessage).toBe(
      'registration result: service_secret: expected 64 lowercase hex characters',
    );
    const seen = `${error.message}\n${inspect(error, { depth: 10 })}`;
    expect(seen).not.toContain(almost);
    expect(seen).not.toContain(SERVICE_KEY);
  });

  it('an order with an unknown status → INVALID_WIRE_DATA naming the order', async () => {
    answer = raw(200, envelope({ ...WIRE_ORDER, status: 'DONE' }), JSON_TYPE);
    for (const name of ['createOrder', 'getOrder'] as const) {
      const error = await failure(call(name));
      expect(error.code).toBe(ErrorCodes.INVALID_WIRE_DATA);
      expect(error.shortMessage).toMatch(/^order 42: status: /);
    }
  });
});

describe('endpoints: statuses with a meaning', () => {
  it('401 on createOrder → VENUE_CREDENTIALS_REFUSED', async () => {
    answer = raw(401, envelope(null, 401, 'unknown service key'), JSON_TYPE);
    const error = await failure(createOrder(connection(), CREDENTIALS, ORDER));
    expect(error.code).toBe(ErrorCodes.VENUE_CREDENTIALS_REFUSED);
    expect(error).toMatchObject({
      status: 401,
      endpoint: 'POST /api/v1/order',
      venueMessage: 'unknown service key',
    });
    expect(error.message).toMatchInlineSnapshot(`
      "venue refused the credentials for POST /api/v1/order (401): unknown service key
      register again (quanta register) or check venue.brokerId and the credentials"
    `);
  });

  it('401 on register → VENUE_CREDENTIALS_REFUSED, advising what to check, not to register again', async () => {
    answer = raw(401, envelope(null, 401, 'broker 1 is not allowed'), JSON_TYPE);
    const error = await failure(register(connection(), 1, registration));
    expect(error.code).toBe(ErrorCodes.VENUE_CREDENTIALS_REFUSED);
    expect(error.message).toMatchInlineSnapshot(`
      "venue refused the credentials for POST /api/v1/auth (401): broker 1 is not allowed
      check venue.brokerId, venue.subaccount and the wallet key named by wallet.privateKeyEnv"
    `);
  });

  it('401 on getOrder is a failure, not "no such order"', async () => {
    answer = raw(401, envelope(null, 401, 'credentials expired'), JSON_TYPE);
    const error = await failure(getOrder(connection(), CREDENTIALS, ORDER_ID));
    expect(error.code).toBe(ErrorCodes.VENUE_CREDENTIALS_REFUSED);
  });

  it('409 on createOrder → VENUE_SIGNATURE_USED', async () => {
    answer = raw(409, envelope(null, 409, 'signature already used'), JSON_TYPE);
    expect((await failure(call('createOrder'))).code).toBe(ErrorCodes.VENUE_SIGNATURE_USED);
  });

  it('404 on getQuotes → undefined: the venue has no quotes', async () => {
    answer = raw(404, envelope(null, 404, 'not found'), JSON_TYPE);
    await expect(getQuotes(connection())).resolves.toBeUndefined();
    // Also when the 404 comes from a proxy as HTML, or as an empty body.
    answer = raw(404, '<html><title>404 Not Found</title></html>', 'text/html');
    await expect(getQuotes(connection())).resolves.toBeUndefined();
    answer = raw(404, '', undefined);
    await expect(getQuotes(connection())).resolves.toBeUndefined();
  });

  it('404 on getOrder → undefined: no such order', async () => {
    answer = raw(404, envelope(null, 404, 'order 42 not found'), JSON_TYPE);
    await expect(getOrder(connection(), CREDENTIALS, ORDER_ID)).resolves.toBeUndefined();
  });

  it('404 on the three spec operations stays an error', async () => {
    answer = raw(404, envelope(null, 404, 'not found'), JSON_TYPE);
    for (const name of ['listMarkets', 'register', 'createOrder'] as const) {
      expect((await failure(call(name))).code, name).toBe(ErrorCodes.VENUE_NOT_FOUND);
    }
  });

  it('the secret echoed by a 401 or 400 answer never reaches the error', async () => {
    const echo: StubHandler = (req, res) => {
      const secret = String(req.headers['service-secret']);
      const status = req.headers['x-case'] === undefined ? 401 : 400;
      sendJson(res, status, {
        body: null,
        message: `rejected Service-Secret ${secret} (${secret.toUpperCase()})`,
        status,
      });
    };
    const bareEcho: StubHandler = (req, res) =>
      sendJson(res, 401, { error: `bad secret ${String(req.headers['service-secret'])}` });
    const cases: [StubHandler, () => Promise<unknown>][] = [
      [echo, () => createOrder(connection(), CREDENTIALS, ORDER)],
      [echo, () => getOrder(connection(), CREDENTIALS, ORDER_ID)],
      [bareEcho, () => createOrder(connection(), CREDENTIALS, ORDER)],
      [
        (req, res) =>
          sendJson(res, 400, {
            body: null,
            message: `bad order from ${String(req.headers['service-secret'])}`,
            status: 400,
          }),
        () => createOrder(connection(), CREDENTIALS, ORDER),
      ],
      [
        (req, res) =>
          sendText(
            res,
            401,
            `<html><title>denied ${String(req.headers['service-secret'])}</title></html>`,
            'text/html',
          ),
        () => getOrder(connection(), CREDENTIALS, ORDER_ID),
      ],
    ];
    for (const [handler, run] of cases) {
      answer = handler;
      const before = stub.requests.length;
      const error = await failure(run());
      // The stub did receive the secret, so the mask is what kept it out.
      expect(stub.requests[before]?.headers['service-secret']).toBe(SERVICE_SECRET);
      const seen = [
        error.message,
        JSON.stringify(error),
        inspect(error, { depth: 20, showHidden: true }),
      ].join('\n');
      expect(seen).toContain('[redacted]');
      expect(seen.toLowerCase()).not.toContain(SERVICE_SECRET.toLowerCase());
      expect(seen.toLowerCase()).not.toContain(SERVICE_KEY);
    }
  });
});

describe('endpoints: nothing hangs', () => {
  it.each(ENDPOINTS)(
    '%s: an answer that never ends → VENUE_TIMEOUT within the configured timeout',
    { timeout: 5000 },
    async (name) => {
      answer = (_req, res) => {
        res.writeHead(200, { 'content-type': JSON_TYPE });
        res.write('{"body":');
      };
      const started = performance.now();
      const error = await failure(call(name, connection({ timeoutMs: TIMEOUT_MS })));
      const elapsed = performance.now() - started;
      expect(error.code).toBe(ErrorCodes.VENUE_TIMEOUT);
      expect(error.message).toContain(`within ${String(TIMEOUT_MS)} ms`);
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 2000);
    },
  );

  it.each(ENDPOINTS)(
    '%s: no headers at all → VENUE_TIMEOUT within the configured timeout',
    { timeout: 5000 },
    async (name) => {
      answer = () => undefined;
      const started = performance.now();
      const error = await failure(call(name, connection({ timeoutMs: TIMEOUT_MS })));
      expect(error.code).toBe(ErrorCodes.VENUE_TIMEOUT);
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 2000);
    },
  );

  it.each(ENDPOINTS)(
    '%s: an answer above the connection cap → VENUE_RESPONSE_TOO_LARGE',
    async (name) => {
      const padding = ' '.repeat(64 * 1024);
      answer = raw(200, `${padding}${envelope(GOOD_BODY[name])}`, JSON_TYPE);
      const error = await failure(call(name, connection({ maxResponseBytes: 1024 })));
      expect(error.code).toBe(ErrorCodes.VENUE_RESPONSE_TOO_LARGE);
    },
  );

  it.each(ENDPOINTS)('%s: an aborted signal → ABORTED, nothing sent', async (name) => {
    const before = stub.requests.length;
    const error = await failure(call(name, connection(), AbortSignal.abort()));
    expect(error.code).toBe(ErrorCodes.ABORTED);
    expect(stub.requests.length).toBe(before);
  });

  it.each(ENDPOINTS)('%s: an abort while waiting → ABORTED', { timeout: 5000 }, async (name) => {
    const controller = new AbortController();
    answer = () => controller.abort();
    const error = await failure(call(name, connection(), controller.signal));
    expect(error.code).toBe(ErrorCodes.ABORTED);
  });
});

describe('endpoints: credentials only over TLS or loopback', () => {
  it.each(['createOrder', 'getOrder'] as const)(
    '%s to plain http on a non-loopback host → INSECURE_TRANSPORT before any request',
    async (name) => {
      const before = stub.requests.length;
      const started = performance.now();
      const error = await failure(call(name, connection({ baseUrl: 'http://example.invalid' })));
      expect(error.code).toBe(ErrorCodes.INSECURE_TRANSPORT);
      expect(error.message).toMatchInlineSnapshot(`
        "venue URL http://example.invalid is plain http to a non-loopback host; refusing to send credentials over it, use https://example.invalid
        plain http is allowed only to localhost, 127.0.0.0/8 and [::1]"
      `);
      // Refused before a DNS lookup: a lookup of .invalid would end in VENUE_UNREACHABLE.
      expect(performance.now() - started).toBeLessThan(100);
      expect(stub.requests.length).toBe(before);
    },
  );
});
