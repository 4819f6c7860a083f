/**
 * Recording benchmark: how fast a recording decodes into snapshots whose every level is read, and
 * how small it is, against plain JSONL of the same snapshots (market rows only where they change,
 * as our recorder writes them) measured in the same run (docs/style.md §17). See README.md in
 * this folder.
 *
 *   npm run bench -- recording
 *
 * Size knobs (environment): BENCH_MARKETS (20), BENCH_SNAPSHOTS (10000), BENCH_DEPTH (10 levels a
 * side), BENCH_ROUNDS (5; each case's median round is printed with the min and max). Run with
 * `node --expose-gc` (run.ts does) for heap figures measured from a collected heap.
 */
import {
  closeSync,
  createReadStream,
  createWriteStream,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingWriter, readRecording } from '../../src/market/recording/index.ts';
import { readLineBatches } from '../../src/market/recording/read-lines.ts';
import { hasSeal, SEAL_LENGTH } from '../../src/market/recording/line-seal.ts';
import { createSnapshot, type Snapshot } from '../../src/market/snapshot.ts';
import { marketToWireRow, quotesToWire } from '../../src/venue/schemas/index.ts';
import type { Market, Quote, QuoteLevel } from '../../src/domain/index.ts';
import { testMarket } from '../helpers/markets.ts';
import { reportFigure, summarize } from './figures.ts';
import { simBookSizes } from './sim-book-sizes.ts';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`${name}: expected a positive integer`);
  return value;
}

const MARKETS = envInt('BENCH_MARKETS', 20);
const SNAPSHOTS = envInt('BENCH_SNAPSHOTS', 10_000);
const DEPTH = envInt('BENCH_DEPTH', 10);
const ROUNDS = envInt('BENCH_ROUNDS', 5);
const MARKET_ROWS = MARKETS * SNAPSHOTS;
const T0 = Date.UTC(2026, 0, 5);
const gc = (globalThis as { gc?: () => void }).gc;

// --- synthetic data -----------------------------------------------------------------------------

function makeMarkets(): Market[] {
  return Array.from({ length: MARKETS }, (_, i) =>
    testMarket({ id: i + 1, symbol: `M${i + 1}-USD`, baseAsset: `M${i + 1}`, priceExpo: 2 }),
  );
}

// A cheap deterministic walk (xorshift32): the same data on every run.
let seed = 0x9e3779b9;
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
}

function decimal(cents: number): string {
  const whole = Math.floor(cents / 100);
  const frac = cents % 100;
  return frac === 0 ? String(whole) : `${whole}.${String(frac).padStart(2, '0').replace(/0$/, '')}`;
}

function makeQuote(marketId: number, midCents: number, timestamp: number): Quote {
  const bids: QuoteLevel[] = [];
  const asks: QuoteLevel[] = [];
  for (let k = 0; k < DEPTH; k++) {
    bids.push({
      price: decimal(midCents - 5 - k * 5),
      quantity: decimal(1 + Math.floor(random() * 50_000)),
    });
    asks.push({
      price: decimal(midCents + 5 + k * 5),
      quantity: decimal(1 + Math.floor(random() * 50_000)),
    });
  }
  return { marketId, timestamp, bids, asks };
}

interface Files {
  dir: string;
  naive: string;
  ours: string;
  oursGz: string;
  /** The same snapshots written as format version 1 (gzip), for comparison. */
  v1Gz: string;
}

/**
 * Writes the same snapshots as plain JSONL (`naive`: one JSON object per snapshot, quotes as
 * `{price, quantity}` objects, the market rows on the lines where they changed) and in ours
 * (plain and gzip).
 */
async function buildFiles(): Promise<Files> {
  const dir = mkdtempSync(join(tmpdir(), 'quanta-bench-recording-'));
  const files = {
    dir,
    naive: join(dir, 'naive.jsonl'),
    ours: join(dir, 'ours.jsonl'),
    oursGz: join(dir, 'ours.jsonl.gz'),
    v1Gz: join(dir, 'v1.jsonl.gz'),
  };
  let markets = makeMarkets();
  const mids = markets.map((_, i) => 100_000 + i * 37_000);
  const rotateBytes = Number.MAX_SAFE_INTEGER;
  const plain = await RecordingWriter.open({ path: files.ours, rotateBytes, source: 'bench' });
  const gzip = await RecordingWriter.open({ path: files.oursGz, rotateBytes, source: 'bench' });
  const v1 = await RecordingWriter.open({
    path: files.v1Gz,
    rotateBytes,
    source: 'bench',
    version: 1,
  });
  const naiveFd = openSync(files.naive, 'wx');
  let naiveChunk: string[] = [];
  let listing = new Map<number, Market>();
  let listingOf: Market[] | undefined;
  // The plain line carries the market rows only when they changed, as our recorder does.
  let naiveMarketsOf: Market[] | undefined;
  for (let seq = 1; seq <= SNAPSHOTS; seq++) {
    // Market rows change rarely (here a fee every SNAPSHOTS/10 snapshots), quotes every time.
    if (seq % Math.max(1, Math.floor(SNAPSHOTS / 10)) === 0) {
      const i = seq % MARKETS;
      const m = markets[i] as Market;
      markets = markets.slice();
      markets[i] = {
        ...m,
        takerFeeX18: m.takerFeeX18 + 1n,
        updatedAt: new Date(T0 + seq).toISOString(),
      };
    }
    const takenAt = T0 + seq * 1000;
    const quotes = markets.map((m, i) => {
      const mid = Math.max(1000, (mids[i] as number) + Math.round((random() - 0.5) * 40));
      mids[i] = mid;
      return makeQuote(m.id, mid, takenAt - 7);
    });
    // One Map per listing, handed on while it does not change (as the poller does).
    if (listingOf !== markets) {
      listing = new Map(markets.map((m) => [m.id, m]));
      listingOf = markets;
    }
    const snapshot = createSnapshot({ seq, takenAt, markets: listing, quotes, stale: false });
    plain.write(snapshot);
    gzip.write(snapshot);
    await gzip.drained();
    v1.write(snapshot);
    await v1.drained();
    let naiveMarkets = '';
    if (naiveMarketsOf !== markets) {
      naiveMarkets = `"markets":${JSON.stringify(markets.map(marketToWireRow))},`;
      naiveMarketsOf = markets;
    }
    naiveChunk.push(
      `{"seq":${seq},"takenAt":${takenAt},"stale":false,${naiveMarkets}` +
        `"quotes":${JSON.stringify(quotesToWire(quotes).quotes)}}`,
    );
    if (naiveChunk.length === 256 || seq === SNAPSHOTS) {
      writeSync(naiveFd, `${naiveChunk.join('\n')}\n`);
      naiveChunk = [];
    }
  }
  closeSync(naiveFd);
  await plain.close();
  await gzip.close();
  await v1.close();
  return files;
}

// --- measuring ----------------------------------------------------------------------------------

interface Sample {
  seconds: number;
  peakHeapDelta: number;
  peakRss: number;
  check: number;
}

class Probe {
  readonly heapStart: number;
  peakHeap: number;
  peakRss: number;
  constructor() {
    gc?.();
    const usage = process.memoryUsage();
    this.heapStart = usage.heapUsed;
    this.peakHeap = usage.heapUsed;
    this.peakRss = usage.rss;
  }
  sample(): void {
    const usage = process.memoryUsage();
    if (usage.heapUsed > this.peakHeap) this.peakHeap = usage.heapUsed;
    if (usage.rss > this.peakRss) this.peakRss = usage.rss;
  }
}

const SAMPLE_EVERY = 512;

async function timed(run: (probe: Probe) => Promise<number>): Promise<Sample> {
  const probe = new Probe();
  const start = process.hrtime.bigint();
  const check = await run(probe);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  probe.sample();
  return {
    seconds,
    peakHeapDelta: probe.peakHeap - probe.heapStart,
    peakRss: probe.peakRss,
    check,
  };
}

interface NaiveLine {
  quotes: unknown[];
}

/** (a) and (c): each line through JSON.parse, nothing else (the same line splitter as ours). */
async function parseLines(path: string, probe: Probe): Promise<number> {
  let check = 0;
  let lines = 0;
  for await (const batch of readLineBatches(path)) {
    for (const line of batch) {
      // Our header is an object without quotes; every other line is an array or a plain line.
      // (Ours end in a check field from format 5 on: cut off, not checked.)
      const text = hasSeal(line) ? line.slice(0, line.length - SEAL_LENGTH) : line;
      const value = JSON.parse(text) as Partial<NaiveLine> | unknown[];
      check += Array.isArray(value) ? value.length : (value.quotes?.length ?? 0);
      if (++lines % SAMPLE_EVERY === 0) probe.sample();
    }
  }
  return check;
}

/**
 * (b): our reader, frozen Snapshots with Market objects and quotes; with `levels`, every level of
 * every quote is read (its price and quantity strings), without, no quote is looked into (what a
 * backtest's unread markets cost).
 */
async function readSnapshots(path: string, probe: Probe, levels: boolean): Promise<number> {
  let check = 0;
  let count = 0;
  let read = 0;
  let last: Snapshot | undefined;
  for await (const snapshot of readRecording(path)) {
    check += snapshot.quotes?.size ?? 0;
    if (levels) {
      for (const quote of snapshot.quotes?.values() ?? []) {
        for (const level of quote.bids) read += level.price.length + level.quantity.length;
        for (const level of quote.asks) read += level.price.length + level.quantity.length;
      }
    }
    last = snapshot;
    if (++count % SAMPLE_EVERY === 0) probe.sample();
  }
  if (
    count !== SNAPSHOTS ||
    last?.quotes?.get(1)?.bids.length !== DEPTH ||
    (levels && read === 0)
  ) {
    throw new Error(`read ${count} snapshots, expected ${SNAPSHOTS} with ${DEPTH} levels`);
  }
  return check;
}

const CASES = [
  {
    key: 'a',
    label: '(a) plain JSONL, JSON.parse only (baseline)',
    run: (f: Files, p: Probe) => parseLines(f.naive, p),
  },
  {
    key: 'b',
    label: '(b) ours → Snapshots, every level read',
    run: (f: Files, p: Probe) => readSnapshots(f.ours, p, true),
  },
  {
    key: 'bgz',
    label: '(b) ours .gz → Snapshots, every level read',
    run: (f: Files, p: Probe) => readSnapshots(f.oursGz, p, true),
  },
  {
    key: 'b0',
    label: '(b0) ours → Snapshots, no quote read',
    run: (f: Files, p: Probe) => readSnapshots(f.ours, p, false),
  },
  {
    key: 'c',
    label: '(c) ours lines, JSON.parse only',
    run: (f: Files, p: Probe) => parseLines(f.ours, p),
  },
] as const;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pad = (text: string, width: number) => text.padEnd(width);
const padLeft = (text: string, width: number) => text.padStart(width);

async function main(): Promise<void> {
  console.log(
    `recording benchmark: ${MARKETS} markets × ${SNAPSHOTS} snapshots, quotes depth ${DEPTH}, ` +
      `${ROUNDS} rounds${gc === undefined ? ' (no --expose-gc: heap deltas include garbage)' : ''}`,
  );
  const buildStart = process.hrtime.bigint();
  const files = await buildFiles();
  try {
    const buildSeconds = Number(process.hrtime.bigint() - buildStart) / 1e9;
    const size = (path: string) => statSync(path).size;
    console.log(
      `files (built in ${buildSeconds.toFixed(1)} s): plain JSONL ${mb(size(files.naive))}, ours ${mb(size(files.ours))}, ` +
        `ours.gz ${mb(size(files.oursGz))}\n`,
    );
    console.log(
      '(a) is the baseline: JSON.parse of each line of plain JSONL holding the same snapshots ' +
        '(quotes as {price, quantity} objects, market rows only on the lines where they changed, ' +
        'as our recorder writes them), through the same line reader as ours.\n' +
        '(b) reads every level of every quote (price and quantity strings) from the snapshots ' +
        'readRecording yields; (b0) yields the same snapshots and reads no quote.\n',
    );
    // Warm-up (module loading, JIT): one round of every case, not counted.
    for (const c of CASES) await timed((probe) => c.run(files, probe));
    const samples = new Map<string, Sample[]>(CASES.map((c) => [c.key, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of CASES) samples.get(c.key)?.push(await timed((probe) => c.run(files, probe)));
    }
    // Per round, each case against (a) of the same round; the median round, with min and max.
    const plainSeconds = (samples.get('a') ?? []).map((sample) => sample.seconds);
    const ratioRounds = (key: string): number[] =>
      (samples.get(key) ?? []).map(
        (sample, round) => (plainSeconds[round] ?? NaN) / sample.seconds,
      );
    console.log(
      `${pad('case', 46)}${padLeft('median time', 13)}${padLeft('market-rows/s', 15)}` +
        `${padLeft('vs (a): median (min-max)', 26)}${padLeft('peak heap Δ', 13)}${padLeft('peak RSS', 11)}`,
    );
    for (const c of CASES) {
      const list = samples.get(c.key) ?? [];
      const seconds = summarize(list.map((sample) => sample.seconds)).median;
      const ratio = summarize(ratioRounds(c.key));
      console.log(
        `${pad(c.label, 46)}${padLeft(`${seconds.toFixed(2)} s`, 13)}` +
          `${padLeft(`${(MARKET_ROWS / seconds / 1e6).toFixed(3)} M`, 15)}` +
          padLeft(
            `${ratio.median.toFixed(2)}x (${ratio.min.toFixed(2)}-${ratio.max.toFixed(2)})`,
            26,
          ) +
          `${padLeft(mb(Math.max(...list.map((s) => s.peakHeapDelta))), 13)}` +
          `${padLeft(mb(Math.max(...list.map((s) => s.peakRss))), 11)}`,
      );
    }
    const parseShare = summarize(
      (samples.get('c') ?? []).map(
        (sample, round) => sample.seconds / (samples.get('b')?.[round]?.seconds ?? NaN),
      ),
    );
    console.log(
      `\n(c)/(b), the share of (b) that is JSON.parse of our lines: median ${parseShare.median.toFixed(2)} ` +
        `(${parseShare.min.toFixed(2)}-${parseShare.max.toFixed(2)})`,
    );
    console.log(`process peak RSS: ${mb(process.resourceUsage().maxRSS * 1024)}`);

    // Size: the plain JSONL gzipped at zlib's default level (what `gzip` gives it) against our
    // gzip recording (the writer's default format, flushed every 64 snapshots) and format 1.
    const naiveGz = join(files.dir, 'naive.jsonl.gz');
    await pipeline(createReadStream(files.naive), createGzip(), createWriteStream(naiveGz));
    const perRow = (path: string) => size(path) / MARKET_ROWS;
    console.log(
      `gzip bytes per market-row at depth ${DEPTH}: plain JSONL ${perRow(naiveGz).toFixed(1)}, ` +
        `ours ${perRow(files.oursGz).toFixed(1)}, v1 ${perRow(files.v1Gz).toFixed(1)}`,
    );
    console.log(
      `  random data (every quantity drawn afresh each snapshot: the worst case): ours/plain ` +
        `${(perRow(files.oursGz) / perRow(naiveGz)).toFixed(2)}x`,
    );
    // The figure: the paper venue's own books (README.md says why). Sizes are deterministic: one
    // round.
    const sim = await simBookSizes(makeMarkets(), SNAPSHOTS, T0);
    console.log(
      `gzip bytes per market-row, paper venue books (depth ${sim.depth}): plain JSONL ` +
        `${sim.naivePerRow.toFixed(1)}, ours ${sim.oursPerRow.toFixed(1)}`,
    );
    reportFigure({
      name: `recording gzip bytes per market-row / plain JSONL gz, ${sim.depth} levels, paper venue books`,
      measures: `our recording's gzip file (the writer's default format) of ${SNAPSHOTS} snapshots of ${MARKETS} markets stepped by the paper venue's SimEngine (seed 1), bytes per market-row; sizes are deterministic, one round`,
      baseline: `the same snapshots as plain JSONL (quotes as {price, quantity} objects, market rows only where they change) gzipped by zlib at its default level`,
      goal: { atMost: 0.35 },
      unit: 'x',
      rounds: [sim.oursPerRow / sim.naivePerRow],
    });
    // The same goal on the worst case, in the table too: a real venue's sizes change between
    // snapshots more than the paper venue's (whose level sizes stay), less than these.
    reportFigure({
      name: `recording gzip bytes per market-row / plain JSONL gz, ${DEPTH} levels, random sizes`,
      measures: `our recording's gzip file of ${SNAPSHOTS} snapshots of ${MARKETS} markets whose every level's quantity is drawn afresh each snapshot (the worst case), bytes per market-row; deterministic, one round`,
      baseline: `the same snapshots as plain JSONL (market rows only where they change) gzipped by zlib at its default level`,
      goal: { atMost: 0.35 },
      unit: 'x',
      rounds: [perRow(files.oursGz) / perRow(naiveGz)],
    });
  } finally {
    rmSync(files.dir, { recursive: true, force: true });
  }
}

await main();
