/**
 * Issue 11: a strategy whose `onSnapshot` never returns does not delay another strategy's order
 * by more than its timeout, and is paused after three timeouts in a row, while the bot trades
 * on against the paper venue. Time is the test's: the bot's clock, its sleeps and the strategy
 * deadline timer all move one virtual clock, so the bound is checked exactly, without waiting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfig } from '../../../src/config/index.ts';
import type { Snapshot } from '../../../src/market/snapshot.ts';
import { startPaperVenue, type PaperVenue } from '../../../src/paper/index.ts';
import { startBotWithParts } from '../../../src/runtime/bot.ts';
import type { StartTimer } from '../../../src/clock/timers.ts';
import { T0, WALLET_KEY } from '../account/helpers.ts';
import { captureLogs, ROOT, strategyModule, WALLET_ENV } from './harness.ts';
import { pollDrivenSleep } from '../../helpers/poll-driven-sleep.ts';

let venue: PaperVenue | undefined;
let dir: string | undefined;
afterEach(async () => {
  await venue?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

it("a strategy that never answers delays another strategy's order by its timeout at most, and is paused", async () => {
  const clock = { now: T0 };
  venue = await startPaperVenue({ port: 0, seed: 11, clock: () => clock.now });
  dir = mkdtempSync(join(tmpdir(), 'quanta-timeout-'));
  const yaml = stringify({
    venue: { writeUrl: venue.url, readUrl: venue.url },
    wallet: { privateKeyEnv: WALLET_ENV },
    state: { dir: join(dir, 'state') },
    poll: { intervalMs: 1000 },
    risk: { capital: '100000' }, // the paper venue's balance: the bot knows its account
    strategies: [
      // Listed first: the strategy after it waits for its answers.
      { module: strategyModule('fixtures/hang'), markets: ['ETH-USD'], timeoutMs: 200 },
      {
        module: strategyModule('fixtures/scripted'),
        markets: ['ETH-USD'],
        params: { intents: [{ symbol: 'ETH-USD', side: 'BUY', amount: '0.01', tag: 'on-time' }] },
      },
    ],
  });
  const config = parseConfig(yaml, 'bot.yaml', dir);
  // A deadline passes on the next turn of the event loop and moves the clock by its length.
  const armed: number[] = [];
  const strategyTimer: StartTimer = (ms, fire) => {
    armed.push(ms);
    const handle = setImmediate(() => {
      clock.now += ms;
      fire();
    });
    return () => clearImmediate(handle);
  };
  const logs = captureLogs();
  const snapshots: Snapshot[] = [];
  const controller = new AbortController();
  const POLLS = 5;
  let polls = 0;
  const bot = await startBotWithParts({
    config,
    env: { [WALLET_ENV]: WALLET_KEY },
    log: logs.log,
    projectRoot: ROOT,
    now: () => clock.now,
    // Virtual time: durations pass on it too (the wall clock is not stepped).
    monotonic: () => clock.now,
    sleep: pollDrivenSleep({
      clock,
      runSignal: controller.signal,
      pollIntervalMs: config.poll.intervalMs,
      onPoll: async () => {
        await bot.executor.settle();
        if (++polls >= POLLS) controller.abort();
      },
    }),
    strategyTimer,
    onSnapshot: (snapshot) => snapshots.push(snapshot),
  });
  await bot.run(controller.signal);
  await bot.executor.settle();
  const rows = bot.journal.all();
  const summary = await bot.shutdown();

  // One deadline only: while the abandoned call stays pending the strategy is not asked again.
  expect(armed).toEqual([200]);
  const [order] = rows;
  expect(rows).toHaveLength(1);
  expect(order).toMatchObject({ strategy: 'scripted', tag: 'on-time', state: 'FILLED' });
  const firstPoll = snapshots[0]?.takenAt ?? NaN;
  expect((order?.createdAt ?? NaN) - firstPoll).toBeLessThanOrEqual(200);

  expect(summary.snapshots).toBe(POLLS);
  expect(summary.pausedStrategies).toEqual(['hang']);
  expect(logs.withMessage('strategy hang did not answer snapshot 1 within 200 ms')).toHaveLength(1);
  expect(logs.withMessage('strategy hang paused after 3 timeouts in a row')).toHaveLength(1);
}, 60_000);
