/**
 * Synthetic recordings for the backtest benchmarks: the same snapshots written by our recorder
 * and as plain JSONL, plus the configs the benchmarks run. Deterministic.
 *
 * The plain JSONL holds the same information as our recording and no more: one JSON object per
 * snapshot with its quotes as `{price, quantity}` objects, and the markets' wire rows only on a
 * line where they changed (here the first: the listing never changes), as our recorder writes
 * them. A baseline that repeated every market row on every line would parse far more than the
 * backtest reads.
 */
import { closeSync, mkdtempSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingWriter } from '../../src/market/recording/index.ts';
import { readLineBatches } from '../../src/market/recording/read-lines.ts';
import { createSnapshot } from '../../src/market/snapshot.ts';
import { marketToWireRow, quotesToWire } from '../../src/venue/schemas/index.ts';
import type { Market, Quote, QuoteLevel } from '../../src/domain/index.ts';
import { testMarket } from '../helpers/markets.ts';

export const T0 = Date.UTC(2026, 0, 5);

export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`${name}: expected a positive integer`);
  return value;
}

export interface BenchData {
  readonly dir: string;
  /** Our recording (plain JSONL). */
  readonly ours: string;
  /** The same snapshots, plain JSONL (market rows only where they change). */
  readonly plain: string | undefined;
  readonly markets: number;
  readonly snapshots: number;
}

function decimal(cents: number): string {
  const whole = Math.floor(cents / 100);
  const frac = cents % 100;
  return frac === 0 ? String(whole) : `${whole}.${String(frac).padStart(2, '0').replace(/0$/, '')}`;
}

/**
 * Writes `snapshots` snapshots of `markets` markets (symbols M1-USD, M2-USD, …, prices in cents),
 * `depth` levels a side, mids on a random walk, in our format and (with `plain`) as plain JSONL.
 */
export async function buildBenchData(options: {
  readonly markets: number;
  readonly snapshots: number;
  readonly depth: number;
  readonly plain: boolean;
  readonly gzip?: boolean;
}): Promise<BenchData> {
  const { markets: count, snapshots, depth } = options;
  const dir = mkdtempSync(join(tmpdir(), 'quanta-bench-backtest-'));
  const ours = join(dir, options.gzip === true ? 'ours.jsonl.gz' : 'ours.jsonl');
  const plain = options.plain ? join(dir, 'plain.jsonl') : undefined;
  let seed = 0x9e3779b9;
  const random = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const markets: Market[] = Array.from({ length: count }, (_, i) =>
    testMarket({ id: i + 1, symbol: `M${i + 1}-USD`, baseAsset: `M${i + 1}`, priceExpo: 2 }),
  );
  const listing = new Map(markets.map((m) => [m.id, m]));
  const mids = markets.map((_, i) => 100_000 + i * 37_000);
  const writer = await RecordingWriter.open({
    path: ours,
    rotateBytes: Number.MAX_SAFE_INTEGER,
    source: 'bench',
  });
  const fd = plain === undefined ? undefined : openSync(plain, 'wx');
  const wireMarkets = JSON.stringify(markets.map(marketToWireRow));
  let chunk: string[] = [];
  for (let seq = 1; seq <= snapshots; seq++) {
    const takenAt = T0 + seq * 1000;
    const quotes: Quote[] = markets.map((m, i) => {
      const mid = Math.max(1000, (mids[i] as number) + Math.round((random() - 0.5) * 40));
      mids[i] = mid;
      const bids: QuoteLevel[] = [];
      const asks: QuoteLevel[] = [];
      for (let k = 0; k < depth; k++) {
        bids.push({
          price: decimal(mid - 5 - k * 5),
          quantity: decimal(1 + Math.floor(random() * 50_000)),
        });
        asks.push({
          price: decimal(mid + 5 + k * 5),
          quantity: decimal(1 + Math.floor(random() * 50_000)),
        });
      }
      return { marketId: m.id, timestamp: takenAt - 7, bids, asks };
    });
    const snapshot = createSnapshot({ seq, takenAt, markets: listing, quotes, stale: false });
    writer.write(snapshot);
    if (seq % 256 === 0) await writer.drained();
    if (fd !== undefined) {
      // The listing only on the first line: it never changes after it.
      chunk.push(
        `{"seq":${seq},"takenAt":${takenAt},"stale":false,` +
          `${seq === 1 ? `"markets":${wireMarkets},` : ''}` +
          `"quotes":${JSON.stringify(quotesToWire(quotes).quotes)}}`,
      );
      if (chunk.length === 256 || seq === snapshots) {
        writeSync(fd, `${chunk.join('\n')}\n`);
        chunk = [];
      }
    }
  }
  if (fd !== undefined) closeSync(fd);
  await writer.close();
  return { dir, ours, plain, markets: count, snapshots };
}

/**
 * The baseline: each plain JSONL line through `JSON.parse`, nothing else (the project's line
 * reader, as ours uses). Returns the number of quotes parsed, every level of every market then
 * being an object with its price and quantity strings.
 */
export async function plainDecode(path: string): Promise<number> {
  let quotes = 0;
  for await (const batch of readLineBatches(path)) {
    for (const line of batch) {
      const value = JSON.parse(line) as { quotes?: unknown[] };
      quotes += value.quotes?.length ?? 0;
    }
  }
  return quotes;
}

/** Writes a backtest config for one strategy module on the given symbols; returns its path. */
export function writeConfig(
  dir: string,
  name: string,
  module: string,
  symbols: readonly string[],
  params: Record<string, unknown> = {},
): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    [
      'venue: { writeUrl: embedded, readUrl: embedded }',
      "risk: { maxOrderNotional: '100000', maxPositionNotional: '1000000' }",
      'strategies:',
      `  - module: ${module}`,
      `    markets: [${symbols.join(', ')}]`,
      `    params: ${JSON.stringify(params)}`,
      '',
    ].join('\n'),
  );
  return path;
}
