import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Quote, QuoteLevel } from '../../../src/domain/index.ts';
import { RecordingWriter, openRecording } from '../../../src/market/recording/index.ts';
import { formatTicks } from '../../../src/market/recording/price-ticks.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
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
