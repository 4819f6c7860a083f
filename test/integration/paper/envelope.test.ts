/**
 * docs/conventions.md §2: the envelope on every answer, malformed JSON 400, the 64 KiB cap 413, unknown
 * paths 404, wrong methods 405, and the optional rate limit 429 with Retry-After.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../src/paper/index.ts';
import { type Answer, type Harness, orderBody, post, register, startHarness } from './harness.ts';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

function expectError(answer: Answer, status: number, message: string): void {
  expect(answer.status).toBe(status);
  expect(answer.json).toStrictEqual({ body: null, message, status });
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
}

describe('envelope (docs/conventions.md §2)', () => {
  it('wraps successes as {body, message, status} with status 200 and nothing else', async () => {
    harness = await startHarness();
    for (const path of ['/api/v1/market', '/api/v1/quotes']) {
      const answer = await harness.send(path);
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.json).sort()).toEqual(['body', 'message', 'status']);
      expect(answer.json.status).toBe(200);
      expect(typeof answer.json.message).toBe('string');
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('answers an unknown path 404 in the envelope', async () => {
    harness = await startHarness();
    expectError(await harness.send('/api/v2/market'), 404, 'no such path: /api/v2/market');
    expectError(await harness.send('/'), 404, 'no such path: /');
    expectError(await harness.send('/api/v1/market/'), 404, 'no such path: /api/v1/market/');
    expectError(
      await harness.send('/api/v1/order/7/extra'),
      404,
      'no such path: /api/v1/order/7/extra',
    );
  });

  it('answers a known path with the wrong method 405 with Allow, in the envelope', async () => {
    harness = await startHarness();
    const del = await harness.send('/api/v1/market', { method: 'DELETE' });
    expectError(del, 405, 'method DELETE not allowed on /api/v1/market (allowed: GET)');
    expect(del.headers.get('allow')).toBe('GET');
    const deleteOrder = await harness.send('/api/v1/order', { method: 'DELETE' });
    expectError(
      deleteOrder,
      405,
      'method DELETE not allowed on /api/v1/order (allowed: POST, GET)',
    );
    expect(deleteOrder.headers.get('allow')).toBe('POST, GET');
    const postAuth = await harness.send('/api/v1/auth', { method: 'PUT', body: '{}' });
    expectError(postAuth, 405, 'method PUT not allowed on /api/v1/auth (allowed: POST)');
  });

  it('answers malformed JSON 400, on registration and on orders alike', async () => {
    harness = await startHarness();
    const headers = { 'Broker-Id': '1' };
    expectError(
      await post(harness, '/api/v1/auth', '{"subaccountId": ', headers),
      400,
      'request body: malformed JSON',
    );
    expectError(
      await post(harness, '/api/v1/auth', '', headers),
      400,
      'request body: expected a JSON object, got nothing',
    );
    const session = await register(harness);
    expectError(
      await post(harness, '/api/v1/order', "{'marketId': 1}", session.headers),
      400,
      'request body: malformed JSON',
    );
    // JSON, but not an object: a shape error naming the request.
    expectError(
      await post(harness, '/api/v1/order', '[1,2]', session.headers),
      400,
      'order request: expected object, got array',
    );
  });

  it('caps bodies at 64 KiB: one byte over is 413, the cap itself is read', async () => {
    harness = await startHarness();
    const headers = { 'Broker-Id': '1' };
    const over = ' '.repeat(MAX_BODY_BYTES - 1) + '{}';
    expect(Buffer.byteLength(over)).toBe(MAX_BODY_BYTES + 1);
    expectError(
      await post(harness, '/api/v1/auth', over, headers),
      413,
      'request body: larger than 65536 bytes',
    );
    // Exactly the cap is read and parsed: the answer is about the content, not the size.
    const atCap = ' '.repeat(MAX_BODY_BYTES - 2) + '{}';
    expectError(
      await post(harness, '/api/v1/auth', atCap, headers),
      400,
      'registration request: subaccountId: missing',
    );
    // Far over the cap: answered without reading it all.
    expectError(
      await post(harness, '/api/v1/auth', 'x'.repeat(8 * 1024 * 1024), headers),
      413,
      'request body: larger than 65536 bytes',
    );
  });

  it('stops reading a chunked body (no Content-Length) as soon as it passes the cap', async () => {
    harness = await startHarness();
    const chunk = new Uint8Array(16 * 1024).fill(0x20);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Endless unless the server stops reading: the test passes only if it answers early.
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const answer = await harness.send('/api/v1/auth', {
      method: 'POST',
      headers: { 'Broker-Id': '1', 'content-type': 'application/json' },
      body,
      duplex: 'half',
    });
    expectError(answer, 413, 'request body: larger than 65536 bytes');
    expect(sent).toBeGreaterThan(MAX_BODY_BYTES);
  });

  it('counts every request that reaches the server, per path, before any check', async () => {
    harness = await startHarness();
    expect(harness.venue.requestCount()).toBe(0);
    await harness.send('/api/v1/market');
    await harness.send('/api/v1/market?type=SPOT');
    await harness.send('/nowhere');
    await post(harness, '/api/v1/order', orderBody(), {});
    expect(harness.venue.requestCount('/api/v1/market')).toBe(2);
    expect(harness.venue.requestCount('/nowhere')).toBe(1);
    expect(harness.venue.requestCount('/api/v1/order')).toBe(1);
    expect(harness.venue.requestCount('/api/v1/quotes')).toBe(0);
    expect(harness.venue.requestCount()).toBe(4);
  });
});

describe('rate limit (docs/conventions.md §2)', () => {
  it('answers 429 with Retry-After in seconds past the limit, over all endpoints, in a sliding window', async () => {
    harness = await startHarness({ rateLimit: 3 });
    const start = harness.clock.now;
    expect((await harness.send('/api/v1/market')).status).toBe(200);
    harness.clock.now = start + 400;
    expect((await harness.send('/api/v1/quotes')).status).toBe(200);
    expect((await harness.send('/no/such/path')).status).toBe(404);

    const limited = await harness.send('/api/v1/market');
    expectError(limited, 429, 'rate limited: retry after 1 s');
    expect(limited.headers.get('retry-after')).toBe('1');
    // 999 ms after the first request the window still holds three.
    harness.clock.now = start + 999;
    const stillLimited = await harness.send('/api/v1/quotes');
    expect(stillLimited.status).toBe(429);
    expect(Number(stillLimited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The first request leaves the window: one slot frees, not three.
    harness.clock.now = start + 1000;
    expect((await harness.send('/api/v1/market')).status).toBe(200);
    expect((await harness.send('/api/v1/market')).status).toBe(429);
    // Refused requests were not counted against the client.
    harness.clock.now = start + 1400;
    expect((await harness.send('/api/v1/market')).status).toBe(200);
    expect((await harness.send('/api/v1/market')).status).toBe(200);
    expect(harness.venue.requestCount('/api/v1/market')).toBe(6);
  });

  it('has no limit unless asked', async () => {
    harness = await startHarness();
    for (let i = 0; i < 50; i += 1) expect((await harness.send('/api/v1/market')).status).toBe(200);
  });
});
