/**
 * A backtest with one strategy instance keeps its samples' `byStrategy` as an accessor, not a
 * list of its own (measurements.ts, `soleSample`): each sample must still read, spread, print and
 * compare exactly as the plain sample it replaced, `{ seq, t, markets, byStrategy, tops }` with
 * the instance's name over the sample's own markets (none while it holds no market).
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Sample } from '../../../src/backtest/trace.ts';
import { runBacktest } from '../../../src/backtest/run-backtest.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';

/** The sample as the list-holding code built it. */
function plain(sample: Sample, strategy: string): Sample {
  return {
    seq: sample.seq,
    t: sample.t,
    markets: sample.markets,
    byStrategy: sample.markets.length === 0 ? [] : [{ strategy, markets: sample.markets }],
    tops: sample.tops,
  };
}

/** JSON with bigints written out (JSON.stringify refuses them). */
const text = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

it('a sole instance’s samples read, spread, print and compare as plain samples', async () => {
  const config = await loadConfig(join(ROOT, 'test/fixtures/configs/mean-reversion.yaml'));
  const trace = await runBacktest({
    config,
    data: join(ROOT, 'test/fixtures/recording'),
    projectRoot: ROOT,
  });
  const [strategy] = trace.strategies;
  expect(trace.strategies).toHaveLength(1);
  const held = trace.samples.filter((sample) => sample.markets.length > 0);
  expect(held.length).toBeGreaterThan(0);
  expect(held.length).toBeLessThan(trace.samples.length);
  for (const sample of trace.samples) {
    const expected = plain(sample, strategy as string);
    expect(Object.keys(sample)).toEqual(['seq', 't', 'markets', 'byStrategy', 'tops']);
    expect(text(sample)).toBe(text(expected));
    expect({ ...sample }).toStrictEqual(expected);
    expect(sample).toEqual(expected);
    expect(sample.byStrategy[0]?.markets).toBe(expected.byStrategy[0]?.markets);
  }
});
