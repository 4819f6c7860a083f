import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { defineStrategy } from '../../../src/strategy/define-strategy.ts';
import { loadStrategy } from '../../../src/strategy/load-strategy.ts';
import { StrategyHost } from '../../../src/strategy/strategy-host.ts';
import { systemTimer, type StartTimer } from '../../../src/clock/timers.ts';
import { manualTimer, settle } from '../../helpers/manual-timer.ts';
import { testMarket } from '../../helpers/markets.ts';
import { ROOT, snapshotOf } from '../../helpers/strategy-harness.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}

function host(strategy: ReturnType<typeof defineStrategy>, log = capture().log) {
  return new StrategyHost({
    strategy,
    name: strategy.name,
    params: {},
    symbols: ['ETH-USD'],
    now: () => 0,
    log,
    store: { get: () => undefined, set: () => undefined },
    positionOf: () => 0n,
    openOrders: () => [],
    maxConsecutiveFailures: 3,
  });
}

describe('StrategyHost', () => {
  it('pauses a strategy after repeated failures while logging each', async () => {
    let calls = 0;
    const { log, lines } = capture();
    const h = host(
      defineStrategy({
        name: 'boom',
        onSnapshot: () => {
          calls++;
          throw new Error('kaput');
        },
      }),
      log,
    );
    for (let seq = 1; seq <= 5; seq++)
      expect(await h.onSnapshot(snapshotOf(seq, [testMarket()]))).toEqual([]);
    expect(calls).toBe(3);
    expect(h.paused).toBe(true);
    expect(lines.filter((l) => l.includes('threw in onSnapshot'))).toHaveLength(3);
    expect(lines.some((l) => l.includes('paused after 3 failures'))).toBe(true);
  });

  it('resets the failure count after a success', async () => {
    let seqSeen = 0;
    const h = host(
      defineStrategy({
        name: 'flaky',
        onSnapshot: (s) => {
          seqSeen = s.seq;
          if (s.seq % 2 === 0) throw new Error('x');
          return [];
        },
      }),
    );
    for (let seq = 1; seq <= 8; seq++) await h.onSnapshot(snapshotOf(seq, [testMarket()]));
    expect(seqSeen).toBe(8);
    expect(h.paused).toBe(false);
  });

  it('drops malformed intents with a logged reason and keeps the valid ones', async () => {
    const { log, lines } = capture();
    const h = host(
      defineStrategy({
        name: 'sloppy',
        onSnapshot: () => [
          { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.1' },
          { marketId: 1, side: 'BUY', type: 'MARKET', amount: 0.1 as unknown as string },
        ],
      }),
      log,
    );
    expect(await h.onSnapshot(snapshotOf(1, [testMarket()]))).toEqual([
      { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.1' },
    ]);
    expect(
      lines.some(
        (l) => l.includes('INVALID_INTENT') && l.includes('amount: expected a decimal string'),
      ),
    ).toBe(true);
  });

  it('the loader refuses a module without a strategy default export', async () => {
    await expect(loadStrategy('src/log/logger.ts', [ROOT])).rejects.toThrow(
      'has no strategy as default export',
    );
    await expect(loadStrategy('strategies/nope.ts', [ROOT])).rejects.toThrow(
      'strategy module strategies/nope.ts not found',
    );
  });
});

describe('StrategyHost deadline (strategies[].timeoutMs)', () => {
  function timedHost(
    onSnapshot: NonNullable<Parameters<typeof defineStrategy>[0]['onSnapshot']>,
    startTimer: StartTimer,
    log = capture().log,
    timeoutMs = 250,
  ) {
    return new StrategyHost({
      strategy: defineStrategy({ name: 'slow', onSnapshot }),
      name: 'slow',
      params: {},
      symbols: ['ETH-USD'],
      now: () => 0,
      log,
      store: { get: () => undefined, set: () => undefined },
      positionOf: () => 0n,
      openOrders: () => [],
      timeoutMs,
      startTimer,
    });
  }
  const snap = (seq: number) => snapshotOf(seq, [testMarket()]);

  it('abandons a snapshot that is not answered in time, is not called again while hung, pauses after 3', async () => {
    const timer = manualTimer();
    const { log, lines } = capture();
    let calls = 0;
    const h = timedHost(
      () => {
        calls++;
        return new Promise<never>(() => undefined);
      },
      timer.start,
      log,
    );
    const first = h.onSnapshot(snap(1));
    await settle();
    expect(timer.armed()).toEqual([250]);
    timer.fireAll();
    expect(await first).toEqual([]);
    expect(h.timeouts).toBe(1);
    expect(h.paused).toBe(false);
    // Still pending: skipped without calling the strategy (nor arming a timer), counted.
    expect(await h.onSnapshot(snap(2))).toEqual([]);
    expect(await h.onSnapshot(snap(3))).toEqual([]);
    expect(timer.armed()).toEqual([]);
    expect(calls).toBe(1);
    expect(h.timeouts).toBe(3);
    expect(h.paused).toBe(true);
    expect(lines.filter((l) => l.includes('did not answer snapshot 1 within 250 ms'))).toHaveLength(
      1,
    );
    expect(lines.filter((l) => l.includes('"level":40'))).toHaveLength(1);
    expect(lines.some((l) => l.includes('paused after 3 timeouts in a row'))).toBe(true);
  });

  it('discards a late answer, then asks again; an answer in time resets the count', async () => {
    const timer = manualTimer();
    const { log, lines } = capture();
    const answers: ((intents: []) => void)[] = [];
    const h = timedHost(
      () => new Promise<[]>((resolve) => answers.push(resolve)),
      timer.start,
      log,
    );
    for (let seq = 1; seq <= 6; seq++) {
      const pending = h.onSnapshot(snap(seq));
      await settle();
      if (seq % 2 === 1) {
        timer.fireAll(); // odd snapshots time out ...
        await pending;
        answers.shift()?.([]); // ... and their answer comes after the deadline
        await settle();
      } else {
        answers.shift()?.([]);
        await pending;
      }
    }
    expect(answers).toHaveLength(0);
    expect(h.timeouts).toBe(3);
    expect(h.paused).toBe(false);
    expect(lines.filter((l) => l.includes('after its deadline; answer discarded'))).toHaveLength(3);
  });

  it('arms no timer for an array returned at once', async () => {
    const timer = manualTimer();
    const h = timedHost(() => [], timer.start);
    await h.onSnapshot(snap(1));
    expect(timer.armed()).toEqual([]);
  });

  it('never times out a strategy that settles without waiting for I/O, however slow (backtests stay deterministic)', async () => {
    const h = timedHost(
      async () => {
        await Promise.resolve();
        // 20 ms of work on a 1 ms real deadline: the timer cannot fire before this settles.
        const end = Date.now() + 20;
        while (Date.now() < end);
        return [{ marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.1' }];
      },
      systemTimer,
      capture().log,
      1,
    );
    expect(await h.onSnapshot(snap(1))).toHaveLength(1);
    expect(h.timeouts).toBe(0);
  });

  it('a rejection after the deadline is neither unhandled nor counted as a failure', async () => {
    const timer = manualTimer();
    let reject: (error: Error) => void = () => undefined;
    const h = timedHost(
      () =>
        new Promise<never>((_, fail) => {
          reject = fail;
        }),
      timer.start,
    );
    const pending = h.onSnapshot(snap(1));
    await settle();
    timer.fireAll();
    await pending;
    reject(new Error('too late'));
    await settle();
    expect(h.timeouts).toBe(1);
    expect(h.paused).toBe(false);
  });
});
