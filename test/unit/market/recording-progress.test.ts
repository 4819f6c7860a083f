import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Quote, QuoteLevel } from '../../../src/domain/index.ts';
import { RecordingWriter, openRecording } from '../../../src/market/recording/index.ts';
import { formatTicks } from '../../../src/market/recording/price-ticks.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import { bestPriceX18 } from '../../../src/market/best-price.ts';
import { markPriceX18 } from '../../../src/market/mark-price.ts';
import { parseDecimalToX18 } from '../../../src/money/index.ts';
import { testMarket } from '../../helpers/markets.ts';

const T0 = Date.parse('2026-01-05T09:30:00Z');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const eth = testMarket({ id: 1, priceExpo: 2 });

function levels(mid: number, step: number, quantity: string): QuoteLevel[] {
  return Array.from({ length: 10 }, (_, k) => ({
    price: formatTicks(mid + step * k, 2),
    quantity,
  }));
}

/** A book whose top moves and whose quantities change every snapshot (lines that do not shrink). */
function snapshots(count: number): Snapshot[] {
  let seed = 7;
  return Array.from({ length: count }, (_, i) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const mid = 300_000 + (seed % 200);
    const quote: Quote = {
      marketId: 1,
      timestamp: T0 + i * 1000,
      bids: levels(mid - 5, -5, `${(seed % 997) + 1}.${seed % 89}`),
      asks: levels(mid + 5, 5, `${(seed % 991) + 1}.${seed % 83}`),
    };
    return createSnapshot({ seq: i + 1, takenAt: T0 + i * 1000, markets: [eth], quotes: [quote] });
  });
}

describe('recording bytes read, for a one-pass progress bar', () => {
  for (const gzip of [false, true]) {
    it(`moves forward with the snapshots and ends at the files' size${gzip ? ' (gzip)' : ''}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'quanta-recording-progress-'));
      dirs.push(dir);
      const writer = await RecordingWriter.open({
        dir,
        gzip,
        rotateBytes: gzip ? 60_000 : 300_000,
        now: () => T0,
        source: 'test',
      });
      const count = 6000;
      for (const snapshot of snapshots(count)) {
        writer.write(snapshot);
        await writer.drained();
      }
      await writer.close();

      const recording = await openRecording(dir);
      expect(recording.files.length).toBeGreaterThan(1);
      const size = recording.files.reduce((sum, file) => sum + statSync(file).size, 0);
      expect(recording.bytes).toBe(size);
      const read = recording.snapshots();
      const seen: number[] = [];
      for await (const _snapshot of read) seen.push(read.bytesRead);
      expect(seen).toHaveLength(count);
      for (let i = 1; i < seen.length; i++)
        expect(seen[i] as number).toBeGreaterThanOrEqual(seen[i - 1] as number);
      expect(seen[count - 1]).toBe(size);
      // Snapshots are about the same size: halfway through them is about halfway through the bytes.
      const half = (seen[count / 2] as number) / size;
      expect(half).toBeGreaterThan(0.3);
      expect(half).toBeLessThan(0.7);
      expect(seen[0] as number).toBeLessThan(size * 0.3);
    });
  }
});

describe('best prices of a recorded quote without its levels', () => {
  it('equal the first level parsed, for tick and literal prices, both versions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quanta-recording-best-'));
    dirs.push(dir);
    const sample = snapshots(300).map((snapshot, i) => {
      const quote = snapshot.quotes?.get(1) as Quote;
      // Every 7th: a price finer than the grid (kept literally); every 11th: an empty side.
      const bids =
        i % 7 === 0
          ? [{ price: `${2999 + (i % 3)}.125`, quantity: '1' }, ...quote.bids.slice(1)]
          : quote.bids;
      const asks = i % 11 === 0 ? [] : quote.asks;
      return createSnapshot({
        seq: snapshot.seq,
        takenAt: snapshot.takenAt,
        markets: [eth],
        quotes: [{ ...quote, bids, asks }],
      });
    });
    for (const version of [1, 2] as const) {
      const writer = await RecordingWriter.open({
        path: join(dir, `v${version}.jsonl`),
        version,
        now: () => T0,
        source: 'test',
      });
      for (const snapshot of sample) {
        writer.write(snapshot);
        await writer.drained();
      }
      await writer.close();
      let i = 0;
      for await (const snapshot of (
        await openRecording(join(dir, `v${version}.jsonl`))
      ).snapshots()) {
        const decoded = snapshot.quotes?.get(1);
        // Read the best prices first (no levels built yet), then the levels.
        const bid = bestPriceX18(decoded, 'bids');
        const ask = bestPriceX18(decoded, 'asks');
        const mark = markPriceX18(decoded);
        const top = (side: readonly { price: string }[]) =>
          side[0] === undefined ? undefined : parseDecimalToX18(side[0].price);
        const expected = sample[i]?.quotes?.get(1) as Quote;
        expect(bid).toBe(top(expected.bids));
        expect(ask).toBe(top(expected.asks));
        expect(decoded?.bids).toEqual(expected.bids);
        expect(mark).toBe(bid === undefined || ask === undefined ? undefined : (bid + ask) / 2n);
        i += 1;
      }
      expect(i).toBe(sample.length);
    }
  });
});
