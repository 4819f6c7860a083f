/**
 * Issue 30, security of the control server over real HTTP (port 0, a real bot on the paper
 * venue): off loopback every route needs a token, a read-only token may watch but not act, the
 * page's session is an HttpOnly SameSite=Strict cookie that is not the token, nothing another
 * site can make a browser send changes anything (forms, other origins, missing header, a
 * rebound Host), and every answer carries the security headers.
 */
import { connect } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startPaperVenue } from '../../../../src/paper/index.ts';
import { strategyModule, tempDir } from '../harness.ts';
import { call, rawRequest, startRunningBot, writeControlConfig } from './control-harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const ACT = 'act-token-6c1f0e9b2d4a4f57a1';
const WATCH = 'watch-token-93e8d1c0b7a64e2f';
const idle = {
  module: strategyModule('dca'),
  markets: ['ETH-USD'],
  params: { everySnapshots: 1000 },
};
const JSON_WRITE = { 'content-type': 'application/json', 'x-quanta-request': '1' };

async function botAt(control: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) {
  const paper = await startPaperVenue({ port: 0, seed: 30 });
  cleanups.push(() => paper.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const configPath = await writeControlConfig(dir, {
    writeUrl: paper.url,
    control,
    strategies: [idle],
  });
  const started = await startRunningBot(configPath, env, cleanups);
  // Bound to every address: reached here through loopback, as a remote client would be.
  return { ...started, url: started.url.replace('0.0.0.0', '127.0.0.1') };
}

/** The status line's code of a request sent as written (`target` untouched by any URL parser). */
async function rawStatus(base: string, target: string, headers = ''): Promise<number> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  socket.end(`GET ${target} HTTP/1.1\r\nHost: ${hostname}\r\n${headers}Connection: close\r\n\r\n`);
  let text = '';
  for await (const chunk of socket as AsyncIterable<Buffer>) text += chunk.toString('latin1');
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
}

function expectSecurityHeaders(headers: Record<string, unknown>, what: string): void {
  const csp = String(headers['content-security-policy']);
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).not.toContain('unsafe-inline');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['access-control-allow-origin'], what).toBeUndefined();
}

it('off loopback: every route needs a token, the read-only one may watch but not act', async () => {
  const { bot, url } = await botAt(
    { host: '0.0.0.0', tokenEnv: 'QUANTA_T_ACT', readTokenEnv: 'QUANTA_T_WATCH' },
    { QUANTA_T_ACT: ACT, QUANTA_T_WATCH: WATCH },
  );
  for (const path of ['/', '/healthz', '/readyz', '/status', '/metrics', '/nope']) {
    const answer = await rawRequest(url, path);
    expect(answer.status, path).toBe(401);
    expectSecurityHeaders(answer.headers, path);
  }
  for (const path of ['/halt', '/resume', '/strategies/dca/resume', '/session']) {
    const answer = await rawRequest(url, path, {
      method: 'POST',
      headers: JSON_WRITE,
      body: '{"mode":"halt"}',
    });
    expect(answer.status, path).toBe(401);
  }
  // A target that is not a URL (the HTTP parser lets `http://[x` through) is answered, and the
  // server goes on answering: `new URL` threw in the request listener before.
  expect(await rawStatus(url, 'http://[bad')).toBe(401);
  expect(await rawStatus(url, 'http://[bad', `Authorization: Bearer ${WATCH}\r\n`)).toBe(400);
  expect((await call(url, '/healthz', { token: WATCH })).status).toBe(200);
  // A token is never taken from the URL.
  expect((await rawRequest(url, `/status?token=${ACT}`)).status).toBe(401);
  expect((await rawRequest(url, `/status?access_token=${ACT}`)).status).toBe(401);

  // Answers to a token carry the security headers too: /metrics wrote its own head without
  // them. A strategy name with broken percent-encoding is the client's error (400), not a 500.
  const bearer = { headers: { authorization: `Bearer ${WATCH}` } };
  const scraped = await rawRequest(url, '/metrics', bearer);
  expect(scraped.status).toBe(200);
  expectSecurityHeaders(scraped.headers, '/metrics');
  const broken = await rawRequest(url, '/strategies/%E0%A4%A/params', bearer);
  expect(broken.status).toBe(400);
  expectSecurityHeaders(broken.headers, '/strategies/%E0%A4%A/params');

  // Watching: every read; no command.
  const watched = await call(url, '/status', { token: WATCH });
  expect(watched.status).toBe(200);
  expect(watched.body.mode).toBe('trading');
  for (const [path, body] of [
    ['/halt', { mode: 'halt' }],
    ['/resume', {}],
    ['/strategies/dca/resume', {}],
  ] as const) {
    const refused = await call(url, path, { token: WATCH, body });
    expect(refused.status, path).toBe(403);
    expect(refused.body.error).toMatch(/may watch, not act/);
  }
  expect(bot.mode).toBe('trading');

  // Acting.
  expect((await call(url, '/halt', { token: ACT, body: { mode: 'halt' } })).body).toEqual({
    mode: 'halt',
  });
  expect(bot.mode).toBe('halt');
  expect((await call(url, '/resume', { token: ACT, body: {} })).status).toBe(200);
  expect(bot.mode).toBe('trading');
}, 60_000);

it('the page session is an HttpOnly SameSite=Strict cookie that is not the token, with the token’s role', async () => {
  const { bot, url } = await botAt(
    { host: '0.0.0.0', tokenEnv: 'QUANTA_T_ACT', readTokenEnv: 'QUANTA_T_WATCH' },
    { QUANTA_T_ACT: ACT, QUANTA_T_WATCH: WATCH },
  );
  const opened = await rawRequest(url, '/session', {
    method: 'POST',
    headers: { ...JSON_WRITE, authorization: `Bearer ${ACT}` },
    body: '{}',
  });
  expect(opened.status).toBe(200);
  const setCookie = opened.headers['set-cookie']?.[0] ?? '';
  expect(setCookie).toMatch(/^quanta_session=[\w-]+; HttpOnly; SameSite=Strict; Path=\/$/);
  expect(setCookie).not.toContain(ACT);
  const cookie = setCookie.split(';')[0] ?? '';

  expect((await rawRequest(url, '/status', { headers: { cookie } })).status).toBe(200);
  expect((await rawRequest(url, '/status', { headers: { cookie: `${cookie}x` } })).status).toBe(
    401,
  );
  const halted = await rawRequest(url, '/halt', {
    method: 'POST',
    headers: { ...JSON_WRITE, cookie },
    body: '{"mode":"halt-entries"}',
  });
  expect(halted.status).toBe(200);
  expect(bot.mode).toBe('halt-entries');

  // A watch session reads, and cannot act.
  const watchOpened = await rawRequest(url, '/session', {
    method: 'POST',
    headers: { ...JSON_WRITE, authorization: `Bearer ${WATCH}` },
    body: '{}',
  });
  expect(JSON.parse(watchOpened.text)).toEqual({ role: 'watch' });
  const watchCookie = (watchOpened.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
  expect(watchCookie).not.toBe(cookie);
  expect((await rawRequest(url, '/status', { headers: { cookie: watchCookie } })).status).toBe(200);
  const refused = await rawRequest(url, '/resume', {
    method: 'POST',
    headers: { ...JSON_WRITE, cookie: watchCookie },
    body: '{}',
  });
  expect(refused.status).toBe(403);
  expect(bot.mode).toBe('halt-entries');

  const ended = await rawRequest(url, '/session', { method: 'DELETE', headers: JSON_WRITE });
  // Ending needs a valid session or token like everything else; with one it clears the cookie.
  expect(ended.status).toBe(401);
  const endedWith = await rawRequest(url, '/session', {
    method: 'DELETE',
    headers: { ...JSON_WRITE, cookie },
  });
  expect(endedWith.headers['set-cookie']?.[0]).toMatch(/^quanta_session=; .*Max-Age=0/);
}, 60_000);

it('what another site can make a browser send changes nothing, even with a valid session', async () => {
  const { bot, url } = await botAt(
    { host: '0.0.0.0', tokenEnv: 'QUANTA_T_ACT' },
    { QUANTA_T_ACT: ACT },
  );
  const opened = await rawRequest(url, '/session', {
    method: 'POST',
    headers: { ...JSON_WRITE, authorization: `Bearer ${ACT}` },
    body: '{}',
  });
  const cookie = (opened.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
  const host = new URL(url).host;
  const forged: [string, Record<string, string>, string, number][] = [
    ['form post', { 'content-type': 'application/x-www-form-urlencoded' }, 'mode=halt', 415],
    ['multipart form', { 'content-type': 'multipart/form-data; boundary=x' }, '--x--', 415],
    ['text/plain JSON', { 'content-type': 'text/plain' }, '{"mode":"halt"}', 415],
    ['JSON without the header', { 'content-type': 'application/json' }, '{"mode":"halt"}', 403],
    ['other origin', { ...JSON_WRITE, origin: 'https://evil.example' }, '{"mode":"halt"}', 403],
    ['null origin', { ...JSON_WRITE, origin: 'null' }, '{"mode":"halt"}', 403],
    ['cross-site fetch', { ...JSON_WRITE, 'sec-fetch-site': 'cross-site' }, '{"mode":"halt"}', 403],
    ['same-site fetch', { ...JSON_WRITE, 'sec-fetch-site': 'same-site' }, '{"mode":"halt"}', 403],
  ];
  for (const [what, headers, body, status] of forged) {
    for (const auth of [{ cookie }, { authorization: `Bearer ${ACT}` }]) {
      const answer = await rawRequest(url, '/halt', {
        method: 'POST',
        headers: { ...headers, ...auth },
        body,
      });
      expect(answer.status, what).toBe(status);
      expectSecurityHeaders(answer.headers, what);
    }
  }
  expect(bot.mode).toBe('trading');
  // The same page's own request goes through.
  const own = await rawRequest(url, '/halt', {
    method: 'POST',
    headers: { ...JSON_WRITE, cookie, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' },
    body: '{"mode":"halt"}',
  });
  expect(own.status).toBe(200);
  expect(bot.mode).toBe('halt');
  // A preflight gets no CORS permission.
  const preflight = await rawRequest(url, '/resume', {
    method: 'OPTIONS',
    headers: {
      authorization: `Bearer ${ACT}`,
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, x-quanta-request',
    },
  });
  expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
  expect(preflight.status).toBeGreaterThanOrEqual(400);
}, 60_000);

it('on loopback without a token: a rebound Host and forms are refused; the loopback page works', async () => {
  const { bot, url } = await botAt({});
  const port = new URL(url).port;
  for (const host of [`evil.example:${port}`, `192.168.1.7:${port}`]) {
    const read = await rawRequest(url, '/status', { headers: { host } });
    expect(read.status, host).toBe(403);
    const write = await rawRequest(url, '/halt', {
      method: 'POST',
      headers: { ...JSON_WRITE, host },
      body: '{"mode":"halt"}',
    });
    expect(write.status, host).toBe(403);
  }
  const form = await rawRequest(url, '/halt', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'mode=halt',
  });
  expect(form.status).toBe(415);
  expect(bot.mode).toBe('trading');
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
    expect((await rawRequest(url, '/status', { headers: { host } })).status, host).toBe(200);
  }
  const halted = await call(url, '/halt', { body: { mode: 'halt' } });
  expect(halted.status).toBe(200);
  expect(bot.mode).toBe('halt');
}, 60_000);
