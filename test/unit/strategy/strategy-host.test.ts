import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { defineStrategy } from '../../../src/strategy/define-strategy.ts';
import { loadStrategy } from '../../../src/strategy/load-strategy.ts';
import { StrategyHost } from '../../../src/strategy/strategy-host.ts';
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
