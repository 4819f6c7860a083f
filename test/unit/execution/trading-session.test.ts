/**
 * The session asks every strategy at once and takes their answers in config order: a strategy
 * that never answers holds the others back by its own timeout, no more, and is then paused.
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log/logger.ts';
import type { Snapshot } from '../../../src/market/snapshot.ts';
import { TradingSession, type SessionExecutor } from '../../../src/stack/trading-session.ts';
import { defineStrategy } from '../../../src/strategy/define-strategy.ts';
import type { OrderIntent } from '../../../src/domain/index.ts';
import { StrategyHost } from '../../../src/strategy/strategy-host.ts';
import type { StartTimer } from '../../../src/clock/timers.ts';
import { testMarket } from '../../helpers/markets.ts';
import { manualTimer, settle } from '../../helpers/manual-timer.ts';
import { snapshotOf } from '../../helpers/strategy-harness.ts';

const BUY: OrderIntent = { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.1' };

function hostOf(
  name: string,
  onSnapshot: () => readonly OrderIntent[] | Promise<readonly OrderIntent[]>,
  timeoutMs: number,
  startTimer: StartTimer,
): StrategyHost {
  return new StrategyHost({
    strategy: defineStrategy({ name, onSnapshot }),
    name,
    params: {},
    symbols: ['ETH-USD'],
    now: () => 0,
    log: silentLogger,
    store: { get: () => undefined, set: () => undefined },
    positionOf: () => 0n,
    openOrders: () => [],
    timeoutMs,
    startTimer,
  });
}

/** An executor that only records what it was given. */
function recordingExecutor(): SessionExecutor & { submitted: string[]; batches: string[][] } {
  const submitted: string[] = [];
  const executor = {
    submitted,
    batches: [] as string[][],
    submitAll: (
      items: readonly { strategy: string; intent: OrderIntent }[],
      snapshot: Snapshot,
    ) => {
      const batch = items.map(({ strategy }) => `${strategy}@${snapshot.seq}`);
      executor.batches.push(batch);
      submitted.push(...batch);
      return Promise.resolve(items.map(() => ({ kind: 'refused' }))) as ReturnType<
        SessionExecutor['submitAll']
      >;
    },
    refreshOpenOrders: () => Promise.resolve(),
  };
  return executor;
}

const snap = (seq: number) => snapshotOf(seq, [testMarket()]);
const never = () => new Promise<never>(() => undefined);

describe('TradingSession with a strategy that never answers', () => {
  it("delays the next strategy's order by the hung one's timeout only, then pauses it", async () => {
    const timer = manualTimer();
    const executor = recordingExecutor();
    const session = new TradingSession({
      hosts: [
        hostOf('hang', never, 250, timer.start),
        hostOf('quick', () => [BUY], 250, timer.start),
      ],
      executor,
      log: silentLogger,
    });

    const first = session.onSnapshot(snap(1));
    await settle();
    // Waiting on the hung strategy's deadline, the only timer running.
    expect(executor.submitted).toEqual([]);
    expect(timer.armed()).toEqual([250]);
    timer.fireAll();
    await first;
    expect(executor.submitted).toEqual(['quick@1']);

    // The hung call is still pending: skipped at once, no wait at all.
    await session.onSnapshot(snap(2));
    expect(timer.armed()).toEqual([]);
    expect(executor.submitted).toEqual(['quick@1', 'quick@2']);
    await session.onSnapshot(snap(3));
    expect(session.pausedStrategies()).toEqual(['hang']);
    expect(session.strategyTimeouts()).toEqual({ hang: 3 });
    await session.onSnapshot(snap(4));
    expect(executor.submitted).toEqual(['quick@1', 'quick@2', 'quick@3', 'quick@4']);
  });

  it('runs the deadlines of several hung strategies at once (the wait is the longest, not the sum)', async () => {
    const timer = manualTimer();
    const executor = recordingExecutor();
    const session = new TradingSession({
      hosts: [
        hostOf('hang-a', never, 300, timer.start),
        hostOf('hang-b', never, 200, timer.start),
        hostOf('quick', () => [BUY], 100, timer.start),
      ],
      executor,
      log: silentLogger,
    });
    const done = session.onSnapshot(snap(1));
    await settle();
    expect(timer.armed()).toEqual([300, 200]);
    timer.fireAll();
    await done;
    expect(executor.submitted).toEqual(['quick@1']);
  });

  it('submits in config order whatever order the answers come in', async () => {
    const timer = manualTimer();
    const executor = recordingExecutor();
    let answerSlow: (intents: OrderIntent[]) => void = () => undefined;
    const session = new TradingSession({
      hosts: [
        hostOf('slow', () => new Promise((resolve) => (answerSlow = resolve)), 250, timer.start),
        hostOf('fast', () => [BUY], 250, timer.start),
      ],
      executor,
      log: silentLogger,
    });
    const done = session.onSnapshot(snap(1));
    await settle();
    answerSlow([BUY]);
    await done;
    expect(executor.submitted).toEqual(['slow@1', 'fast@1']);
    expect(timer.armed()).toEqual([]);
  });

  it('hands the intents of the answers already there over in one batch, and before waiting on a late one', async () => {
    const timer = manualTimer();
    const executor = recordingExecutor();
    let answerSlow: (intents: OrderIntent[]) => void = () => undefined;
    const session = new TradingSession({
      hosts: [
        hostOf('a', () => [BUY, BUY], 250, timer.start),
        hostOf('b', () => [BUY], 250, timer.start),
        hostOf('slow', () => new Promise((resolve) => (answerSlow = resolve)), 250, timer.start),
        hostOf('c', () => [BUY], 250, timer.start),
      ],
      executor,
      log: silentLogger,
    });
    const done = session.onSnapshot(snap(1));
    await settle();
    // a's and b's orders went out together, without waiting for slow.
    expect(executor.batches).toEqual([['a@1', 'a@1', 'b@1']]);
    answerSlow([BUY]);
    await done;
    expect(executor.batches).toEqual([
      ['a@1', 'a@1', 'b@1'],
      ['slow@1', 'c@1'],
    ]);
  });
});
