/**
 * `isolate: worker` (issue 25): how a strategy's worker thread dies and what the host makes of
 * it. A worker that exits or throws outside any call pauses its strategy at once with the reason;
 * one that spins forever is abandoned by the deadline, paused after three timeouts and its worker
 * ended; resumed, a strategy gets a new worker whose `init` runs again. (Out of memory, with the
 * paper venue and the alert, is test/integration/runtime/strategy-isolation.test.ts.)
 */
import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log/logger.ts';
import { loadStrategyHosts } from '../../../src/strategy/load-hosts.ts';
import { prepareStrategies } from '../../../src/strategy/prepare-strategies.ts';
import type { StrategyHost } from '../../../src/strategy/strategy-host.ts';
import { manualTimer, settle } from '../../helpers/manual-timer.ts';
import { testMarket } from '../../helpers/markets.ts';
import { ROOT, snapshotOf } from '../../helpers/strategy-harness.ts';

const hosts: StrategyHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
});

const MARKETS = [testMarket()];
const BUY = [{ marketId: 1, side: 'BUY', type: 'MARKET', amount: '1' }];

async function isolated(fault: string, timeoutMs?: number) {
  const store = new Map<string, string>();
  const timer = manualTimer();
  const [prepared] = await prepareStrategies(
    [
      {
        module: 'test/fixtures/strategies/worker-faults.ts',
        markets: ['ETH-USD'],
        params: { fromSeq: 3, fault },
        isolate: 'worker',
        heapLimitMb: 64,
        timeoutMs,
      },
    ],
    [ROOT],
  );
  const [host] = await loadStrategyHosts(prepared === undefined ? [] : [prepared], {
    now: () => 1,
    log: silentLogger,
    storeFor: () => ({ get: (key) => store.get(key), set: (key, value) => store.set(key, value) }),
    positionOf: () => 0n,
    openOrdersOf: () => [],
    onInvalidIntent: () => undefined,
    startTimer: timer.start,
  });
  if (host === undefined) throw new Error('no host');
  hosts.push(host);
  return { host, store, timer };
}

it('a worker that exits pauses its strategy at once, naming the exit; resumed, it gets a new worker and init again', async () => {
  const { host, store } = await isolated('exit');
  expect(await host.onSnapshot(snapshotOf(1, MARKETS))).toEqual(BUY);
  expect(await host.onSnapshot(snapshotOf(3, MARKETS))).toEqual([]);
  expect(host.paused).toBe(true);
  expect(host.pauseReason).toBe('strategy worker-faults: its worker exited with code 3');
  expect(host.errors).toBe(1);

  expect(host.resume()).toBe(true);
  expect(await host.onSnapshot(snapshotOf(2, MARKETS))).toEqual(BUY);
  expect(store.get('inits')).toBe('2');
}, 120_000);

it('an error thrown outside any call pauses the strategy on its next snapshot', async () => {
  const { host } = await isolated('throw-later');
  expect(await host.onSnapshot(snapshotOf(3, MARKETS))).toEqual([]);
  expect(host.paused).toBe(false);
  // The timer's throw ends the worker; the next call hears of it.
  for (let turn = 0; turn < 10_000 && !host.paused; turn++) {
    await host.onSnapshot(snapshotOf(4 + turn, MARKETS));
    await settle();
  }
  expect(host.pauseReason).toBe(
    'strategy worker-faults: its worker threw outside any call: thrown from a timer',
  );
}, 120_000);

it('a worker spinning forever is abandoned at its deadline, paused after 3 timeouts, and ended', async () => {
  const { host, timer, store } = await isolated('spin', 500);
  expect(await host.onSnapshot(snapshotOf(1, MARKETS))).toEqual(BUY);
  const answer = host.onSnapshot(snapshotOf(3, MARKETS));
  while (timer.armed().length === 0) await settle();
  timer.fireAll();
  expect(await answer).toEqual([]);
  // Not asked again while it spins: skipped twice more, then paused and its worker ended.
  expect(await host.onSnapshot(snapshotOf(4, MARKETS))).toEqual([]);
  expect(await host.onSnapshot(snapshotOf(5, MARKETS))).toEqual([]);
  expect(host.timeouts).toBe(3);
  expect(host.pauseReason).toBe('3 timeouts in a row');
  // The ended worker's abandoned call settled with it, so the resumed strategy is asked at once.
  await settle();
  expect(host.resume()).toBe(true);
  expect(await host.onSnapshot(snapshotOf(2, MARKETS))).toEqual(BUY);
  expect(store.get('inits')).toBe('2');
}, 120_000);
