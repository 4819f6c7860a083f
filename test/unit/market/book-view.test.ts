import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bestAsk, bestBid, levelNumbers } from 'quanta';
import type { Quote, QuoteLevel } from '../../../src/domain/index.ts';
import { formatTicks, priceText } from '../../../src/market/recording/price-ticks.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { testMarket } from '../../helpers/markets.ts';
import { readSnapshots, recordSnapshots } from '../../helpers/recordings.ts';

const T0 = Date.parse('2026-01-05T09:30:00Z');

/** Books that exercise every way a side is written: ticks and literals, moves, `=`, blocks. */
function books(count: number): Snapshot[] {
  const eth = testMarket({ id: 1, priceExpo: 2 });
  const btc = testMarket({ id: 2, symbol: 'BTC-USD', baseAsset: 'BTC', priceExpo: 1 });
  let seed = 7;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const odd = ['1.50', '007', '0', '0.000000000000001', '12345678901234567', '3'];
  return Array.from({ length: count }, (_, i) => {
    const mid = 300_000 + Math.round(40 * Math.sin(i / 5));
    const sizes = i % 4 === 0 ? 'same' : 'fresh';
    const side = (from: number, step: number, grid: number): QuoteLevel[] =>
      Array.from({ length: 1 + (i % 5 === 3 ? 0 : 4) }, (_, k) => ({
        price:
          k === 1 && i % 7 === 2
            ? `${formatTicks(from + step * k, grid)}5`
            : formatTicks(from + step * k, grid),
        quantity:
          sizes === 'same'
            ? `${k + 1}.25`
            : i % 9 === 4
              ? (odd[k] as string)
              : formatTicks(1 + Math.floor(random() * 90_000), 3),
      }));
    const quotes: Quote[] = [
      {
        marketId: 1,
        timestamp: T0 + i * 1000 - 3,
        bids: i % 11 === 6 ? [] : side(mid - 5, -5, 2),
        asks: side(mid + 5, 5, 2),
      },
      { marketId: 2, timestamp: T0 + i * 1000, bids: side(mid, -1, 1), asks: side(mid + 1, 1, 1) },
    ];
    return createSnapshot({ seq: i + 1, takenAt: T0 + i * 1000, markets: [eth, btc], quotes });
  });
}

describe('the book views of a recorded quote', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('give the first level and the numbers of its levels, every format, read in any order', async () => {
    const snapshots = books(90);
    for (const version of [1, 2, 3, 4, 5] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'quanta-book-view-'));
      dirs.push(dir);
      const file = await recordSnapshots(
        { path: join(dir, 'rec.jsonl'), version, keyframeEverySnapshots: 16 },
        snapshots,
      );
      const read = await readSnapshots(file, () => undefined);
      expect(read).toHaveLength(snapshots.length);
      // The best levels first, backwards (from the tops alone), then the numbers, then forwards.
      const order = [...read.keys()].reverse().concat([...read.keys()]);
      for (const [pass, i] of order.entries()) {
        for (const marketId of [1, 2]) {
          const quote = read[i]?.quotes?.get(marketId);
          const original = snapshots[i]?.quotes?.get(marketId) as Quote;
          const where = `version ${version}, snapshot ${i}, market ${marketId}, pass ${pass}`;
          expect(bestBid(quote), where).toEqual(original.bids[0]);
          expect(bestAsk(quote), where).toEqual(original.asks[0]);
          for (const side of ['bids', 'asks'] as const) {
            const into = new Float64Array(2 * 8);
            const count = levelNumbers(quote, side, into);
            const expected = original[side].flatMap((l) => [Number(l.price), Number(l.quantity)]);
            expect(count, where).toBe(original[side].length);
            expect([...into.subarray(0, 2 * count)], where).toEqual(expected);
          }
          expect(quote?.bids, where).toEqual(original.bids);
        }
      }
    }
  });

  it('write only the levels that fit, and nothing for no quote', () => {
    const quote: Quote = {
      marketId: 1,
      timestamp: 0,
      bids: [
        { price: '100.5', quantity: '2' },
        { price: '100', quantity: '0.25' },
      ],
      asks: [],
    };
    const into = new Float64Array(3);
    expect(levelNumbers(quote, 'bids', into)).toBe(1);
    expect([...into]).toEqual([100.5, 2, 0]);
    expect(levelNumbers(quote, 'asks', into)).toBe(0);
    expect(levelNumbers(undefined, 'bids', into)).toBe(0);
    expect(bestBid(quote)).toEqual({ price: '100.5', quantity: '2' });
    expect(bestAsk(quote)).toBeUndefined();
    expect(bestBid(undefined)).toBeUndefined();
  });
});

describe('formatTicks', () => {
  /** The digits written out one by one: what the table and the cache must give. */
  function slow(ticks: number, expo: number): string {
    const digits = String(ticks).padStart(expo + 1, '0');
    const whole = digits.slice(0, digits.length - expo);
    const fraction = digits.slice(digits.length - expo).replace(/0+$/, '');
    return fraction === '' ? whole : `${whole}.${fraction}`;
  }

  it('gives the canonical decimal of ticks on every grid', () => {
    for (let expo = 0; expo <= 15; expo++) {
      for (let i = 0; i < 3000; i++) {
        const ticks = i < 1500 ? i * 7 : Math.floor(((i * 7919) % 1000) * 2 ** (i % 40)) + i;
        expect(formatTicks(ticks, expo), `${ticks} at 10^-${expo}`).toBe(slow(ticks, expo));
      }
    }
  });

  it('gives the same texts through the price table, ticks sharing a slot or not, read again', () => {
    // Ticks 4096 apart share a slot of priceText's table: each must get its own text back.
    for (let expo = 0; expo <= 15; expo++) {
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 1500; i++) {
          const ticks =
            i % 3 === 0 ? i * 4096 : Math.floor(((i * 7919) % 1000) * 2 ** (i % 40)) + i;
          expect(priceText(ticks, expo), `${ticks} at 10^-${expo}`).toBe(slow(ticks, expo));
        }
      }
    }
  });
});
