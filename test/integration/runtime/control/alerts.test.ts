/**
 * Issue 14, done-when: a local webhook receiver gets exactly one alert per event kind in a
 * scripted run (start, fill, order UNKNOWN, daily loss limit, strategy paused, data stale,
 * credential renewal failing, mode change, stop); with the receiver down, orders still land on
 * time.
 */
import { afterEach, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { loadConfig } from '../../../../src/config/index.ts';
import { startPaperVenue } from '../../../../src/paper/index.ts';
import { startBotWithParts, type BotWithParts } from '../../../../src/runtime/bot.ts';
import { ALERT_KINDS } from '../../../../src/runtime/control/notifier.ts';
import {
  accountIdOf,
  captureLogs,
  journalPath,
  readJournal,
  startOrderProxy,
  strategyModule,
  tempDir,
  waitFor,
  WALLET_ENV,
} from '../harness.ts';
import {
  call,
  startBlackHole,
  startOutageProxy,
  startWebhookReceiver,
  writeControlConfig,
  type ControlTestConfig,
} from './control-harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

async function started(
  dir: string,
  config: ControlTestConfig,
): Promise<{
  bot: BotWithParts;
  stop: () => Promise<void>;
  snapshots: () => number;
  accountId: string;
}> {
  const configPath = await writeControlConfig(dir, config);
  const walletKey = generatePrivateKey();
  const env = { [WALLET_ENV]: walletKey };
  const loaded = await loadConfig(configPath, { env });
  let snapshots = 0;
  const bot = await startBotWithParts({
    config: loaded,
    env,
    log: captureLogs().log,
    projectRoot: process.cwd(),
    onSnapshot: () => (snapshots += 1),
  });
  const controller = new AbortController();
  const running = bot.run(controller.signal);
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      controller.abort();
      await running;
      await bot.shutdown();
    })();
    return stopped;
  };
  cleanups.push(stop);
  return { bot, stop, snapshots: () => snapshots, accountId: accountIdOf(walletKey) };
}

it('one alert per event kind in a scripted run, to every webhook in its format', async () => {
  const venue = await startPaperVenue({ port: 0, seed: 41 });
  cleanups.push(() => venue.close());
  // Reads and writes go through a proxy that can take the venue away; order requests also pass
  // a proxy that holds the second one unanswered (it ends UNKNOWN).
  const outage = await startOutageProxy(venue.url);
  cleanups.push(() => outage.close());
  const orders = await startOrderProxy(outage.url, (n) => (n === 2 ? 'hold' : 'forward'));
  cleanups.push(() => orders.close());
  const receiver = await startWebhookReceiver();
  cleanups.push(() => receiver.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);

  const { bot, stop } = await started(dir, {
    writeUrl: orders.url,
    readUrl: outage.url,
    // Credentials renewed a second after each registration: renewals run all along.
    venue: { timeoutMs: 500, credentialTtlMs: 60_000, renewMarginMs: 59_000 },
    poll: { intervalMs: 100, staleAfterMs: 300, maxBackoffMs: 400 },
    execution: { maxAttempts: 1 },
    // Any loss at all reaches it: the first fill's fee does.
    risk: { dailyLossLimit: '0.000001' },
    notify: [
      { url: `${receiver.url}/json`, format: 'json', fills: true },
      { url: `${receiver.url}/slack`, format: 'slack' },
    ],
    strategies: [
      {
        module: strategyModule('fixtures/scripted'),
        name: 'open',
        markets: ['ETH-USD'],
        params: { intents: [{ symbol: 'ETH-USD', side: 'BUY', amount: '0.1' }] },
      },
      {
        module: strategyModule('fixtures/scripted'),
        name: 'held',
        markets: ['ETH-USD'],
        params: {
          fromSeq: 4,
          intents: [{ symbol: 'ETH-USD', side: 'SELL', amount: '0.05', reduceOnly: true }],
        },
      },
      {
        module: strategyModule('fixtures/scripted'),
        name: 'late',
        markets: ['ETH-USD'],
        params: { fromSeq: 12, intents: [{ symbol: 'ETH-USD', side: 'BUY', amount: '0.01' }] },
      },
      { module: strategyModule('fixtures/hang'), markets: ['ETH-USD'], timeoutMs: 50 },
    ],
  });
  const url = bot.controlUrl ?? '';
  const kinds = (path = '/json'): string[] =>
    receiver.received.filter((r) => r.path === path).map((r) => String(r.body.kind));
  const has = (kind: string) => () => (kinds().includes(kind) ? true : undefined);

  await waitFor('start', has('start'));
  await waitFor('fill', has('fill'));
  await waitFor('order UNKNOWN', has('order-unknown'));
  await waitFor('daily loss limit', has('daily-loss-limit'));
  await waitFor('strategy paused', has('strategy-paused'));

  // The venue goes away: data turns stale and the renewal due every second fails.
  await outage.down();
  await waitFor('data stale', has('data-stale'));
  await waitFor('renewal failing', has('credential-renewal-failing'));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await outage.up();
  await waitFor('ready again', async () => (await call(url, '/readyz')).status === 200);

  expect((await call(url, '/halt', { body: { mode: 'halt-entries' } })).status).toBe(200);
  await waitFor('mode change', has('mode-change'));
  await stop();
  await waitFor('stop', has('stop'));

  // Every kind but the venue refusing credentials, which has its own run below.
  const scripted = ALERT_KINDS.filter((kind) => kind !== 'credentials-refused');
  expect(kinds().sort()).toEqual([...scripted].sort());
  // The Slack-format webhook gets the same alerts but fills, as { text }.
  const slack = receiver.received.filter((r) => r.path === '/slack').map((r) => r.body);
  expect(slack).toHaveLength(scripted.length - 1);
  for (const body of slack) expect(Object.keys(body)).toEqual(['text']);
  const json = receiver.received.filter((r) => r.path === '/json').map((r) => r.body);
  expect(json.find((b) => b.kind === 'mode-change')).toMatchObject({
    message: 'trading mode trading → halt-entries (control)',
    details: { from: 'trading', to: 'halt-entries', source: 'control' },
  });
  // The stop summary values positions at the last marks (issue 14, item 4).
  expect(json.find((b) => b.kind === 'stop')).toMatchObject({
    details: {
      positions: [
        {
          symbol: 'ETH-USD',
          amount: '0.1',
          notional: expect.stringMatching(/^\d+\.\d+$/) as unknown,
          unrealizedPnl: expect.stringMatching(/^-?\d+(\.\d+)?$/) as unknown,
        },
      ],
    },
  });
  expect(json.find((b) => b.kind === 'strategy-paused')).toMatchObject({
    details: { strategy: 'hang' },
  });
}, 90_000);

it('one alert when the venue refuses the credentials; trading goes on with a new key', async () => {
  const venue = await startPaperVenue({ port: 0, seed: 43 });
  cleanups.push(() => venue.close());
  const receiver = await startWebhookReceiver();
  cleanups.push(() => receiver.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const { bot, accountId } = await started(dir, {
    writeUrl: venue.url,
    poll: { intervalMs: 100 },
    notify: [{ url: `${receiver.url}/json`, format: 'json' }],
    strategies: [
      { module: strategyModule('dca'), markets: ['ETH-USD'], params: { everySnapshots: 1 } },
    ],
  });
  const filled = (): number => bot.journal.all().filter((r) => r.state === 'FILLED').length;
  await waitFor('2 orders filled', () => (filled() >= 2 ? true : undefined));
  const signer = bot.status().credentials.signer;
  expect(venue.revokeCredentials(accountId)).toBe(1);
  const refusedAlerts = () =>
    receiver.received.map((r) => r.body).filter((b) => b.kind === 'credentials-refused');
  await waitFor('the refusal alert', () => (refusedAlerts().length > 0 ? true : undefined));
  const before = filled();
  await waitFor('orders filled with a new key', () =>
    filled() >= before + 2 && bot.status().credentials.signer !== signer ? true : undefined,
  );
  expect(refusedAlerts()).toEqual([
    expect.objectContaining({
      message: `the venue refused the credentials of signing key ${signer}: orders are refused until a new key registers, at the next poll`,
      details: { signer, newest: true, waitMs: 0, inARow: 1, registering: false },
    }),
  ]);
}, 60_000);

it('orders land on time while the webhook never answers', async () => {
  const venue = await startPaperVenue({ port: 0, seed: 42 });
  cleanups.push(() => venue.close());
  const hole = await startBlackHole();
  cleanups.push(() => hole.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const intervalMs = 100;
  const { bot, stop, snapshots } = await started(dir, {
    writeUrl: venue.url,
    poll: { intervalMs },
    notify: [{ url: hole.url, format: 'json', fills: true }],
    strategies: [
      { module: strategyModule('dca'), markets: ['ETH-USD'], params: { everySnapshots: 1 } },
    ],
  });

  await waitFor('20 orders', () => (bot.journal.all().length >= 20 ? true : undefined), 30_000);
  expect(hole.requests()).toBeGreaterThan(0);
  const stopStarted = Date.now();
  await stop();
  const stopMs = Date.now() - stopStarted;
  const rows = readJournal(journalPath(dir));
  // One order per snapshot, every one filled within a poll interval or so of being journaled.
  expect(rows.length).toBeGreaterThanOrEqual(snapshots() - 1);
  for (const row of rows) {
    expect(row.state).toBe('FILLED');
    expect(row.updatedAt - row.createdAt).toBeLessThan(1000);
  }
  // Shutdown waits for the stuck webhook a bounded moment, never its whole retry schedule.
  expect(stopMs).toBeLessThan(3000 + 2000);
}, 60_000);
