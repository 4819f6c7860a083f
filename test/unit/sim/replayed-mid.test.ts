import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { QUOTE_LEVELS_X18, type Quote, type QuoteLevel } from '../../../src/domain/index.ts';
import { readRecording, RecordingWriter } from '../../../src/market/recording/index.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { parseDecimalToX18 } from '../../../src/money/index.ts';
import {
  replayedBookOf,
  replayedMidOf,
  replayLazily,
  replayParsed,
} from '../../../src/sim/replayed-book.ts';
import { testMarket } from '../../helpers/markets.ts';

/** A quote that hands its levels over as x18 as a recorded quote does (parsed from its strings). */
class X18Quote implements Quote {
  constructor(
    readonly marketId: number,
    readonly timestamp: number,
    readonly bids: QuoteLevel[],
    readonly asks: QuoteLevel[],
  ) {}

  [QUOTE_LEVELS_X18](side: 'bids' | 'asks'): readonly bigint[] | undefined {
    try {
      return this[side].flatMap((l) => [parseDecimalToX18(l.price), parseDecimalToX18(l.quantity)]);
    } catch {
      return undefined;
    }
  }
}

const decimal = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.integer({ min: 0, max: 18 }))
  .map(([units, digits]) => {
    const text = units.toString().padStart(digits + 1, '0');
    return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  });
const level = fc.record({ price: decimal, quantity: decimal });
// Levels in any order (a recording keeps them as the venue sent them), repeated prices, empty sides.
const side = fc.array(level, { maxLength: 12 });

describe('replayedMidOf: the mid of a replayed quote without its book', () => {
  it('is exactly the mid of the book made of the quote, on random books in any level order', () => {
    fc.assert(
      fc.property(side, side, fc.boolean(), (bids, asks, x18) => {
        const quote = x18
          ? new X18Quote(1, 0, bids, asks)
          : { marketId: 1, timestamp: 0, bids, asks };
        const expected = replayParsed(quote).midX18;
        expect(replayedMidOf(replayLazily(null, quote))).toBe(expected);
        // Read after an order met the book, and read twice: the same.
        const met = replayLazily(null, quote);
        replayedBookOf(met).asks.forEach((l) => (l.remainingX18 = 0n));
        expect(replayedMidOf(met)).toBe(expected);
        expect(replayedMidOf(met)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('follows the quote a kept replayed book is given next', () => {
    const first = new X18Quote(
      1,
      0,
      [{ price: '10', quantity: '1' }],
      [{ price: '12', quantity: '1' }],
    );
    const second = new X18Quote(1, 1, [{ price: '20', quantity: '1' }], []);
    const kept = replayLazily(null, first);
    expect(replayedMidOf(kept)).toBe(parseDecimalToX18('11'));
    expect(replayedMidOf(replayLazily(kept, second))).toBeUndefined();
  });

  it('names a malformed level as the book does', () => {
    const quote = new X18Quote(
      7,
      0,
      [{ price: '1', quantity: '1' }],
      [{ price: '1e3', quantity: '1' }],
    );
    expect(() => replayedMidOf(replayLazily(null, quote))).toThrow('quote 7 asks[0].price');
  });

  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('agrees with the book on recorded quotes whose levels are out of order', async () => {
    const market = testMarket({ id: 1, priceExpo: 2 });
    const T0 = Date.parse('2026-01-05T09:30:00Z');
    const shuffled = (from: number, step: number, i: number): QuoteLevel[] =>
      [3, 0, 4, 1, 2].map((k) => ({
        price: String((from + step * ((k + i) % 5)) / 100),
        quantity: `${k + 1}.5`,
      }));
    const snapshots: Snapshot[] = Array.from({ length: 40 }, (_, i) =>
      createSnapshot({
        seq: i + 1,
        takenAt: T0 + i * 1000,
        markets: [market],
        quotes: [
          {
            marketId: 1,
            timestamp: T0 + i * 1000,
            bids: i % 11 === 4 ? [] : shuffled(300_000 - i, -5, i),
            // Another order than the bids': the first levels' offsets do not cancel out.
            asks: shuffled(300_010 + i, 5, 2 * i + 1),
          },
        ],
      }),
    );
    const dir = mkdtempSync(join(tmpdir(), 'quanta-replayed-mid-'));
    dirs.push(dir);
    const writer = await RecordingWriter.open({
      path: join(dir, 'rec.jsonl'),
      now: () => T0,
      source: 'test',
    });
    for (const snapshot of snapshots) writer.write(snapshot);
    await writer.close();
    let read = 0;
    for await (const snapshot of readRecording(writer.files[0] as string)) {
      const quote = snapshot.quotes?.get(1) as Quote;
      const original = snapshots[read]?.quotes?.get(1) as Quote;
      expect(replayedMidOf(replayLazily(null, quote))).toBe(replayParsed(original).midX18);
      read += 1;
    }
    expect(read).toBe(40);
  });
});
