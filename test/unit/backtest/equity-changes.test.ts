import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EquityChanges } from '../../../src/backtest/equity-changes.ts';
import { ReturnsAccumulator } from '../../../src/backtest/online-metrics.ts';

const START = 100_000n * 10n ** 18n;

describe('EquityChanges: every change exactly, 8 bytes each', () => {
  it('gives back each [previous, value] pair, across chunks and with differences beyond 64 bits', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }),
            // Beyond an int64 either way, and its two edges.
            fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
            fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 2n ** 63n, -(2n ** 63n) - 1n),
          ),
          { maxLength: 50 },
        ),
        (differences) => {
          const changes = new EquityChanges(START);
          const expected: [bigint, bigint][] = [];
          let last = START;
          for (const difference of differences) {
            if (difference === 0n) continue;
            expected.push([last, last + difference]);
            last += difference;
            changes.push(last);
          }
          expect(changes.length).toBe(expected.length);
          expect([...changes]).toEqual(expected);
        },
      ),
    );
  });

  it('holds more than one chunk of changes', () => {
    const changes = new EquityChanges(0n);
    for (let i = 1; i <= 10_000; i++) changes.push(BigInt(i) * (i % 3 === 0 ? 10n ** 25n : 1n));
    const pairs = [...changes];
    expect(pairs).toHaveLength(10_000);
    expect(pairs[4096]).toEqual([4096n, 4097n]);
    expect(pairs[9998]).toEqual([9998n, 9999n * 10n ** 25n]);
    expect(pairs[9999]).toEqual([9999n * 10n ** 25n, 10_000n]);
  });

  it('gives back chunks kept narrow (small multiples of a power of ten) and wide ones exactly', () => {
    // One chunk each: int8 × 10^14, int16 × 7, int32, 64 bits, beyond 64 bits, int8 × 1.
    const chunks: ((i: number) => bigint)[] = [
      (i) => BigInt((i % 255) - 127) * 10n ** 14n,
      (i) => BigInt((i % 60_001) - 30_000) * 7n,
      (i) => (i % 2 === 0 ? 2n ** 31n - 1n : -(2n ** 31n) + BigInt(i)),
      (i) => 2n ** 40n + BigInt(i),
      (i) => -(10n ** 30n) - BigInt(i),
      (i) => BigInt((i % 200) - 100),
    ];
    const differences: bigint[] = [];
    for (const make of chunks)
      for (let i = 0; i < 4096; i++) differences.push(make(i) === 0n ? 1n : make(i));
    const changes = new EquityChanges(START);
    let last = START;
    const expected: [bigint, bigint][] = [];
    for (const difference of differences) {
      expected.push([last, last + difference]);
      last += difference;
      changes.push(last);
    }
    expect([...changes]).toEqual(expected);
  });
});

describe('ReturnsAccumulator', () => {
  it('keeps the nonzero changes as pairs and counts the zero ones', () => {
    const returns = new ReturnsAccumulator(START);
    for (const [i, equity] of [START, START + 5n, START + 5n, START - 7n, START].entries())
      returns.push(equity, i * 1000);
    expect(returns.zero).toBe(2);
    expect([...returns.changes]).toEqual([
      [START, START + 5n],
      [START + 5n, START - 7n],
      [START - 7n, START],
    ]);
  });
});
