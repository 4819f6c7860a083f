import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeDrawdown } from '../../../src/backtest/drawdown.ts';
import { PnlAccumulator } from '../../../src/backtest/online-metrics.ts';
import { computeRiskRatios, periodsPerYear } from '../../../src/backtest/risk-ratios.ts';
import { SampleKeeper } from '../../../src/backtest/sample-keeper.ts';
import type { Sample } from '../../../src/backtest/trace.ts';

const START = 100_000n * 10n ** 18n;

function point(net: bigint) {
  return {
    realizedPnlX18: 0n,
    feesX18: 0n,
    turnoverX18: 0n,
    unrealizedPnlX18: net,
    netPnlX18: net,
    grossNotionalX18: 0n,
    inMarket: net !== 0n,
  };
}

describe('PnlAccumulator: the whole-series figures, one sample at a time', () => {
  it('gives exactly computeDrawdown and computeRiskRatios of the series, flat samples first', () => {
    const perYear = periodsPerYear(1000);
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: -START - 10n ** 20n, max: START }), { maxLength: 60 }),
        fc.nat({ max: 5 }),
        (nets, flat) => {
          const acc = new PnlAccumulator(START, flat);
          for (const net of nets) acc.push(point(net));
          const equity = [...new Array<bigint>(flat).fill(START), ...nets.map((n) => START + n)];
          const drawdown = computeDrawdown(equity, START);
          expect(acc.maxDrawdownX18).toBe(drawdown.maxX18);
          expect([acc.drawdownNumerator, acc.drawdownDenominator]).toEqual([
            drawdown.maxFraction.numerator,
            drawdown.maxFraction.denominator,
          ]);
          expect(acc.ratios(perYear)).toEqual(computeRiskRatios(equity, START, perYear));
          expect(acc.samples).toBe(equity.length);
          expect(acc.inMarketSamples).toBe(nets.filter((n) => n !== 0n).length);
        },
      ),
      { numRuns: 300 },
    );
  });
});

function sample(index: number): Sample {
  return { seq: index + 1, t: index * 1000, markets: [], byStrategy: [], tops: [] };
}

describe('SampleKeeper', () => {
  it('keeps every sample up to its size, in order', () => {
    const keeper = new SampleKeeper(10);
    for (let i = 0; i < 10; i++)
      keeper.offer(BigInt(i % 3), 0n, false, () => ({ sample: sample(i), plots: [] }));
    expect(keeper.result().samples.map((s) => s.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('stays bounded and keeps the extremes, the deepest drawdown, the pinned and the last', () => {
    const keeper = new SampleKeeper(8);
    let built = 0;
    const n = 10_000;
    const equityAt = (i: number): bigint => BigInt(Math.round(1000 * Math.sin(i / 37)));
    for (let i = 0; i < n; i++) {
      const equity = i === 4321 ? -5000n : i === 777 ? 9000n : equityAt(i);
      const drawdown = i === 6000 ? 123_456n : 0n;
      keeper.offer(equity, drawdown, i === 0 || i === 5555, () => {
        built += 1;
        return {
          sample: sample(i),
          plots: [{ strategy: 's', name: 'p', value: String(i), t: i * 1000 }],
        };
      });
    }
    const { samples, plots } = keeper.result();
    const seqs = samples.map((s) => s.seq - 1);
    expect(samples.length).toBeLessThanOrEqual(3 * 8 + 3);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    for (const i of [0, 777, 4321, 5555, 6000, n - 1]) expect(seqs).toContain(i);
    // Plot points go with their samples, and far fewer samples were built than offered.
    expect(plots.map((p) => Number(p.value))).toEqual(seqs);
    expect(built).toBeLessThan(n / 4);
  });

  it('gives the kept samples of every index once, in order, with their plots', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -50, max: 50 }), fc.nat({ max: 30 }), fc.boolean()), {
          maxLength: 400,
        }),
        fc.integer({ min: 2, max: 6 }),
        (offers, size) => {
          const keeper = new SampleKeeper(size);
          const made = new Set<number>();
          offers.forEach(([equity, drawdown, pin], i) =>
            keeper.offer(BigInt(equity), BigInt(drawdown), pin, () => {
              made.add(i);
              return {
                sample: sample(i),
                plots: i % 3 === 0 ? [] : [{ strategy: 's', name: 'p', value: String(i), t: i }],
              };
            }),
          );
          const { samples, plots } = keeper.result();
          const seqs = samples.map((s) => s.seq - 1);
          // Strictly increasing: in order, none twice; each one made by its own offer.
          seqs.forEach((seq, k) =>
            expect(seq).toBeGreaterThan(k === 0 ? -1 : (seqs[k - 1] as number)),
          );
          for (const seq of seqs) expect(made.has(seq)).toBe(true);
          for (const [i, [, , pin]] of offers.entries()) if (pin) expect(seqs).toContain(i);
          if (offers.length > 0) expect(seqs.at(-1)).toBe(offers.length - 1);
          expect(plots.map((p) => Number(p.value))).toEqual(seqs.filter((seq) => seq % 3 !== 0));
        },
      ),
      { numRuns: 300 },
    );
  });
});
