import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import type { BacktestTrace } from '../../../src/backtest/trace.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { buildBenchData, writeConfig, type BenchData } from '../../bench/backtest-data.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

/**
 * The shipped mean-reversion computes in exact x18 bigints; it was written with decimal.js
 * (kept as test/fixtures/strategies/mean-reversion-decimal.ts). Both must decide the same:
 * the same intents, orders and plotted means, snapshot for snapshot.
 */
const SHIPPED = 'strategies/mean-reversion.ts';
const DECIMAL = 'test/fixtures/strategies/mean-reversion-decimal.ts';

let data: BenchData | undefined;
afterAll(() => {
  if (data !== undefined) rmSync(data.dir, { recursive: true, force: true });
});

function decisions(trace: BacktestTrace) {
  return {
    intents: trace.intents,
    orders: trace.orders.map(({ createdAt, marketId, side, amountX18, tag }) => ({
      createdAt,
      marketId,
      side,
      amountX18,
      tag,
    })),
    plots: trace.plots,
  };
}

describe('mean-reversion in x18 decides exactly as with decimal.js', () => {
  const paramSets: Record<string, unknown>[] = [
    {},
    { window: 7, entryZ: 1.3, exitZ: 0.2, orderAmount: '0.02', maxPosition: '0.06' },
    { window: 3, entryZ: 1.1, exitZ: 0, orderAmount: '0.5', maxPosition: '1' },
  ];
  it.each(paramSets.map((params, i) => [i, params] as const))(
    'on a random-walk recording, params set %i',
    async (_i, params) => {
      data ??= await buildBenchData({ markets: 3, snapshots: 1500, depth: 2, plain: false });
      const bench = data;
      const run = async (module: string) => {
        const name = module === SHIPPED ? 'shipped' : 'decimal';
        const path = writeConfig(bench.dir, name, module, ['M1-USD', 'M2-USD', 'M3-USD'], params);
        return runBacktest({ config: await loadConfig(path), data: bench.ours, projectRoot: ROOT });
      };
      const shipped = decisions(await run(SHIPPED));
      const reference = decisions(await run(DECIMAL));
      expect(shipped.intents.length).toBeGreaterThan(20);
      expect(shipped).toEqual(reference);
    },
    60_000,
  );

  it('on the fixture recording', async () => {
    const config = await loadConfig(join(ROOT, 'test/fixtures/configs/mean-reversion.yaml'));
    const withModule = (module: string) => ({
      ...config,
      strategies: config.strategies.map((s) => ({ ...s, module: join(ROOT, module) })),
    });
    const recording = join(ROOT, 'test/fixtures/recording');
    const shipped = await runBacktest({
      config: withModule(SHIPPED),
      data: recording,
      projectRoot: ROOT,
    });
    const reference = await runBacktest({
      config: withModule(DECIMAL),
      data: recording,
      projectRoot: ROOT,
    });
    expect(shipped.orders.length).toBeGreaterThan(0);
    expect(decisions(shipped)).toEqual(decisions(reference));
  }, 60_000);
});
