import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import type { Quote, QuoteLevel } from '../../../src/domain/index.ts';
import {
  RecordingWriter,
  openRecording,
  readRecording,
  type RecordingWarning,
} from '../../../src/market/recording/index.ts';
import { formatTicks, toTicks } from '../../../src/market/recording/price-ticks.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { bestPriceX18 } from '../../../src/market/best-price.ts';
import { bestAsk, bestBid } from '../../../src/strategy/helpers.ts';
import { parseDecimalToX18 } from '../../../src/money/index.ts';
import { testMarket } from '../../helpers/markets.ts';
import {
  RECORDING_T0,
  editRecording,
  recordingText,
  resealText,
  plainSnapshots as plain,
  readSnapshots as readAll,
  recordSnapshots as record,
} from '../../helpers/recordings.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const T0 = RECORDING_T0;
const tempDir = tempDirs('quanta-recording-v2-');

const eth = testMarket({ id: 1, priceExpo: 2 });

function levels(mid: number, step: number, depth: number, quantity: (k: number) => string) {
  const out: QuoteLevel[] = [];
  for (let k = 0; k < depth; k++)
    out.push({ price: formatTicks(mid + step * k, 2), quantity: quantity(k) });
  return out;
}

/** A book moving by a few ticks per snapshot, the top quantity changing, the rest still. */
function moving(count: number): Snapshot[] {
  return Array.from({ length: count }, (_, i) => {
    const mid = 300_000 + Math.round(20 * Math.sin(i / 3));
    const quote: Quote = {
      marketId: 1,
      timestamp: T0 + i * 1000 - 5,
      bids: levels(mid - 5, -5, 10, (k) => (k === 0 ? `0.${(i % 9) + 1}` : '1.5')),
      asks: levels(mid + 5, 5, 10, () => '2'),
    };
    return createSnapshot({ seq: i + 1, takenAt: T0 + i * 1000, markets: [eth], quotes: [quote] });
  });
}

/** Waits until the file at `path` is longer than `size` bytes; fails after 20 s. */
async function fileGrows(path: string, size: number): Promise<void> {
  for (let waited = 0; readFileSync(path).length <= size; waited += 10) {
    if (waited > 20_000) throw new Error(`${path} stayed at ${size} bytes for 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('price ticks', () => {
  it('turns only canonical decimals on the grid into ticks, and back', () => {
    expect(toTicks('2999.5', 2)).toBe(299_950);
    expect(formatTicks(299_950, 2)).toBe('2999.5');
    expect(toTicks('0.07', 2)).toBe(7);
    expect(formatTicks(7, 2)).toBe('0.07');
    expect(toTicks('12', 0)).toBe(12);
    for (const off of ['2999.50', '2999.505', '02999.5', '-1', '1e3', '.5', '5.', '', ' 1'])
      expect(toTicks(off, 2)).toBeUndefined();
  });
});

describe('recording format version 2', () => {
  it('writes offsets from the previous level, 0 for an unchanged side, = for an unchanged quantity', async () => {
    const snapshots = moving(3);
    const still = createSnapshot({
      seq: 4,
      takenAt: T0 + 3000,
      markets: [eth],
      quotes: [{ ...(snapshots[2]?.quotes?.get(1) as Quote), timestamp: T0 + 2999 }],
    });
    const path = await record({ path: join(tempDir(), 'rec.jsonl'), version: 3 }, [
      ...snapshots,
      still,
    ]);
    const rows = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown[]);
    expect((rows[0] as unknown as { version: number }).version).toBe(3);
    const quote = (i: number) => (rows[i]?.[4] as unknown[][])[0] as unknown[];
    // First snapshot: absolute ticks; then offsets (the book moved by 7 ticks), quantities '='.
    expect(String(quote(2)[3]).startsWith('300005 2 300010 2 ')).toBe(true);
    expect(quote(3)[3]).toBe(Array.from({ length: 10 }, () => '7 =').join(' '));
    expect(String(quote(3)[2]).split(' ').slice(2, 4)).toEqual(['7', '=']);
    // Unchanged book: both sides 0.
    expect(quote(5).slice(2)).toEqual([0, 0]);
    expect(plain(await readAll(path))).toEqual(plain([...snapshots, still]));
  });

  it('reads version 1 and version 2 recordings of the same snapshots alike, and is smaller', async () => {
    const snapshots = moving(400);
    const dir = tempDir();
    const v1 = await record({ path: join(dir, 'v1.jsonl.gz'), version: 1 }, snapshots);
    const v2 = await record({ path: join(dir, 'v2.jsonl.gz') }, snapshots);
    expect(plain(await readAll(v1))).toEqual(plain(snapshots));
    expect(plain(await readAll(v2))).toEqual(plain(snapshots));
    expect(readFileSync(v2).length).toBeLessThan(readFileSync(v1).length);
  });

  it('flushes gzip every N snapshots: a crash loses at most those, with the torn tail skipped', async () => {
    const snapshots = moving(300);
    const path = await record(
      { path: join(tempDir(), 'rec.jsonl.gz'), flushEverySnapshots: 50, flushEveryMs: 1e9 },
      snapshots,
    );
    truncateSync(path, readFileSync(path).length - 40);
    const warnings: RecordingWarning[] = [];
    const read = await readAll(path, (w) => warnings.push(w));
    expect(read.length).toBeGreaterThanOrEqual(250);
    expect(read.length).toBeLessThan(300);
    expect(plain(read)).toEqual(plain(snapshots.slice(0, read.length)));
    expect(warnings.at(-1)?.message).toMatch(/ends without its trailer/);
  });

  it('skips a torn last line of a plain version 2 file', async () => {
    const snapshots = moving(20);
    const path = await record({ path: join(tempDir(), 'rec.jsonl'), version: 2 }, snapshots);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.slice(0, text.length - 30));
    const warnings: RecordingWarning[] = [];
    const read = await readAll(path, (w) => warnings.push(w));
    expect(plain(read)).toEqual(plain(snapshots.slice(0, 19)));
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/torn last line skipped/),
      expect.stringMatching(
        /format version 2 has no line checksums.* 19 snapshots were read unverified/,
      ),
    ]);
  });

  it('flushes after flushEveryMs on the writer clock', async () => {
    let now = T0;
    const path = join(tempDir(), 'rec.jsonl.gz');
    const writer = await RecordingWriter.open({
      path,
      now: () => now,
      flushEverySnapshots: 1000,
      flushEveryMs: 5000,
    });
    const flushes = vi.spyOn(writer, 'flush');
    const snapshots = moving(10);
    const sizes: number[] = [];
    const flushesAt: number[] = [];
    for (const [index, snapshot] of snapshots.entries()) {
      writer.write(snapshot);
      await writer.drained();
      flushesAt.push(flushes.mock.calls.length);
      // The 6th snapshot is written at 5 s on the writer clock: the flush pushes the compressor's
      // output to the file, which the compressor's thread writes some time later (under load,
      // more than a fixed pause), so the file is watched until it grows.
      if (index === 5) await fileGrows(path, sizes[4] as number);
      sizes.push(readFileSync(path).length);
      now += 1000;
    }
    await writer.close();
    // The writer decides to flush once, at 5 s on its clock, and not before: counted on the writer
    // itself, since an early flush's bytes could still be in the compressor's thread when the file
    // is looked at. Then the flushed bytes reach the file.
    expect(flushesAt).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
    expect(sizes[1]).toBe(sizes[4]);
    expect(sizes[5]).toBeGreaterThan(sizes[4] as number);
    // Header, market line, 10 snapshots, end line, and the empty text after the last newline.
    expect(gunzipSync(readFileSync(path)).toString('utf8').split('\n')).toHaveLength(10 + 4);
  });

  it('names file, line and level of a bad tick offset when that side is read', async () => {
    const path = await record({ path: join(tempDir(), 'rec.jsonl') }, moving(2));
    editRecording(path, (text) => text.replace(/"300005 /, '"x1 '));
    // Sides are applied only when read: the snapshots stream, the bad side fails its reader.
    const read = await readAll(path);
    expect(read).toHaveLength(2);
    expect(read[0]?.quotes?.get(1)?.bids).toHaveLength(10);
    expect(() => read[1]?.quotes?.get(1)?.asks).toThrow(
      /rec\.jsonl:3: snapshot 1: quotes\[0\]\.asks\[0\]: price "x1"/,
    );
  });

  it('refuses a side marked unchanged at the start of a file at once', async () => {
    const path = await record({ path: join(tempDir(), 'rec.jsonl') }, moving(2));
    editRecording(path, (text) => text.replace(/"300005 [^"]*"/, '0'));
    await expect(readAll(path)).rejects.toThrow(
      /rec\.jsonl:3: snapshot 1: quotes\[0\]\.asks: marked unchanged, but the market had no quote before/,
    );
  });
});

describe('recording format version 3', () => {
  /** The tags of the snapshot lines of a plain recording. */
  function tags(path: string): string[] {
    return recordingText(path)
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as unknown[])
      .filter((row) => row[0] === 's' || row[0] === 'k')
      .map((row) => row[0] as string);
  }

  it('writes a keyframe line every N snapshots, its sides absolute', async () => {
    const snapshots = moving(12);
    const path = await record(
      { path: join(tempDir(), 'rec.jsonl'), keyframeEverySnapshots: 5 },
      snapshots,
    );
    expect(tags(path).join('')).toBe('ssssskssssks');
    const rows = recordingText(path)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown[]);
    const keyframe = rows.find((row) => row[0] === 'k') as unknown[];
    const asks = String(((keyframe[4] as unknown[][])[0] as unknown[])[3]);
    // Absolute ticks and every quantity spelled out.
    expect(asks.split(' ').slice(0, 2)).toEqual([
      String(300_000 + 5 + Math.round(20 * Math.sin(5 / 3))),
      '2',
    ]);
    expect(asks).not.toMatch(/=/);
    expect(plain(await readAll(path))).toEqual(plain(snapshots));
  });

  it('gives every quote its own book whatever order the quotes are read in', async () => {
    const snapshots = moving(40);
    const path = await record(
      { path: join(tempDir(), 'rec.jsonl'), keyframeEverySnapshots: 7 },
      snapshots,
    );
    const expected = plain(snapshots);
    // Backwards, then every third, then all again (each side applied once, from any point).
    const backwards = await readAll(path);
    const reversed = plain([...backwards].reverse());
    expect(reversed).toEqual([...expected].reverse());
    const strided = await readAll(path);
    for (let i = 0; i < strided.length; i += 3)
      expect(plain([strided[i] as Snapshot])).toEqual([expected[i]]);
    expect(plain(strided)).toEqual(expected);
  });

  it('gives every quote its own book when reads skip ahead and come back across kept sides', async () => {
    const snapshots = moving(90);
    const path = await record(
      { path: join(tempDir(), 'rec.jsonl'), keyframeEverySnapshots: 100 },
      snapshots,
    );
    const expected = plain(snapshots);
    const read = await readAll(path);
    // Far ahead first (only the side read and every 16th on the way are kept), then back
    // through the sides between, then all in order.
    for (const i of [37, 89, 5, 20, 16, 17, 15, 88, 0, 64, 63, 47])
      expect(plain([read[i] as Snapshot])).toEqual([expected[i]]);
    expect(plain(read)).toEqual(expected);
  });

  it('gives the same levels, best levels and best prices whatever mix of reads, in any order', async () => {
    // The written format (version 5: whole books shifted), a book moving every snapshot with
    // every quantity changing, keyframes far apart: a read walks from the side read last, from a
    // kept side or from the keyframe, and must give what was written every time.
    const snapshots = Array.from({ length: 70 }, (_, i) => {
      const mid = 300_000 + Math.round(40 * Math.sin(i / 4)) + (i % 5);
      const quote: Quote = {
        marketId: 1,
        timestamp: T0 + i * 1000 - 5,
        bids: levels(mid - 5, -5, 6, (k) => `${1 + ((i * 7 + k * 3) % 13)}.${(i + k) % 10}`),
        asks: levels(mid + 5, 5, 6, (k) => String(1 + ((i * 5 + k) % 17))),
      };
      return createSnapshot({
        seq: i + 1,
        takenAt: T0 + i * 1000,
        markets: [eth],
        quotes: [quote],
      });
    });
    const path = await record(
      { path: join(tempDir(), 'rec.jsonl'), keyframeEverySnapshots: 50 },
      snapshots,
    );
    const written = (i: number) => snapshots[i]?.quotes?.get(1) as Quote;
    const plainLevels = (levels: readonly QuoteLevel[]) =>
      levels.map(({ price, quantity }) => ({ price, quantity }));
    for (let seed = 1; seed <= 6; seed++) {
      const read = await readAll(path);
      let state = seed;
      const next = (n: number) => {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        return state % n;
      };
      // Runs forwards and backwards from random places, each quote read one random way.
      for (let run = 0; run < 12; run++) {
        const from = next(read.length);
        const step = next(2) === 0 ? 1 : -1;
        for (let i = from, n = next(20); n > 0 && i >= 0 && i < read.length; i += step, n--) {
          const quote = read[i]?.quotes?.get(1) as Quote;
          const side = next(2) === 0 ? 'bids' : 'asks';
          const kind = next(3);
          if (kind === 0) expect(plainLevels(quote[side])).toEqual(plainLevels(written(i)[side]));
          if (kind === 1)
            expect((side === 'bids' ? bestBid : bestAsk)(quote)).toEqual(written(i)[side][0]);
          if (kind === 2)
            expect(bestPriceX18(quote, side)).toBe(
              parseDecimalToX18((written(i)[side][0] as QuoteLevel).price),
            );
        }
      }
      expect(plain(read)).toEqual(plain(snapshots));
    }
  });

  it('gives best prices from the top offsets alone that agree with the levels, in any order', async () => {
    // Literal tops (off the grid), empty sides, unchanged sides and moves, across keyframes.
    const snapshots = moving(90).map((snapshot, i) => {
      const quote = snapshot.quotes?.get(1) as Quote;
      const bids =
        i % 7 === 3
          ? [{ price: `${2999 + (i % 3)}.125`, quantity: '1' }, ...quote.bids.slice(1)]
          : quote.bids;
      const asks = i % 11 === 4 || i % 11 === 5 ? [] : quote.asks;
      return createSnapshot({
        seq: snapshot.seq,
        takenAt: snapshot.takenAt,
        markets: [eth],
        quotes: [{ ...quote, bids, asks }],
      });
    });
    const asksOf = (i: number) => (snapshots[i]?.quotes?.get(1) as Quote).asks;
    const plainLevels = (levels: readonly QuoteLevel[] | undefined) =>
      levels?.map(({ price, quantity }) => ({ price, quantity }));
    const expectedTop = (i: number, side: 'bids' | 'asks') => {
      const top = (snapshots[i]?.quotes?.get(1) as Quote)[side][0];
      return top === undefined ? undefined : parseDecimalToX18(top.price);
    };
    for (const version of [2, 3] as const) {
      const path = await record(
        { path: join(tempDir(), 'rec.jsonl'), version, keyframeEverySnapshots: 16 },
        snapshots,
      );
      const read = await readAll(path);
      // A scrambled order; every fifth quote also has its levels built first.
      let seed = 11;
      const order = read.map((_, i) => i);
      for (let i = order.length - 1; i > 0; i--) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const j = seed % (i + 1);
        [order[i], order[j]] = [order[j] as number, order[i] as number];
      }
      for (const i of order) {
        const quote = read[i]?.quotes?.get(1);
        if (i % 5 === 0) expect(plainLevels(quote?.asks)).toEqual(plainLevels(asksOf(i)));
        expect(bestPriceX18(quote, 'bids')).toBe(expectedTop(i, 'bids'));
        expect(bestPriceX18(quote, 'asks')).toBe(expectedTop(i, 'asks'));
      }
      expect(plain(read)).toEqual(plain(snapshots));
    }
  });

  it('reads snapshot lines spelled otherwise than the writer does (spaces, escapes) alike', async () => {
    const snapshots = moving(30);
    const path = await record(
      { path: join(tempDir(), 'rec.jsonl'), keyframeEverySnapshots: 8 },
      snapshots,
    );
    const lines = recordingText(path).trimEnd().split('\n');
    // The scanner reads the writer's own spelling; these must go through JSON.parse, same result.
    const respelled = lines.map((line, i) => {
      if (!/^\["[sk]",/.test(line)) return line;
      const row = JSON.parse(line) as unknown[];
      if (i % 3 === 0) return `[${row.map((v) => JSON.stringify(v)).join(', ')}]`;
      if (i % 3 === 1) return line.replace(/"(\d)/, (_, d: string) => `"\\u003${d}`);
      return line.replace(/^\["([sk])",(\d+),(\d+)/, '["$1",$2,$3.0');
    });
    expect(respelled.filter((l, i) => l !== lines[i]).length).toBeGreaterThan(20);
    const other = join(tempDir(), 'respelled.jsonl');
    writeFileSync(other, resealText(`${respelled.join('\n')}\n`));
    expect(plain(await readAll(other))).toEqual(plain(snapshots));
  });

  it('stops a plain file read between chunks when the signal aborts', async () => {
    const snapshots = moving(2000);
    const path = await record({ path: join(tempDir(), 'rec.jsonl'), version: 3 }, snapshots);
    expect(readFileSync(path).length).toBeGreaterThan(3 * 64 * 1024);
    const controller = new AbortController();
    let seen = 0;
    const reading = (async () => {
      for await (const snapshot of readRecording(path, { signal: controller.signal })) {
        seen += 1;
        if (snapshot.seq === 1) controller.abort();
      }
    })();
    await expect(reading).rejects.toMatchObject({ code: 'QUANTA_ABORTED' });
    // The lines of the chunk already read, not the file.
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(snapshots.length / 2);
  });

  it('gives the same snapshots and bytes read in batches as one by one', async () => {
    const path = await record({ path: join(tempDir(), 'rec.jsonl.gz') }, moving(2000));
    const opened = await openRecording(path);
    const one = opened.snapshots();
    const seqs: number[] = [];
    const bytes: number[] = [];
    for await (const snapshot of one) {
      seqs.push(snapshot.seq);
      bytes.push(one.bytesRead);
    }
    const batched: number[] = [];
    const batchedBytes: number[] = [];
    let batches = 0;
    for await (const batch of opened.snapshots().batches()) {
      batches += 1;
      batched.push(...batch.snapshots.map((snapshot) => snapshot.seq));
      batchedBytes.push(...batch.bytesRead);
    }
    expect(seqs).toHaveLength(2000);
    expect(batched).toEqual(seqs);
    expect(batchedBytes).toEqual(bytes);
    expect(batches).toBeGreaterThan(1);
    expect(batches).toBeLessThan(seqs.length / 10);
  });

  it('reads a long version 2 file (no keyframes) exactly, through its bounded tracks', async () => {
    const snapshots = moving(1300);
    const path = await record({ path: join(tempDir(), 'rec.jsonl.gz'), version: 2 }, snapshots);
    const read = await readAll(path);
    // Only the last quote is read first: the deltas of 1300 snapshots are applied on the way.
    expect(plain(read.slice(-1))).toEqual(plain(snapshots.slice(-1)));
    expect(plain(read)).toEqual(plain(snapshots));
  });

  it('refuses a keyframe line in a version 2 file', async () => {
    const path = await record({ path: join(tempDir(), 'rec.jsonl'), version: 2 }, moving(3));
    writeFileSync(path, readFileSync(path, 'utf8').replace('["s",3,', '["k",3,'));
    await expect(readAll(path)).rejects.toThrow(
      /rec\.jsonl:5: unknown line kind "k" \(expected "s", "m", "r" or "o"\)/,
    );
  });

  it('refuses an unchanged quantity in a keyframe when it is read', async () => {
    const path = await record(
      { path: join(tempDir(), 'rec.jsonl'), keyframeEverySnapshots: 2 },
      moving(3),
    );
    const text = recordingText(path);
    const line = text.split('\n').findIndex((l) => l.startsWith('["k"'));
    editRecording(path, () => text.replace(/(\["k",[^"]*"\d+ )[^ "]+/, '$1='));
    const read = await readAll(path);
    expect(() => read[2]?.quotes?.get(1)?.bids).toThrow(
      new RegExp(
        `rec\\.jsonl:${line + 1}: snapshot 3: quotes\\[0\\]\\.bids\\[0\\]: quantity marked unchanged, but there was no level 0 before`,
      ),
    );
  });
});
