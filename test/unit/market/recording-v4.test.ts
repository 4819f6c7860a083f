import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Quote, QuoteLevel } from '../../../src/domain/index.ts';
import { formatTicks } from '../../../src/market/recording/price-ticks.ts';
import {
  decodeQuantityBlock,
  decodeQuantityUnits,
  encodeQuantityBlock,
} from '../../../src/market/recording/quantity-block.ts';
import { BEST_TICK, bestPriceX18 } from '../../../src/market/best-price.ts';
import { tickX18 } from '../../../src/market/recording/side-levels.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { parseDecimalToX18 } from '../../../src/money/index.ts';
import { testMarket } from '../../helpers/markets.ts';
import {
  RECORDING_T0,
  recordingText,
  resealText,
  plainSnapshots as plain,
  readSnapshots as readAll,
  recordSnapshots as record,
} from '../../helpers/recordings.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const T0 = RECORDING_T0;
const tempDir = tempDirs('quanta-recording-v4-');

const eth = testMarket({ id: 1, priceExpo: 2 });
const btc = testMarket({ id: 2, symbol: 'BTC-USD', baseAsset: 'BTC', priceExpo: 1 });

// A deterministic walk (xorshift32), the same on every run.
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

function side(top: number, step: number, quantities: readonly string[]): QuoteLevel[] {
  return quantities.map((quantity, k) => ({ price: formatTicks(top + step * k, 2), quantity }));
}

/** Snapshot `i` (seq i + 1, a second apart) of ETH alone, with these levels. */
function ethBook(i: number, bids: QuoteLevel[], asks: QuoteLevel[]): Snapshot {
  return createSnapshot({
    seq: i + 1,
    takenAt: T0 + i * 1000,
    markets: [eth],
    quotes: [{ marketId: 1, timestamp: T0 + i * 1000, bids, asks }],
  });
}

/**
 * Two markets whose books move by a few ticks and whose every size is drawn afresh each
 * snapshot (2 decimals, or a whole number, or 0.5: the scale of a side varies), now and then a
 * level more or a price off the grid.
 */
function busy(count: number, seed = 7): Snapshot[] {
  const random = randomFrom(seed);
  let mid = 300_000;
  const size = (): string => {
    const roll = random();
    if (roll < 0.1) return String(1 + Math.floor(random() * 9));
    if (roll < 0.15) return '0.5';
    return formatTicks(1 + Math.floor(random() * 50_000), 2);
  };
  return Array.from({ length: count }, (_, i) => {
    mid += Math.round((random() - 0.5) * 20);
    const depth = i % 37 === 36 ? 11 : 10;
    const bids = side(mid - 5, -5, Array.from({ length: depth }, size));
    const asks = side(mid + 5, 5, Array.from({ length: 10 }, size));
    // Now and then a price the grid does not hold exactly (kept literally).
    if (i % 53 === 52) asks[3] = { price: `${asks[3]?.price ?? '1'}5`, quantity: '1' };
    const quotes: Quote[] = [
      { marketId: 1, timestamp: T0 + i * 1000 - 7 - (i % 3), bids, asks },
      {
        marketId: 2,
        timestamp: T0 + i * 1000 - 2,
        bids: [{ price: '100.5', quantity: size() }],
        asks: [],
      },
    ];
    return createSnapshot({
      seq: i + 1,
      takenAt: T0 + i * 1000,
      markets: [eth, btc],
      quotes,
    });
  });
}

function rows(path: string): unknown[][] {
  return recordingText(path)
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => JSON.parse(l) as unknown[]);
}

describe('quantity blocks', () => {
  it('give back exactly the decimals they were made of', () => {
    const random = randomFrom(99);
    for (let round = 0; round < 500; round++) {
      const scale = Math.floor(random() * 9);
      const quantities = Array.from({ length: 1 + Math.floor(random() * 12) }, () =>
        formatTicks(Math.floor(random() * 10 ** (1 + Math.floor(random() * 11))), scale),
      );
      const block = encodeQuantityBlock(quantities);
      expect(block).toBeDefined();
      expect(decodeQuantityBlock(`x ${block as string}`, 2, quantities.length)).toEqual(quantities);
    }
    expect(encodeQuantityBlock(['374.21', '1', '0.5', '0'])).toBe(
      '23' + '98j' + '01a' + '00o' + '000',
    );
  });

  it('refuse what would not read back the same, and say what is wrong with a bad block', () => {
    for (const bad of ['1.50', '-1', '1e3', '.5', '01', '0.0000000000000001', '281474976710656'])
      expect(encodeQuantityBlock(['1', bad])).toBeUndefined();
    expect(decodeQuantityBlock('23abc', 0, 2)).toBe(
      'quantity block: expected 2 quantities of 3 digits, got 3 digits',
    );
    expect(decodeQuantityBlock('29abc', 0, 1)).toMatch(/expected a scale \(0-f\) and a width/);
    expect(decodeQuantityBlock('23a.c', 0, 1)).toBe('[0]: quantity digit "." is not base-64');
  });

  it('read a block as units, and refuse any digit that is not base-64 wherever it stands', () => {
    const nums = new Float64Array(9);
    expect(decodeQuantityUnits('x 23a0G00o', 2, 2, nums, 3)).toBeUndefined();
    // Level i's units at 3 + 3i + 1 (`a0G` = 36·64² + 16, `00o` = 50), the block's scale beside
    // them; the rest untouched.
    expect([...nums]).toEqual([0, 0, 0, 0, 147_472, 2, 0, 50, 2]);
    // `.` has no value; `é` and `Á` are beyond ASCII (233 and 193: `i` and `A` plus 128).
    for (const [block, problem] of [
      ['23a0G.0o', '[1]: quantity digit "." is not base-64'],
      ['23a0G00é', '[1]: quantity digit "é" is not base-64'],
      ['23Á0G00o', '[0]: quantity digit "Á" is not base-64'],
    ] as const)
      expect(decodeQuantityUnits(block, 0, 2, new Float64Array(9), 3)).toBe(problem);
  });
});

describe('recording format version 4', () => {
  it('writes a side whose sizes all changed as one shift and a block, quote times from takenAt, and reads back every snapshot', async () => {
    const snapshots = busy(400);
    // Written by default (version 5 is version 4's lines with check fields).
    const path = await record({ path: join(tempDir(), 'rec.jsonl') }, snapshots);
    expect(
      (JSON.parse(recordingText(path).split('\n')[0] as string) as { version: number }).version,
    ).toBe(5);
    const lines = rows(path).filter((row) => row[0] === 's' || row[0] === 'k');
    const sides = lines.flatMap((row) => (row[4] as unknown[][]).flatMap((q) => [q[2], q[3]]));
    const shifted = sides.filter((s) => typeof s === 'string' && s.startsWith('*'));
    // Most sides of the moving 10-level book; never a first quote, a changed depth or a literal.
    expect(shifted.length).toBeGreaterThan(400);
    for (const s of shifted) expect(s).toMatch(/^\*-?\d+ [0-9a-f][1-8][0-9A-Za-z_-]+$/);
    expect((lines[1]?.[4] as unknown[][])[0]?.[1]).toBe(-8);
    expect(plain(await readAll(path))).toEqual(plain(snapshots));
  });

  it('writes a side that moved with its sizes still as the shift and "="', async () => {
    const snapshots = Array.from({ length: 5 }, (_, i) =>
      ethBook(
        i,
        side(
          300_000 + 7 * i,
          -5,
          Array.from({ length: 10 }, () => '1.5'),
        ),
        side(
          300_010 + 7 * i,
          5,
          Array.from({ length: 10 }, () => '2'),
        ),
      ),
    );
    const path = await record({ path: join(tempDir(), 'rec.jsonl') }, snapshots);
    const quote = (rows(path)[2]?.[4] as unknown[][])[0] as unknown[];
    expect(quote.slice(1)).toEqual([0, '*7 =', '*7 =']);
    expect(plain(await readAll(path))).toEqual(plain(snapshots));
  });

  it('answers best prices from shifted sides as from their levels', async () => {
    const snapshots = busy(300, 11);
    const path = await record(
      { path: join(tempDir(), 'rec.jsonl'), keyframeEverySnapshots: 64 },
      snapshots,
    );
    const read = await readAll(path);
    // Best prices first (the walk over first offsets), then the levels.
    const tops = read.map((s) => [
      bestPriceX18(s.quotes?.get(1), 'bids'),
      bestPriceX18(s.quotes?.get(1), 'asks'),
    ]);
    expect(tops).toEqual(
      snapshots.map((s) => {
        const quote = s.quotes?.get(1) as Quote;
        return [
          parseDecimalToX18(quote.bids[0]?.price as string),
          parseDecimalToX18(quote.asks[0]?.price as string),
        ];
      }),
    );
    expect(plain(read)).toEqual(plain(snapshots));
  });

  it('gives best prices as ticks (BEST_TICK) that make the x18 bestPriceX18 gives', async () => {
    const snapshots = busy(300, 11);
    const path = await record(
      { path: join(tempDir(), 'rec.jsonl'), keyframeEverySnapshots: 64 },
      snapshots,
    );
    const out = new Float64Array(2);
    const ticked = (quote: Quote | undefined, side: 'bids' | 'asks'): bigint | undefined => {
      const method = (quote as unknown as Record<symbol, unknown>)[BEST_TICK] as (
        side: 'bids' | 'asks',
        out: Float64Array,
      ) => boolean;
      return method.call(quote, side, out)
        ? tickX18(out[0] as number, out[1] as number)
        : undefined;
    };
    const read = await readAll(path);
    let ticks = 0;
    // Every third quote's levels read first (the side kept), the others walked from the ticks.
    read.forEach((s, i) => {
      const quote = s.quotes?.get(1);
      if (i % 3 === 0) void quote?.bids;
      for (const side of ['bids', 'asks'] as const) {
        const tick = ticked(quote, side);
        if (tick !== undefined) ticks += 1;
        const expected = snapshots[i]?.quotes?.get(1)?.[side][0]?.price;
        expect(tick ?? bestPriceX18(quote, side)).toBe(
          expected === undefined ? undefined : parseDecimalToX18(expected),
        );
      }
    });
    expect(ticks).toBe(2 * read.length);
  });

  it('reads the version 3 recording of the same snapshots alike, and is smaller gzipped', async () => {
    const snapshots = busy(600, 3);
    const dir = tempDir();
    const v3 = await record({ path: join(dir, 'v3.jsonl'), version: 3 }, snapshots);
    const v4 = await record({ path: join(dir, 'v4.jsonl') }, snapshots);
    expect(plain(await readAll(v3))).toEqual(plain(snapshots));
    expect(plain(await readAll(v4))).toEqual(plain(snapshots));
    const gz = (file: string): number => gzipSync(readFileSync(file)).length;
    expect(gz(v4)).toBeLessThan(0.8 * gz(v3));
  });

  it('names file, line and side of a malformed shifted side when it is read', async () => {
    const path = await record({ path: join(tempDir(), 'rec.jsonl') }, busy(3));
    const text = recordingText(path);
    const lines = text.split('\n');
    const at = lines.findIndex((l, i) => i > 0 && l.includes('"*'));
    expect(at).toBeGreaterThan(0);
    lines[at] = (lines[at] as string).replace(/"(\*-?\d+ [0-9a-f][1-8])([^"]*)"/, '"$1$2x"');
    writeFileSync(path, resealText(lines.join('\n')));
    const read = await readAll(path);
    const seq = (JSON.parse(lines[at]) as unknown[])[1] as number;
    const quote = read[seq - 1]?.quotes?.get(1) as Quote;
    expect(() => [quote.bids, quote.asks]).toThrow(
      new RegExp(
        `rec\\.jsonl:${at + 1}: snapshot ${seq}: quotes\\[0\\]\\.(bids|asks): quantity block: expected 10 quantities`,
      ),
    );
  });

  it('reads a quote alike when the quotes before it were never read (the sides between passed over, not built)', async () => {
    // Sizes drawn afresh (a run of shifted sides with blocks), or kept now and then ("=").
    const random = randomFrom(23);
    let bids = Array.from({ length: 10 }, () => formatTicks(1 + Math.floor(random() * 900), 1));
    let asks = [...bids];
    let mid = 300_000;
    const drifting = Array.from({ length: 600 }, (_, i) => {
      mid += Math.round((random() - 0.5) * 30);
      if (random() < 0.7) bids = bids.map(() => formatTicks(1 + Math.floor(random() * 900), 1));
      if (random() < 0.7) asks = asks.map(() => formatTicks(1 + Math.floor(random() * 900), 1));
      return ethBook(i, side(mid - 5, -5, bids), side(mid + 5, 5, asks));
    });
    for (const [snapshots, keyframes] of [
      [busy(600, 5), 1024],
      [drifting, 1024],
      [drifting, 100],
    ] as const) {
      const path = await record(
        { path: join(tempDir(), 'rec.jsonl'), keyframeEverySnapshots: keyframes },
        snapshots,
      );
      const sides = rows(path).flatMap((row) =>
        row[0] === 's' ? (row[4] as unknown[][]).flatMap((q) => [q[2], q[3]]) : [],
      );
      expect(
        sides.filter((s) => typeof s === 'string' && /^\*-?\d+ [0-9a-f]/.test(s)).length,
      ).toBeGreaterThan(400);
      for (const seed of [1, 2, 3]) {
        // A fresh read each time: no side of it applied yet; then quotes far apart, in order.
        const read = await readAll(path);
        const next = randomFrom(seed * 7919);
        const picked: number[] = [];
        let at = Math.floor(next() * 20);
        while (at < snapshots.length) {
          picked.push(at);
          at += 1 + Math.floor(next() * 40);
        }
        expect(picked.map((at) => plain([read[at] as Snapshot]))).toEqual(
          picked.map((at) => plain([snapshots[at] as Snapshot])),
        );
      }
    }
  });

  it('refuses a shifted side at a market’s first quote', async () => {
    const path = await record({ path: join(tempDir(), 'rec.jsonl') }, busy(2));
    const lines = recordingText(path).split('\n');
    const first = JSON.parse(lines[3] as string) as [string, number, number, number, unknown[][]];
    (first[4][0] as unknown[])[2] = '*3 21A';
    lines[3] = JSON.stringify(first);
    writeFileSync(path, resealText(lines.join('\n')));
    const read = await readAll(path);
    expect(() => read[0]?.quotes?.get(1)?.bids).toThrow(
      /rec\.jsonl:4: snapshot 1: quotes\[0\]\.bids: shifted side, but the market had no levels on this grid before/,
    );
  });
});

describe('recording format version 4: what it refuses', () => {
  async function readsOne(path: string, side: 'bids' | 'asks' = 'bids'): Promise<unknown> {
    const read = await readAll(path);
    return read.map((s) => s.quotes?.get(1)?.[side]);
  }
  /** The file with quote 0 of snapshot `seq` (line 3 + seq) given `bids`. */
  function withBids(path: string, seq: number, bids: string): void {
    const lines = recordingText(path).split('\n');
    const row = JSON.parse(lines[2 + seq] as string) as [
      string,
      number,
      number,
      number,
      unknown[][],
    ];
    (row[4][0] as unknown[])[2] = bids;
    lines[2 + seq] = JSON.stringify(row);
    writeFileSync(path, resealText(lines.join('\n')));
  }

  it('a shifted side in a version 3 file', async () => {
    const path = await record({ path: join(tempDir(), 'rec.jsonl'), version: 3 }, busy(3));
    withBids(path, 2, '*1 =');
    await expect(readAll(path)).rejects.toThrow(
      /rec\.jsonl:5: snapshot 2: quotes\[0\]\.bids: a shifted side \("\*…"\) is format 4's, and this file is version 3/,
    );
  });

  it('a scale written in capitals, a shift with a leading zero or beyond safe integers, a shift of no levels', async () => {
    expect(decodeQuantityBlock('A1', 0, 0)).toMatch(/expected a scale \(0-f\)/);
    for (const [bids, message] of [
      ['*01 =', /expected "\*" and an integer tick shift/],
      [
        '*9007199254740991 =',
        /shifted by 9007199254740991 ticks from a literal price, or to a negative or unsafe one/,
      ],
    ] as const) {
      const path = await record({ path: join(tempDir(), 'rec.jsonl') }, busy(3));
      withBids(path, 2, bids);
      await expect(readsOne(path)).rejects.toThrow(message);
    }
    const path = await record({ path: join(tempDir(), 'rec.jsonl') }, busy(3));
    withBids(path, 1, '');
    withBids(path, 2, '*1 =');
    await expect(readsOne(path)).rejects.toThrow(
      /rec\.jsonl:5: snapshot 2: quotes\[0\]\.bids: shifted side, but the market had no levels on this grid before/,
    );
  });

  /** The bids of quote 0 of snapshot `seq` as written. */
  function bidsOf(path: string, seq: number): string {
    const row = JSON.parse(recordingText(path).split('\n')[2 + seq] as string) as [
      string,
      number,
      number,
      number,
      unknown[][],
    ];
    return (row[4][0] as unknown[])[2] as string;
  }

  it('a malformed shifted side on the way to the quote read, though the next side replaces it', async () => {
    const blockShort = await record({ path: join(tempDir(), 'rec.jsonl') }, busy(12));
    for (const seq of [5, 6]) expect(bidsOf(blockShort, seq)).toMatch(/^\*-?\d+ [0-9a-f][1-8]/);
    withBids(blockShort, 5, bidsOf(blockShort, 5).slice(0, -1));
    let read = await readAll(blockShort);
    expect(() => read[9]?.quotes?.get(1)?.bids).toThrow(
      /rec\.jsonl:8: snapshot 5: quotes\[0\]\.bids: quantity block: expected 10 quantities of \d digits, got \d+ digits/,
    );

    const badDigit = await record({ path: join(tempDir(), 'rec.jsonl') }, busy(12));
    withBids(badDigit, 5, `${bidsOf(badDigit, 5).slice(0, -1)}!`);
    read = await readAll(badDigit);
    expect(() => read[9]?.quotes?.get(1)?.bids).toThrow(
      /rec\.jsonl:8: snapshot 5: quotes\[0\]\.bids\[9\]: quantity digit "!" is not base-64/,
    );

    // Below tick 0 and back: the book read would be right, the side on the way is not.
    const below = await record({ path: join(tempDir(), 'rec.jsonl') }, busy(12));
    const shiftBy = (bids: string, by: number): string =>
      bids.replace(/^\*(-?\d+)/, (_, shift: string) => `*${String(Number(shift) + by)}`);
    withBids(below, 5, shiftBy(bidsOf(below, 5), -10_000_000));
    withBids(below, 6, shiftBy(bidsOf(below, 6), 10_000_000));
    read = await readAll(below);
    expect(() => read[9]?.quotes?.get(1)?.bids).toThrow(
      /rec\.jsonl:8: snapshot 5: quotes\[0\]\.bids\[0\]: shifted by -\d+ ticks from a literal price, or to a negative or unsafe one/,
    );
  });

  it('a quote time an offset from takenAt would not give back exactly (format 3 keeps it)', async () => {
    const [first] = busy(1);
    const quote = first?.quotes?.get(1) as Quote;
    const odd = createSnapshot({
      seq: 1,
      takenAt: T0,
      markets: [eth],
      quotes: [{ ...quote, timestamp: 0.1 }],
    });
    await expect(record({ path: join(tempDir(), 'rec.jsonl') }, [odd])).rejects.toMatchObject({
      code: 'QUANTA_RECORDING_WRITE',
      message: expect.stringMatching(
        /timestamp 0\.1 is not exact as an offset from takenAt/,
      ) as unknown,
    });
    const v3 = await record({ path: join(tempDir(), 'rec.jsonl'), version: 3 }, [odd]);
    expect((await readAll(v3))[0]?.quotes?.get(1)?.timestamp).toBe(0.1);
  });
});
