/**
 * Issue 14, the control server against the paper venue on port 0: readiness follows the venue
 * going away and coming back, a token is asked where one is configured (401 without it), a
 * non-loopback bind without a token exits 2, and the commands change the trading mode.
 */
import { afterEach, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { startPaperVenue, type PaperVenue } from '../../../../src/paper/index.ts';
import type { BotWithParts } from '../../../../src/runtime/bot.ts';
import { spawnQuanta, strategyModule, tempDir, waitFor, WALLET_ENV } from '../harness.ts';
import { call, startOutageProxy, startRunningBot, writeControlConfig } from './control-harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

async function venue(): Promise<PaperVenue> {
  const started = await startPaperVenue({ port: 0, seed: 14 });
  cleanups.push(() => started.close());
  return started;
}

/** Starts a bot from `configPath` and runs it until the test ends. */
async function startRunning(
  configPath: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ bot: BotWithParts; url: string }> {
  return startRunningBot(configPath, env, cleanups);
}

const idle = {
  module: strategyModule('dca'),
  markets: ['ETH-USD'],
  params: { everySnapshots: 1000 },
};

it('/readyz turns 503 within two poll intervals of the venue going away and 200 after it returns', async () => {
  const paper = await venue();
  const proxy = await startOutageProxy(paper.url);
  cleanups.push(() => proxy.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const intervalMs = 1000;
  const configPath = await writeControlConfig(dir, {
    writeUrl: paper.url,
    readUrl: proxy.url,
    poll: { intervalMs, maxBackoffMs: 2000 },
    strategies: [idle],
  });
  const { url } = await startRunning(configPath);

  expect((await call(url, '/healthz')).status).toBe(200);
  await waitFor('ready', async () => (await call(url, '/readyz')).status === 200);

  await proxy.down();
  const downAt = Date.now();
  const notReady = await waitFor('503', async () => {
    const answer = await call(url, '/readyz');
    return answer.status === 503 ? answer : undefined;
  });
  const tookMs = Date.now() - downAt;
  expect(tookMs).toBeLessThanOrEqual(2 * intervalMs);
  expect(notReady.body.ready).toBe(false);
  expect(notReady.body.reasons).toEqual(
    expect.arrayContaining([expect.stringMatching(/^venue polls failing: \d+ in a row$/)]),
  );
  // The process still runs: liveness is not readiness.
  expect((await call(url, '/healthz')).status).toBe(200);

  await proxy.up();
  const ready = await waitFor('200 again', async () => {
    const answer = await call(url, '/readyz');
    return answer.status === 200 ? answer : undefined;
  });
  expect(ready.body).toEqual({ ready: true, reasons: [] });
}, 60_000);

it('asks for the bearer token where one is configured: 401 without it or with a wrong one', async () => {
  const paper = await venue();
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const configPath = await writeControlConfig(dir, {
    writeUrl: paper.url,
    control: { tokenEnv: 'QUANTA_TEST_CONTROL_TOKEN' },
    strategies: [idle],
  });
  const token = 'test-token-2f0c51a4e7b94d3f';
  const { url } = await startRunning(configPath, { QUANTA_TEST_CONTROL_TOKEN: token });

  for (const path of ['/healthz', '/readyz', '/status', '/metrics']) {
    const res = await fetch(`${url}${path}`);
    expect(res.status, path).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  }
  expect((await call(url, '/halt', { body: { mode: 'halt' } })).status).toBe(401);
  expect((await call(url, '/status', { token: 'wrong' })).status).toBe(401);
  expect((await call(url, '/status', { token: `${token}x` })).status).toBe(401);
  const status = await call(url, '/status', { token });
  expect(status.status).toBe(200);
  expect(status.body.mode).toBe('trading');
}, 60_000);

it('a non-loopback control bind without a token exits 2 before contacting the venue', async () => {
  const paper = await venue();
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const configPath = await writeControlConfig(dir, {
    writeUrl: paper.url,
    control: { host: '0.0.0.0' },
    strategies: [idle],
  });
  const bot = spawnQuanta(['run', '--config', configPath], {
    ...process.env,
    [WALLET_ENV]: generatePrivateKey(),
  });
  cleanups.push(async () => {
    if (bot.child.exitCode === null && bot.child.signalCode === null) bot.child.kill('SIGKILL');
    await bot.exited;
  });
  const exit = await bot.exited;
  expect(exit.code, bot.tail()).toBe(2);
  expect(bot.stderr.map((l) => l.line).join('\n')).toMatch(/control\.tokenEnv/);
  expect(paper.requestCount()).toBe(0);

  // The same with tokenEnv naming an unset variable.
  const unset = await writeControlConfig(dir, {
    writeUrl: paper.url,
    control: { host: '0.0.0.0', tokenEnv: 'QUANTA_TEST_UNSET_TOKEN' },
    strategies: [idle],
  });
  const env: NodeJS.ProcessEnv = { ...process.env, [WALLET_ENV]: generatePrivateKey() };
  delete env.QUANTA_TEST_UNSET_TOKEN;
  const second = spawnQuanta(['run', '--config', unset], env);
  const secondExit = await second.exited;
  expect(secondExit.code, second.tail()).toBe(2);
  expect(second.stderr.map((l) => l.line).join('\n')).toMatch(/QUANTA_TEST_UNSET_TOKEN/);
  expect(paper.requestCount()).toBe(0);
}, 60_000);

it('POST /halt, /resume and /strategies/{name}/resume; GET /status shows mode and orders', async () => {
  const paper = await venue();
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const configPath = await writeControlConfig(dir, {
    writeUrl: paper.url,
    control: { lastOrders: 3 },
    strategies: [
      { module: strategyModule('dca'), markets: ['ETH-USD'], params: { everySnapshots: 1 } },
    ],
  });
  const { bot, url } = await startRunning(configPath);
  await waitFor('five orders', () => (bot.journal.all().length >= 5 ? true : undefined));

  const status = await call(url, '/status');
  expect(status.status).toBe(200);
  expect(status.body).toMatchObject({
    mode: 'trading',
    unresolvedOrders: 0,
    strategies: ['dca'],
    paused: [],
    rateBudget: { mode: 'local', fallbacks: 0, pausedForMs: 0 },
  });
  expect(status.body.lastOrders).toHaveLength(3);
  expect(Array.isArray(status.body.openOrders)).toBe(true);
  expect(status.body.positions).toEqual([
    expect.objectContaining({
      symbol: 'ETH-USD',
      notional: expect.stringMatching(/^\d/) as unknown,
    }),
  ]);
  // Issue 24: the PnL is named PnL (the field was `equity`, a figure the bot cannot know), and
  // it is realized net of fees + unrealized, exact.
  expect(status.body).not.toHaveProperty('equity');
  expect(status.body.netPnl).toMatch(/^-?\d+(\.\d+)?$/);
  expect(Number(status.body.netPnl)).toBeCloseTo(
    Number(status.body.realizedNet) + Number(status.body.unrealized),
    12,
  );

  expect((await call(url, '/halt', { body: { mode: 'sell-everything' } })).status).toBe(400);
  expect((await call(url, '/halt', { body: { mode: 'halt' } })).body).toEqual({ mode: 'halt' });
  const halted = await call(url, '/readyz');
  expect(halted.status).toBe(503);
  expect(halted.body.reasons).toContain('trading halt');
  // Nothing leaves while halted: the journal stops growing once what was in flight settles.
  await bot.executor.settle();
  const rows = bot.journal.all().length;
  const refusedBefore = bot.executor.stats().refusals.HALTED ?? 0;
  await waitFor('three refusals', () =>
    (bot.executor.stats().refusals.HALTED ?? 0) >= refusedBefore + 3 ? true : undefined,
  );
  expect(bot.journal.all().length).toBe(rows);

  expect((await call(url, '/resume', { method: 'POST' })).body).toEqual({ mode: 'trading' });
  await waitFor('orders again', () => (bot.journal.all().length > rows ? true : undefined));
  expect((await call(url, '/strategies/nope/resume', { method: 'POST' })).status).toBe(404);
  expect((await call(url, '/strategies/dca/resume', { method: 'POST' })).body).toEqual({
    strategy: 'dca',
    resumed: false,
  });
  expect((await call(url, '/nowhere')).status).toBe(404);
  expect((await call(url, '/halt')).status).toBe(405);
}, 60_000);
