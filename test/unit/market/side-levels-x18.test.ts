import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quoteLevelsX18, type Quote, type QuoteLevel } from '../../../src/domain/index.ts';
import { readRecording, RecordingWriter } from '../../../src/market/recording/index.ts';
import { applySideDelta } from '../../../src/market/recording/side-delta.ts';
import { tickX18 } from '../../../src/market/recording/side-levels.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { parseDecimalToX18 } from '../../../src/money/index.ts';
import { testMarket } from '../../helpers/markets.ts';

/** What the levels' strings parse to, flattened; undefined when one of them does not parse. */
function parsed(levels: readonly QuoteLevel[]): bigint[] | undefined {
  try {
    return levels.flatMap((l) => [parseDecimalToX18(l.price), parseDecimalToX18(l.quantity)]);
  } catch {
    return undefined;
  }
}

describe('SideLevels.levelsX18', () => {
  it('gives exactly what parsing its levels gives, or nothing where a level does not parse', () => {
    const quantities = [
      '0',
      '7',
      '007',
      '0.5',
      '1.25',
      '123456789012345',
      '12345678901.2345',
      '1234567890123456',
      '0.000000000000001',
      '0.123456789012345678',
      '0.1234567890123456789',
      '99999999999999999999.5',
      '1.',
      '.5',
      '1.2.3',
      '-1',
      '1e3',
      'x',
    ];
    for (const expo of [0, 2, 8, 15, 16, 18]) {
      for (const quantity of quantities) {
        for (const price of ['0', '12345', '1099511627776', '1099511627777', '@2999.125', '@1e3']) {
          const side = applySideDelta(`${price} ${quantity} 1 2`, undefined, expo);
          const expected = parsed(side.levels());
          expect(side.levelsX18(), `${price} ${quantity} at 10^-${expo}`).toEqual(expected);
        }
      }
    }
  });
});

describe('SideLevels.topX18', () => {
  /** The highest or lowest price of flattened x18 levels. */
  const best = (x18: readonly bigint[], highest: boolean): bigint | undefined => {
    const prices = x18.filter((_, i) => i % 2 === 0);
    if (prices.length === 0) return undefined;
    return prices.reduce((a, b) => (highest ? (b > a ? b : a) : b < a ? b : a));
  };

  it('is the best price of levelsX18 in any level order, or null where that parses a text', () => {
    const sides = [
      '',
      '5 1 3 2 9 1',
      '12345 7 12344 0.5 12346 1.25 7 2',
      '0 1 0 2',
      '1099511627776 1 5 1',
      '1099511627770 1 7 1',
      '5 1 @2999.125 1',
      '@2.5 1 3 1',
      '5 1e3 2 1',
      '5 1 2 1234567890123456',
    ];
    let fast = 0;
    for (const expo of [0, 2, 8, 15, 16]) {
      for (const raw of sides) {
        const side = applySideDelta(raw, undefined, expo);
        const x18 = side.levelsX18();
        for (const highest of [true, false]) {
          const top = side.topX18(highest);
          if (top === null) continue;
          fast += 1;
          expect(x18, `${raw} at 10^-${expo}`).toBeDefined();
          expect(top, `${raw} at 10^-${expo}`).toBe(best(x18 ?? [], highest));
        }
      }
    }
    // The plain sides (ticks and units) on grids up to 10^-15 answer by their ticks.
    expect(fast).toBeGreaterThanOrEqual(4 * 6 * 2);
  });
});

describe('a recorded quote hands its levels over as x18', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('agrees with its levels for every quote, side and format, read in any order', async () => {
    const eth = testMarket({ id: 1, priceExpo: 2 });
    const T0 = Date.parse('2026-01-05T09:30:00Z');
    const snapshots: Snapshot[] = Array.from({ length: 60 }, (_, i) => {
      const mid = 300_000 + Math.round(30 * Math.sin(i / 4));
      const side = (from: number, step: number): QuoteLevel[] =>
        Array.from({ length: 5 }, (_, k) => ({
          price:
            k === 2 && i % 6 === 1
              ? `${(from + step * k) / 100}5`
              : String((from + step * k) / 100),
          quantity: k === 0 ? `0.${(i % 9) + 1}` : '1.5',
        }));
      const quote: Quote = {
        marketId: 1,
        timestamp: T0 + i * 1000,
        bids: i % 13 === 5 ? [] : side(mid - 5, -5),
        asks: side(mid + 5, 5),
      };
      return createSnapshot({
        seq: i + 1,
        takenAt: T0 + i * 1000,
        markets: [eth],
        quotes: [quote],
      });
    });
    for (const version of [1, 2, 3] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'quanta-levels-x18-'));
      dirs.push(dir);
      const writer = await RecordingWriter.open({
        path: join(dir, 'rec.jsonl'),
        now: () => T0,
        source: 'test',
        version,
        keyframeEverySnapshots: 16,
      });
      for (const snapshot of snapshots) {
        writer.write(snapshot);
        await writer.drained();
      }
      await writer.close();
      const read: Snapshot[] = [];
      for await (const s of readRecording(writer.files[0] as string)) read.push(s);
      // Backwards first (the x18 path applies the deltas it needs), then forwards.
      for (const i of [...read.keys()].reverse().concat([...read.keys()])) {
        const quote = read[i]?.quotes?.get(1) as Quote;
        const original = snapshots[i]?.quotes?.get(1) as Quote;
        for (const s of ['bids', 'asks'] as const) {
          const x18 = quoteLevelsX18(quote, s);
          if (version === 1) expect(x18).toBeUndefined();
          else expect(x18).toEqual(parsed(original[s]));
        }
      }
    }
  });

  it('is undefined for a quote of plain levels', () => {
    const quote: Quote = {
      marketId: 1,
      timestamp: 0,
      bids: [],
      asks: [{ price: '1', quantity: '2' }],
    };
    expect(quoteLevelsX18(quote, 'asks')).toBeUndefined();
  });
});

describe('tickX18', () => {
  it('gives tick × 10^(18 − expo) on every grid, whatever the table kept for the slot before', () => {
    // Ticks 4096 apart share a slot: the second must not get the first one's value, and a tick
    // read again after its slot was taken must get its own value back.
    const ticks = [0, 1, 4095, 4096, 8191, 100_000, 104_096, 2 ** 31 - 1, 2 ** 31, 2 ** 40 + 7];
    for (let expo = 0; expo <= 18; expo++) {
      for (let round = 0; round < 2; round++) {
        for (const tick of ticks) {
          expect(tickX18(tick, expo)).toBe(BigInt(tick) * 10n ** BigInt(18 - expo));
          expect(tickX18(tick + 4096, expo)).toBe(BigInt(tick + 4096) * 10n ** BigInt(18 - expo));
          expect(tickX18(Number.MAX_SAFE_INTEGER - tick, expo)).toBe(
            BigInt(Number.MAX_SAFE_INTEGER - tick) * 10n ** BigInt(18 - expo),
          );
        }
      }
    }
  });
});
