/**
 * Recording sizes on the paper venue's own books: the quotes `SimEngine` serves (the book
 * `quanta paper` answers and `quanta record` records from it), one snapshot per price step,
 * written by our recorder (gzip, the writer's defaults) and as plain JSONL (market rows only on the
 * first line: the listing never changes, and our recorder writes them only when they change)
 * gzipped by zlib.
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { RecordingWriter } from '../../src/market/recording/index.ts';
import { createSnapshot } from '../../src/market/snapshot.ts';
import { SimEngine } from '../../src/sim/index.ts';
import { marketToWireRow, quotesToWire } from '../../src/venue/schemas/index.ts';
import type { Market } from '../../src/domain/index.ts';

/** Gzip bytes per market-row of both files, and the book depth the engine served. */
export interface SimSizes {
  readonly naivePerRow: number;
  readonly oursPerRow: number;
  readonly depth: number;
}

/**
 * Steps a simulation of `markets` (its default book shape and volatility, seed 1) through
 * `snapshots` one-second steps and records each step's quotes both ways.
 */
export async function simBookSizes(
  markets: readonly Market[],
  snapshots: number,
  t0: number,
): Promise<SimSizes> {
  const dir = mkdtempSync(join(tmpdir(), 'quanta-bench-sim-sizes-'));
  try {
    let now = t0;
    const engine = new SimEngine({
      clock: () => now,
      markets,
      // Mids spread like the random data's (1000, 1370, …), not all at the default 100.
      initialPrices: Object.fromEntries(
        markets.map((m, i) => [String(m.id), String(1000 + i * 370)]),
      ),
    });
    const ours = join(dir, 'ours.jsonl.gz');
    const naive = join(dir, 'naive.jsonl.gz');
    const writer = await RecordingWriter.open({
      path: ours,
      rotateBytes: Number.MAX_SAFE_INTEGER,
      source: 'paper',
    });
    const gzip = createGzip();
    const file = createWriteStream(naive);
    gzip.pipe(file);
    const listed = engine.listMarkets();
    const listing = new Map(listed.map((m) => [m.id, m]));
    const naiveMarkets = JSON.stringify(listed.map(marketToWireRow));
    let depth = 0;
    for (let seq = 1; seq <= snapshots; seq++) {
      now = t0 + seq * 1000;
      const quotes = engine.quotes();
      depth = Math.max(depth, ...quotes.map((q) => q.bids.length));
      const snapshot = createSnapshot({ seq, takenAt: now, markets: listing, quotes });
      writer.write(snapshot);
      await writer.drained();
      const line =
        `{"seq":${seq},"takenAt":${now},"stale":false,${seq === 1 ? `"markets":${naiveMarkets},` : ''}` +
        `"quotes":${JSON.stringify(quotesToWire(quotes).quotes)}}\n`;
      if (!gzip.write(line)) await once(gzip, 'drain');
    }
    await writer.close();
    gzip.end();
    await once(file, 'close');
    const rows = snapshots * markets.length;
    return {
      naivePerRow: statSync(naive).size / rows,
      oursPerRow: statSync(ours).size / rows,
      depth,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
