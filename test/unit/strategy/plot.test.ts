import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { defineStrategy } from '../../../src/strategy/define-strategy.ts';
import { StrategyHost } from '../../../src/strategy/strategy-host.ts';
import { testMarket } from '../../helpers/markets.ts';
import { snapshotOf } from '../../helpers/strategy-harness.ts';

describe('ctx.plot', () => {
  it('hands each valid point to onPlot at the host clock, logs it at debug, warns on bad ones', async () => {
    const lines: string[] = [];
    const log = pino(
      { level: 'debug' },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const points: [string, string, number][] = [];
    const strategy = defineStrategy({
      name: 'plotter',
      onSnapshot(_snapshot, ctx) {
        ctx.plot('z', 1.25);
        ctx.plot('band', '3001.5');
        ctx.plot('tiny', 1e-7);
        ctx.plot('', 1);
        ctx.plot('bad', Number.NaN);
        ctx.plot('text', 'abc');
        return [];
      },
    });
    const host = new StrategyHost({
      strategy,
      name: 'plotter#2',
      params: {},
      symbols: ['ETH-USD'],
      now: () => 42,
      log,
      store: { get: () => undefined, set: () => undefined },
      positionOf: () => 0n,
      openOrders: () => [],
      onPlot: (name, value, at) => points.push([name, value, at]),
    });
    await host.onSnapshot(snapshotOf(1, [testMarket()]));
    expect(points).toEqual([
      ['z', '1.25', 42],
      ['band', '3001.5', 42],
      ['tiny', '0.0000001', 42],
    ]);
    expect(lines.filter((l) => l.includes('"msg":"plot"'))).toHaveLength(3);
    expect(lines.filter((l) => l.includes('ctx.plot ignored'))).toHaveLength(3);
  });
});
