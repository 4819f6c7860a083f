// A backtest lets go of each snapshot once replayed (run-backtest.ts: held to the end of their
// batch, the levels a strategy read were pretenured by V8); snapshots handed in by the caller
// must come out as they went in, twice over.
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { testMarket } from '../../helpers/markets.ts';
import { buyHoldConfig, quoteAt, ROOT } from '../../helpers/strategy-harness.ts';

const T0 = Date.parse('2026-03-02T10:00:00Z');

function snapshots(): Snapshot[] {
  const eth = testMarket();
  return Array.from({ length: 6 }, (_, i) =>
    createSnapshot({
      seq: i + 1,
      takenAt: T0 + i * 1000,
      markets: [eth],
      quotes: [{ ...quoteAt(1, '2999', '3000'), timestamp: T0 + i * 1000 }],
    }),
  );
}

describe('a backtest of snapshots the caller holds', () => {
  it('leaves the caller its array, so a second backtest of it replays them all', async () => {
    const config = buyHoldConfig(2, 'given-snapshots.yaml');
    const given = snapshots();
    const copy = [...given];
    const run = () =>
      runBacktest({ config, data: 'recorded', snapshots: given, projectRoot: ROOT });
    const first = await run();
    expect(given).toEqual(copy);
    const second = await run();
    expect(first.snapshots).toBe(6);
    expect(second.snapshots).toBe(6);
    expect(second.orders.length).toBe(first.orders.length);
  });
});
