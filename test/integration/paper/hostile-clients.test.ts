/**
 * Issue 12, item 8: the paper venue against hostile clients, over raw sockets (node:net) on
 * port 0. Node's own answers (a malformed request line, headers too large, a request that took
 * too long) come in the envelope too; a client that sends nothing, or its headers or its body
 * too slowly, is answered 408 and cut after seconds, not minutes; beyond the connection cap a
 * new connection is answered 503 and closed. Every wait is on a socket event, bounded so that a
 * connection the venue holds fails the test instead of hanging it.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SERVER_LIMITS,
  startPaperVenue,
  type PaperVenue,
} from '../../../src/paper/index.ts';

let venue: PaperVenue | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await venue?.close();
  venue = undefined;
});

/** What came back on a raw connection before it closed (or before the bound ran out). */
interface RawAnswer {
  readonly closed: boolean;
  readonly status: number | undefined;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly elapsedMs: number;
}

function open(): Promise<Socket> {
  if (venue === undefined) throw new Error('no venue');
  const { port } = new URL(venue.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
    sockets.push(socket);
  });
}

/** Reads until the venue closes the connection, or `boundMs` passes (then `closed` is false). */
function answerOf(socket: Socket, boundMs: number): Promise<RawAnswer> {
  const startedAt = Date.now();
  let raw = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (raw += chunk));
  socket.on('error', () => undefined);
  return new Promise((resolve) => {
    const finish = (closed: boolean): void => {
      clearTimeout(bound);
      const [head = '', ...rest] = raw.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
      resolve({
        closed,
        status: status === undefined ? undefined : Number(status),
        headers,
        body: rest.join('\r\n\r\n'),
        elapsedMs: Date.now() - startedAt,
      });
    };
    const bound = setTimeout(() => finish(false), boundMs);
    socket.once('close', () => finish(true));
  });
}

/** The answer is `status` in the docs/conventions.md §2 envelope, and the connection was closed. */
function expectEnvelope(answer: RawAnswer, status: number, message: RegExp): void {
  expect(answer.closed, 'the venue closed the connection').toBe(true);
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body, 'latin1'));
  const json = JSON.parse(answer.body) as { body: unknown; message: string; status: number };
  expect(Object.keys(json).sort()).toEqual(['body', 'message', 'status']);
  expect(json.body).toBeNull();
  expect(json.status).toBe(status);
  expect(json.message).toMatch(message);
}

describe('Node’s own answers are in the envelope', () => {
  it('a malformed request line: 400', async () => {
    venue = await startPaperVenue();
    const socket = await open();
    socket.write('GARBAGE / NOPE\r\n\r\n');
    expectEnvelope(await answerOf(socket, 5_000), 400, /^malformed request/);
    expect(venue.requestCount()).toBe(0);
  });

  it('a header line without a colon: 400', async () => {
    venue = await startPaperVenue();
    const socket = await open();
    socket.write('GET /api/v1/market HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n');
    expectEnvelope(await answerOf(socket, 5_000), 400, /^malformed request/);
  });

  it('headers beyond the size limit: 431', async () => {
    venue = await startPaperVenue();
    const socket = await open();
    socket.write(`GET /api/v1/market HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    expectEnvelope(await answerOf(socket, 5_000), 431, /^request headers too large/);
  });

  it('an Expect header the venue does not support: 417', async () => {
    venue = await startPaperVenue();
    const socket = await open();
    socket.write('GET /api/v1/market HTTP/1.1\r\nHost: x\r\nExpect: something\r\n\r\n');
    const answer = await answerOf(socket, 5_000);
    expect(answer.status).toBe(417);
    expect(JSON.parse(answer.body)).toMatchObject({ body: null, status: 417 });
  });

  it('CONNECT: 405 instead of a dropped connection', async () => {
    venue = await startPaperVenue();
    const socket = await open();
    socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectEnvelope(await answerOf(socket, 5_000), 405, /^method CONNECT not allowed/);
  });
});

describe('slow clients are cut after seconds', () => {
  it('the default limits are seconds, not minutes', () => {
    expect(DEFAULT_SERVER_LIMITS.headersTimeoutMs).toBeLessThanOrEqual(10_000);
    expect(DEFAULT_SERVER_LIMITS.requestTimeoutMs).toBeLessThanOrEqual(30_000);
    expect(DEFAULT_SERVER_LIMITS.maxConnections).toBeGreaterThan(0);
  });

  it('a connection that sends nothing: 408 after the header timeout', async () => {
    venue = await startPaperVenue({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const socket = await open();
    const answer = await answerOf(socket, 5_000);
    expectEnvelope(answer, 408, /^request timeout/);
    expect(answer.elapsedMs).toBeLessThan(3_000);
  });

  it('headers sent too slowly: 408 after the header timeout', async () => {
    venue = await startPaperVenue({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const socket = await open();
    socket.write('GET /api/v1/market HTTP/1.1\r\nHost: x\r\n');
    expectEnvelope(await answerOf(socket, 5_000), 408, /^request timeout/);
  });

  it('a body that stops coming: 408 after the request timeout, nothing reaches the route', async () => {
    venue = await startPaperVenue({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const socket = await open();
    socket.write(
      'POST /api/v1/order HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    const answer = await answerOf(socket, 5_000);
    expectEnvelope(answer, 408, /^request timeout/);
    expect(answer.elapsedMs).toBeLessThan(3_000);
  });

  it('a body dripping a byte at a time is cut at the request timeout too', async () => {
    venue = await startPaperVenue({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const socket = await open();
    socket.write('POST /api/v1/order HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n');
    const drip = setInterval(() => socket.write('a'), 50);
    try {
      const answer = await answerOf(socket, 5_000);
      expectEnvelope(answer, 408, /^request timeout/);
      expect(answer.elapsedMs).toBeLessThan(3_000);
    } finally {
      clearInterval(drip);
    }
  });
});

describe('connection cap', () => {
  it('beyond maxConnections a new connection is answered 503 and closed; a freed slot serves again', async () => {
    venue = await startPaperVenue({
      limits: { maxConnections: 2, headersTimeoutMs: 10_000, requestTimeoutMs: 20_000 },
    });
    const first = await open();
    const second = await open();
    const firstAnswer = answerOf(first, 15_000);
    await open().then(async (third) => {
      third.write('GET /api/v1/market HTTP/1.1\r\nHost: x\r\n\r\n');
      const answer = await answerOf(third, 5_000);
      expectEnvelope(answer, 503, /^too many connections/);
      expect(answer.headers['retry-after']).toBe('1');
    });
    expect(venue.requestCount()).toBe(0);

    first.destroy();
    await firstAnswer;
    second.write('GET /api/v1/market HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const served = await answerOf(second, 5_000);
    expect(served.status).toBe(200);
    // The slot the first connection held is free again.
    const fourth = await open();
    fourth.write('GET /api/v1/market HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect((await answerOf(fourth, 5_000)).status).toBe(200);
  });
});
