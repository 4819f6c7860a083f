/**
 * Issue 25, "a strategy that allocates without bound kills the whole bot (V8 heap abort, exit
 * 134, no quanta message)". With `isolate: worker` the strategy runs in a worker thread with a
 * heap limit: it trades through the worker (snapshots in, intents out, its store, position, clock
 * and log answered by the bot), then allocates without bound; the worker dies of its heap limit,
 * the strategy is paused and the strategy-paused alert says why, while the healthy strategy
 * beside it keeps trading on the paper venue. Without `isolate`, the same strategy takes the
 * whole process down, as the README says.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { stringify } from 'yaml';
import { loadConfig } from '../../../src/config/index.ts';
import { startPaperVenue } from '../../../src/paper/index.ts';
import { startBotWithParts } from '../../../src/runtime/bot.ts';
import {
  captureLogs,
  journalPath,
  readJournal,
  ROOT,
  spawnQuanta,
  strategyModule,
  tempDir,
  waitFor,
  WALLET_ENV,
} from './harness.ts';
import { startWebhookReceiver, writeControlConfig } from './control/control-harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

const HEAP_MB = 64;

it('isolate: worker: a strategy that allocates without bound is paused and alerted; the healthy one keeps trading', async () => {
  const venue = await startPaperVenue({ port: 0, seed: 25 });
  cleanups.push(() => venue.close());
  const receiver = await startWebhookReceiver();
  cleanups.push(() => receiver.close());
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const path = await writeControlConfig(dir, {
    writeUrl: venue.url,
    notify: [{ url: `${receiver.url}/json`, format: 'json' }],
    strategies: [
      {
        module: strategyModule('fixtures/allocate'),
        markets: ['ETH-USD'],
        params: { fromSeq: 4, amount: '0.001' },
        isolate: 'worker',
        heapLimitMb: HEAP_MB,
        // Long enough for the worker to fill its heap: it is its death that pauses it here.
        timeoutMs: 60_000,
      },
      {
        module: strategyModule('fixtures/raw-intents'),
        markets: ['ETH-USD'],
        params: { intents: [{ symbol: 'ETH-USD', side: 'BUY', type: 'MARKET', amount: '0.001' }] },
      },
    ],
  });
  const env = { [WALLET_ENV]: generatePrivateKey() };
  const config = await loadConfig(path, { env });
  const logs = captureLogs();
  const bot = await startBotWithParts({ config, env, log: logs.log, projectRoot: ROOT });
  const controller = new AbortController();
  const running = bot.run(controller.signal);
  let stopped = false;
  const stop = async () => {
    if (stopped) return undefined;
    stopped = true;
    controller.abort();
    await running;
    return await bot.shutdown();
  };
  cleanups.push(stop);

  const alert = await waitFor(
    'the strategy-paused alert',
    () => receiver.received.find((r) => r.body.kind === 'strategy-paused'),
    60_000,
  );
  const healthyAtPause = bot.journal.all().filter((row) => row.strategy === 'raw-intents').length;
  // The bot goes on: the healthy strategy places (and fills) orders after the pause.
  await waitFor(
    'the healthy strategy to trade on',
    () =>
      bot.journal.all().filter((row) => row.strategy === 'raw-intents' && row.state === 'FILLED')
        .length >=
      healthyAtPause + 5,
    30_000,
  );
  const summary = await stop();

  expect(alert.body.message).toBe(
    `strategy allocate paused: strategy allocate: its worker ran out of memory (heap limit ${HEAP_MB} MB)`,
  );
  expect(alert.body.details).toMatchObject({ strategy: 'allocate' });
  expect(summary?.pausedStrategies).toEqual(['allocate']);
  const paused = logs.withMessage('strategy allocate: its worker ran out of memory');
  expect(paused).toHaveLength(1);
  expect(paused[0]).toMatchObject({ strategy: 'allocate', level: 50 });

  // Before it went bad it traded through the worker: seq 1 to 3, each an order of its own, its
  // store, position, clock and log answered and relayed by the bot.
  const rows = readJournal(journalPath(dir));
  const isolated = rows.filter((row) => row.strategy === 'allocate');
  expect(isolated.map((row) => row.tag)).toEqual(['isolated', 'isolated', 'isolated']);
  expect(isolated.every((row) => row.state === 'FILLED')).toBe(true);
  const trading = logs.withMessage('allocate: trading');
  expect(trading.map((r) => [r.seq, r.seen, r.strategy])).toEqual([
    [1, 1, 'allocate'],
    [2, 2, 'allocate'],
    [3, 3, 'allocate'],
  ]);
  expect(trading.map((r) => r.position)).toEqual(['0', '0.001', '0.002']);
  expect(trading.every((r) => typeof r.at === 'number' && r.at > 0)).toBe(true);
  expect(rows.filter((row) => row.strategy === 'raw-intents').length).toBeGreaterThan(
    healthyAtPause,
  );
}, 120_000);

it('without isolate, the same strategy takes the whole bot down (documented in the README)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quanta-no-isolate-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'bot.yaml');
  writeFileSync(
    path,
    stringify({
      venue: { writeUrl: 'embedded', readUrl: 'embedded' },
      state: { dir: join(dir, 'state') },
      poll: { intervalMs: 100 },
      strategies: [
        {
          module: strategyModule('fixtures/allocate'),
          markets: ['ETH-USD'],
          params: { fromSeq: 2, amount: '0.001' },
        },
      ],
    }),
  );
  const quanta = spawnQuanta(['run', '--config', path], {
    ...process.env,
    NODE_OPTIONS: `--max-old-space-size=${HEAP_MB * 2}`,
  });
  const { code, signal } = await quanta.exited;
  // V8's heap abort: no quanta message, no shutdown; the strategy took every other one with it.
  expect({ code, signal }, quanta.tail()).toMatchObject({ signal: 'SIGABRT' });
  expect(quanta.stderr.map((l) => l.line).join('\n')).toContain('heap out of memory');
}, 120_000);
