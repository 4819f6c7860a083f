import fc from 'fast-check';
import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import {
  RecordingWriter,
  openRecording,
  readRecording,
  type RecordingWarning,
  type RecordingWriterOptions,
} from '../../../src/market/recording/index.ts';
import { createSnapshot, type Snapshot } from '../../../src/market/snapshot.ts';
import type { Market, Quote } from '../../../src/domain/index.ts';
import { testMarket } from '../../helpers/markets.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';
import { editRecording, recordingText } from '../../helpers/recordings.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 30);
const tempDir = tempDirs('quanta-recording-');

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function record(options: RecordingWriterOptions, snapshots: readonly Snapshot[]) {
  const writer = await RecordingWriter.open({ now: () => T0, source: 'test', ...options });
  for (const snapshot of snapshots) {
    writer.write(snapshot);
    await writer.drained();
  }
  await writer.close();
  return writer.files;
}

/** The file's text without its check fields (format version 5). */
function textOf(path: string): string {
  return recordingText(path);
}

function linesOf(path: string): string[] {
  return textOf(path).split('\n').slice(0, -1);
}

/** A snapshot with its quotes as plain data (recorded quotes read their levels through getters). */
function plainQuotes(snapshot: Snapshot): Snapshot {
  if (snapshot.quotes === undefined) return snapshot;
  const quotes = new Map<number, Quote>();
  for (const [id, q] of snapshot.quotes)
    quotes.set(id, { marketId: q.marketId, timestamp: q.timestamp, bids: q.bids, asks: q.asks });
  return { ...snapshot, quotes };
}

/** Deep equality plus what toEqual ignores: Map key order and an absent `quotes`. */
function expectSameSnapshots(actual: readonly Snapshot[], expected: readonly Snapshot[]): void {
  expect(actual.map(plainQuotes)).toEqual(expected.map(plainQuotes));
  // What JSON makes of a recorded quote is what it makes of the original.
  expect(JSON.stringify(actual.map((s) => [...(s.quotes?.values() ?? [])]))).toBe(
    JSON.stringify(expected.map((s) => [...(s.quotes?.values() ?? [])])),
  );
  expect(actual.map((s) => [...s.markets.keys()])).toEqual(
    expected.map((s) => [...s.markets.keys()]),
  );
  expect(actual.map((s) => (s.quotes === undefined ? null : [...s.quotes.keys()]))).toEqual(
    expected.map((s) => (s.quotes === undefined ? null : [...s.quotes.keys()])),
  );
  expect(actual.map((s) => 'quotes' in s)).toEqual(expected.map((s) => 'quotes' in s));
}

function quote(marketId: number, i: number, depth = 3): Quote {
  const levels = (base: number, step: number) =>
    Array.from({ length: depth }, (_, k) => ({
      price: `${base + step * k}.${(i * 7 + k) % 100}`,
      quantity: `0.${String(i + k + 1).padStart(3, '0')}`,
    }));
  return { marketId, timestamp: T0 + i * 1000 - 5, bids: levels(2999, -1), asks: levels(3001, 1) };
}

const eth = testMarket({ id: 1, symbol: 'ETH-USD' });
const btc = testMarket({ id: 3, symbol: 'BTC-USD', baseAsset: 'BTC', amountExpo: 6, priceExpo: 1 });
const sol = testMarket({ id: 5, symbol: 'SOL-USD', baseAsset: 'SOL', type: 'SPOT' });
const btcCheaper = { ...btc, takerFeeX18: 300_000_000_000_000n, updatedAt: '2026-01-06T00:00:00Z' };

/**
 * 50 snapshots: BTC's fee changes at 10, SOL is listed at 20, ETH delisted at 30 and listed again
 * in front at 40 (an order line), quotes on all but every third, every seventh stale.
 */
function scenario(): Snapshot[] {
  return Array.from({ length: 50 }, (_, index) => {
    const seq = index + 1;
    const btcNow = seq >= 10 ? btcCheaper : btc;
    let markets: Market[] = [eth, btcNow];
    if (seq >= 20) markets = [eth, btcNow, sol];
    if (seq >= 30) markets = [btcNow, sol];
    if (seq >= 40) markets = [eth, btcNow, sol];
    const quotes = seq % 3 === 0 ? undefined : markets.map((m) => quote(m.id, seq));
    return createSnapshot({ seq, takenAt: T0 + seq * 1000, markets, quotes, stale: seq % 7 === 0 });
  });
}

function warnings(): { list: RecordingWarning[]; onWarning: (w: RecordingWarning) => void } {
  const list: RecordingWarning[] = [];
  return { list, onWarning: (w) => list.push(w) };
}

async function readError(promise: Promise<unknown>): Promise<QuantaError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof QuantaError))
    throw new Error(`expected a QuantaError, got ${String(error)}`);
  return error;
}

describe('recording round trip', () => {
  it('rebuilds every snapshot exactly: bigints, Maps in order, quotes present or absent, stale', async () => {
    const snapshots = scenario();
    const [file] = await record({ path: join(tempDir(), 'rec.jsonl') }, snapshots);
    const read = await collect(readRecording(file as string));
    expectSameSnapshots(read, snapshots);
    expect(read[9]?.markets.get(3)?.takerFeeX18).toBe(300_000_000_000_000n);
    expect(read[2]?.quotes).toBeUndefined();
    expect(read[6]?.stale).toBe(true);
    expect(Object.isFrozen(read[0])).toBe(true);
  });

  it('writes a market row only when the market appears or changes, and a removal when it leaves', async () => {
    const [file] = await record({ path: join(tempDir(), 'rec.jsonl') }, scenario());
    const kinds = linesOf(file as string).map((line) => {
      const row: unknown = JSON.parse(line);
      return Array.isArray(row)
        ? `${String(row[0])}${row[0] === 's' ? '' : String(row[1])}`
        : 'header';
    });
    // eth, btc; btc changed; sol listed; eth removed; eth listed again (appended, then reordered)
    expect(kinds.filter((k) => k !== 's')).toEqual([
      'header',
      'm1',
      'm3',
      'm3',
      'm5',
      'r1',
      'm1',
      'o1,3,5',
      // The end line: 50 snapshots.
      'e50',
    ]);
    expect(kinds.filter((k) => k === 's')).toHaveLength(50);
  });

  it('writes the documented header and compact snapshot lines', async () => {
    const snapshot = createSnapshot({
      seq: 7,
      takenAt: T0,
      markets: [eth],
      quotes: [
        { marketId: 1, timestamp: T0 - 3, bids: [{ price: '2999.5', quantity: '0.25' }], asks: [] },
      ],
      stale: true,
    });
    const [file] = await record(
      { path: join(tempDir(), 'rec.jsonl'), source: 'paper', version: 1 },
      [snapshot],
    );
    expect(linesOf(file as string)).toMatchInlineSnapshot(`
      [
        "{"format":"quanta-recording","version":1,"createdAt":"2026-01-05T09:30:00.000Z","source":"paper","part":0}",
        "["m",1,"ETH-USD","PERPETUAL","ETH","USDC",9,6,"100000000000000","1000000000000000000000000000","500000000000000","500000000000000","50000000000000000","20000000000000000",true,"2026-01-05T00:00:00Z","2026-01-05T00:00:00Z",null]",
        "["s",7,1767605400000,1,[[1,1767605399997,"2999.5 0.25",""]]]",
      ]
    `);
  });

  it('shares unchanged Market objects between snapshots instead of rebuilding them', async () => {
    const snapshots = scenario();
    const [file] = await record({ path: join(tempDir(), 'rec.jsonl') }, snapshots);
    const read = await collect(readRecording(file as string));
    expect(read[1]?.markets.get(1)).toBe(read[0]?.markets.get(1));
    expect(read[12]?.markets.get(3)).toBe(read[9]?.markets.get(3));
    expect(read[9]?.markets.get(3)).not.toBe(read[8]?.markets.get(3));
    expect(read[20]?.markets.get(1)).toBe(read[0]?.markets.get(1));
  });

  it('hands one markets Map to every snapshot between two market changes', async () => {
    const read = await collect(
      readRecording((await record({ path: join(tempDir(), 'r.jsonl') }, scenario()))[0] as string),
    );
    expect(read[1]?.markets).toBe(read[0]?.markets);
    expect(read[8]?.markets).toBe(read[0]?.markets);
    expect(read[9]?.markets).not.toBe(read[8]?.markets);
    // The earlier Map did not change when the later one did.
    expect(read[0]?.markets.get(3)?.takerFeeX18).toBe(btc.takerFeeX18);
    expect(read[10]?.markets).toBe(read[9]?.markets);
  });

  it('writes nothing for a markets Map seen before, and the rows a new Map changes', async () => {
    const listing = new Map<number, Market>([
      [1, eth],
      [3, btc],
    ]);
    const changed = new Map<number, Market>([
      [1, eth],
      [3, btcCheaper],
    ]);
    const snapshots = [listing, listing, changed, changed].map((markets, i) =>
      createSnapshot({ seq: i + 1, takenAt: T0 + i, markets }),
    );
    const [file] = await record({ path: join(tempDir(), 'rec.jsonl') }, snapshots);
    const tags = linesOf(file as string)
      .slice(1)
      .map((line) => (JSON.parse(line) as unknown[])[0]);
    expect(tags).toEqual(['m', 'm', 's', 's', 'm', 's', 's', 'e']);
    expectSameSnapshots(await collect(readRecording(file as string)), snapshots);
  });

  it('round-trips through gzip when the name ends in .gz', async () => {
    const snapshots = scenario();
    const [file] = await record({ path: join(tempDir(), 'rec.jsonl.gz') }, snapshots);
    expect([...readFileSync(file as string).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expectSameSnapshots(await collect(readRecording(file as string)), snapshots);
  });

  it('names the file in a directory by time and gzip option', async () => {
    const dir = tempDir();
    const files = await record({ dir: join(dir, 'nested'), gzip: true }, scenario().slice(0, 2));
    expect(files.map((f) => basename(f))).toEqual(['recording-2026-01-05T09-30-00-000Z.jsonl.gz']);
    const opened = await openRecording(join(dir, 'nested'));
    expect(opened.header).toEqual({
      format: 'quanta-recording',
      version: 5,
      createdAt: '2026-01-05T09:30:00.000Z',
      source: 'test',
      part: 0,
    });
    expect(await collect(opened.snapshots())).toHaveLength(2);
  });
});

describe('recording rotation', () => {
  for (const gzip of [false, true]) {
    it(`rotates by size into self-contained files${gzip ? ' (gzip)' : ''}`, async () => {
      const dir = tempDir();
      const snapshots = scenario();
      const files = await record({ dir, gzip, rotateBytes: 3000 }, snapshots);
      expect(files.length).toBeGreaterThan(3);
      const ext = gzip ? '.jsonl.gz' : '.jsonl';
      expect(files.map((f) => basename(f))).toEqual(
        files.map((_, i) => `recording-2026-01-05T09-30-00-000Z${i === 0 ? '' : `.${i}`}${ext}`),
      );
      // Each file alone: a header with its part, then the whole listing, then its snapshots.
      const parts: Snapshot[][] = [];
      for (const [part, file] of files.entries()) {
        expect(JSON.parse(linesOf(file)[0] as string)).toMatchObject({ part });
        parts.push(await collect(readRecording(file)));
      }
      expect(parts.every((p) => p.length > 0)).toBe(true);
      expectSameSnapshots(parts.flat(), snapshots);
      // The directory, in rotation order (names sort wrongly as text: .10 before .2).
      expectSameSnapshots(await collect(readRecording(dir)), snapshots);
      expectSameSnapshots(await collect(readRecording([...files])), snapshots);
    });
  }

  it('reads rotation parts in numeric order past part 9', async () => {
    const dir = tempDir();
    const snapshots = scenario();
    const files = await record({ dir, rotateBytes: 1 }, snapshots);
    expect(files).toHaveLength(50);
    expect(readdirSync(dir)).toHaveLength(50);
    expectSameSnapshots(await collect(readRecording(dir)), snapshots);
  });
});

describe('recording crash safety and errors', () => {
  it('skips a torn last line with a warning naming file and line', async () => {
    const snapshots = scenario().slice(0, 5);
    const [file] = await record({ path: join(tempDir(), 'rec.jsonl') }, snapshots);
    const path = file as string;
    // A recorder that stopped mid-write wrote no end line.
    editRecording(path, (text) => text.replace(/\["e",[^\n]*\n$/, ''));
    appendFileSync(path, '["s",6,1767605406000,0,[[1,176760');
    const { list, onWarning } = warnings();
    expectSameSnapshots(await collect(readRecording(path, { onWarning })), snapshots);
    expect(list).toEqual([
      {
        file: path,
        line: 9,
        message: `${path}:9: torn last line skipped (the recorder stopped mid-write)`,
      },
      {
        file: path,
        line: 0,
        message: `${path}: no end line (the file was cut short, e.g. the recorder was killed): read 5 snapshots from it`,
      },
    ]);
  });

  it('reads a gzip recording cut short by a crash up to where it was cut', async () => {
    const snapshots = scenario();
    const [file] = await record({ path: join(tempDir(), 'rec.jsonl.gz') }, snapshots);
    const path = file as string;
    truncateSync(path, readFileSync(path).length - 200);
    const { list, onWarning } = warnings();
    const read = await collect(readRecording(path, { onWarning }));
    expect(read.length).toBeGreaterThan(30);
    expect(read.length).toBeLessThan(50);
    expectSameSnapshots(read, snapshots.slice(0, read.length));
    // Perhaps a torn last line, then always the missing trailer with the count read.
    expect(list.length).toBeLessThanOrEqual(2);
    expect(list.at(-1)?.message).toBe(
      `${path}: the gzip stream ends without its trailer (the file was cut short, e.g. the recorder was killed): read ${read.length} snapshots from it`,
    );
  });

  it('fails on a torn line in the middle of the file, naming file and line', async () => {
    const [file] = await record({ path: join(tempDir(), 'rec.jsonl') }, scenario().slice(0, 5));
    const path = file as string;
    const lines = linesOf(path);
    lines[4] = (lines[4] as string).slice(0, 20);
    editRecording(path, () => `${lines.join('\n')}\n`);
    const error = await readError(collect(readRecording(path, warnings())));
    expect(error.code).toBe(ErrorCodes.RECORDING_INVALID);
    expect(error.message.replace(path, 'rec.jsonl')).toMatchInlineSnapshot(
      `"rec.jsonl:5: not a complete JSON line (torn or corrupt in the middle of the file)"`,
    );
  });

  it('refuses another format version with a clear message', async () => {
    const [file] = await record({ path: join(tempDir(), 'rec.jsonl') }, scenario().slice(0, 2));
    const path = file as string;
    editRecording(path, (text) => text.replace('"version":5', '"version":6'));
    const error = await readError(collect(readRecording(path)));
    expect(error.code).toBe(ErrorCodes.RECORDING_INVALID);
    expect(error.message.replace(path, 'rec.jsonl')).toMatchInlineSnapshot(`
      "rec.jsonl:1: recording format version 6 is not supported (this quanta reads versions 1 to 5)
      Read it with the quanta version that wrote it, or record again."
    `);
    expect((await readError(openRecording(path))).code).toBe(ErrorCodes.RECORDING_INVALID);
  });

  it('refuses a file that is not a recording', async () => {
    const path = join(tempDir(), 'notes.jsonl');
    writeFileSync(path, '{"hello":"world"}\n["s",1,2,0]\n');
    const error = await readError(collect(readRecording(path)));
    expect(error.message.replace(path, 'notes.jsonl')).toMatchInlineSnapshot(
      `"notes.jsonl:1: not a quanta recording: header format is undefined, expected "quanta-recording""`,
    );
  });

  it('names the line and field of a bad market row', async () => {
    const [file] = await record({ path: join(tempDir(), 'rec.jsonl') }, scenario().slice(0, 2));
    const path = file as string;
    editRecording(path, (text) => text.replace('"100000000000000"', '"-5"'));
    const error = await readError(collect(readRecording(path)));
    expect(error.message.replace(path, 'rec.jsonl')).toMatchInlineSnapshot(
      `"rec.jsonl:2: market 1: MinAmountx18: expected a non-negative integer x18 string, got "-5""`,
    );
  });

  it('names the snapshot and side of a malformed quote of an unverifiable format when its line is read', async () => {
    const path = join(tempDir(), 'rec.jsonl');
    const [file] = await record({ path, version: 1 }, scenario().slice(0, 1));
    writeFileSync(file as string, textOf(path).replace('"2999.7 0.002 ', '"2999.7 0.002 0.1 '));
    // Levels are cut from their string when first read, but a side's form is checked at once.
    const error = await readError(collect(readRecording(path, warnings())));
    expect(error.message.replace(path, 'rec.jsonl')).toMatchInlineSnapshot(
      `"rec.jsonl:4: snapshot 1: quotes[0].bids: expected price and quantity pairs, got an odd number of values"`,
    );
  });

  it('warns about an empty file and fails on a missing path or an empty directory', async () => {
    const dir = tempDir();
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const { list, onWarning } = warnings();
    expect(await collect(readRecording(empty, { onWarning }))).toEqual([]);
    expect(list.map((w) => w.message.replace(empty, 'empty.jsonl'))).toEqual([
      'empty.jsonl: empty file skipped (the recorder stopped before writing)',
    ]);
    expect((await readError(collect(readRecording(join(dir, 'nope.jsonl'))))).code).toBe(
      ErrorCodes.RECORDING_NOT_FOUND,
    );
    const onlyNotes = join(dir, 'notes');
    rmSync(empty);
    writeFileSync(join(dir, 'readme.txt'), 'not a recording');
    const noFiles = await readError(collect(readRecording(dir)));
    expect(noFiles.code).toBe(ErrorCodes.RECORDING_NOT_FOUND);
    expect(noFiles.message.replace(dir, 'DIR')).toMatchInlineSnapshot(
      `"recording directory DIR: no recording files (*.jsonl or *.jsonl.gz) in it"`,
    );
    expect((await readError(openRecording(onlyNotes))).code).toBe(ErrorCodes.RECORDING_NOT_FOUND);
  });

  it('stops with QUANTA_ABORTED when the signal aborts', async () => {
    const [file] = await record({ path: join(tempDir(), 'rec.jsonl') }, scenario());
    const controller = new AbortController();
    controller.abort();
    const error = await readError(
      collect(readRecording(file as string, { signal: controller.signal })),
    );
    expect(error.code).toBe(ErrorCodes.ABORTED);
  });
});

describe('recording writer options', () => {
  it('never overwrites a recording and refuses writes after close', async () => {
    const path = join(tempDir(), 'rec.jsonl');
    const writer = await RecordingWriter.open({ path });
    await writer.close();
    await writer.close();
    expect(() => writer.write(scenario()[0] as Snapshot)).toThrow(/write after close/);
    const error = await readError(RecordingWriter.open({ path }));
    expect(error.code).toBe(ErrorCodes.RECORDING_WRITE);
    expect(error.message.replace(path, 'rec.jsonl')).toMatchInlineSnapshot(
      `"recording rec.jsonl: already exists (a recording is never overwritten)"`,
    );
  });

  it('rejects contradictory or invalid options', async () => {
    const dir = tempDir();
    const messages = await Promise.all(
      [
        {},
        { dir, path: join(dir, 'a.jsonl') },
        { path: join(dir, 'a.json') },
        { path: join(dir, 'a.jsonl'), gzip: true },
        { dir, rotateBytes: 0 },
      ].map(async (options) => {
        const error = await readError(RecordingWriter.open(options));
        expect(error.code).toBe(ErrorCodes.USAGE);
        return error.message.replace(dir, 'DIR');
      }),
    );
    expect(messages).toMatchInlineSnapshot(`
      [
        "recording writer: give exactly one of \`dir\` and \`path\`",
        "recording writer: give exactly one of \`dir\` and \`path\`",
        "recording writer: path "DIR/a.json" must end in .jsonl or .jsonl.gz",
        "recording writer: gzip: true contradicts path "DIR/a.jsonl" (gzip follows the .gz ending)",
        "recording writer: rotateBytes: expected a positive integer, got 0",
      ]
    `);
  });

  it('refuses a quote value with a space whole, and stays usable', async () => {
    const path = join(tempDir(), 'rec.jsonl');
    const writer = await RecordingWriter.open({ path });
    const spaced = {
      marketId: 1,
      timestamp: T0,
      bids: [{ price: '1 000', quantity: '1' }],
      asks: [],
    };
    const bad = createSnapshot({ seq: 1, takenAt: T0, markets: [eth], quotes: [spaced] });
    let error: unknown;
    try {
      writer.write(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QuantaError);
    expect((error as QuantaError).code).toBe(ErrorCodes.RECORDING_WRITE);
    expect((error as QuantaError).message.replace(path, 'rec.jsonl')).toMatchInlineSnapshot(
      `"recording rec.jsonl: snapshot 1: quote of market 1: bids[0].price: "1 000" is not a decimal string (it has a space)"`,
    );
    const good = scenario().slice(0, 2);
    for (const snapshot of good) writer.write(snapshot);
    await writer.close();
    expectSameSnapshots(await collect(readRecording(path)), good);
  });

  it('refuses a negative quote quantity whole (a reader would refuse it), and stays usable', async () => {
    const path = join(tempDir(), 'rec.jsonl');
    const writer = await RecordingWriter.open({ path });
    const negative = {
      marketId: 1,
      timestamp: T0,
      bids: [{ price: '1', quantity: '-2' }],
      asks: [],
    };
    const bad = createSnapshot({ seq: 1, takenAt: T0, markets: [eth], quotes: [negative] });
    expect(() => writer.write(bad)).toThrow(
      `recording ${path}: snapshot 1: quote of market 1: bids[0].quantity: "-2" is negative`,
    );
    const good = scenario().slice(0, 2);
    for (const snapshot of good) writer.write(snapshot);
    await writer.close();
    expectSameSnapshots(await collect(readRecording(path)), good);
  });

  it('refuses a snapshot whose time cannot be recorded', async () => {
    const writer = await RecordingWriter.open({ path: join(tempDir(), 'rec.jsonl') });
    const bad = createSnapshot({ seq: 1, takenAt: Number.NaN, markets: [eth] });
    expect(() => writer.write(bad)).toThrow(/takenAt NaN/);
    await writer.close();
  });
});

// --- property: random snapshot sequences round-trip -------------------------------------------

const isoDate = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
  .map((d) => d.toISOString());
const x18 = fc.bigInt({ min: 0n, max: 10n ** 40n });
const marketArb: fc.Arbitrary<Market> = fc.record({
  id: fc.integer({ min: 0, max: 7 }),
  symbol: fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }),
  type: fc.constantFrom('PERPETUAL' as const, 'SPOT' as const),
  baseAsset: fc.string({ maxLength: 6 }),
  quoteAsset: fc.string({ maxLength: 6 }),
  amountExpo: fc.integer({ min: -18, max: 18 }),
  priceExpo: fc.integer({ min: -18, max: 18 }),
  minAmountX18: x18,
  maxPositionValueX18: x18,
  makerFeeX18: x18,
  takerFeeX18: x18,
  initialMarginX18: x18,
  maintenanceMarginX18: x18,
  isActive: fc.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
  deletedAt: fc.option(isoDate, { nil: null }),
});
// Any text without a space (the side separator): decimals, but also empty and odd strings.
const levelText = fc.string({ maxLength: 10, unit: 'grapheme' }).filter((t) => !t.includes(' '));
// Decimals on and off a price grid (ticks in version 2), with trailing zeros now and then.
const decimalText = fc
  .tuple(fc.nat({ max: 99_999 }), fc.option(fc.nat({ max: 9999 }), { nil: undefined }))
  .map(([whole, fraction]) => (fraction === undefined ? String(whole) : `${whole}.${fraction}`));
const levelArb = fc.record({
  price: fc.oneof(decimalText, decimalText, levelText),
  // (Not negative: the writer refuses a quantity with a leading minus.)
  quantity: fc.oneof(
    decimalText,
    levelText.filter((t) => !t.startsWith('-')),
  ),
});
const quoteArb: fc.Arbitrary<Quote> = fc.record({
  marketId: fc.integer({ min: 0, max: 7 }),
  timestamp: fc.integer({ min: 0, max: 2 ** 45 }),
  bids: fc.array(levelArb, { maxLength: 4 }),
  asks: fc.array(levelArb, { maxLength: 4 }),
});
const stepArb = fc.record({
  // null: the same listing (same objects) as the previous snapshot, the common case.
  listing: fc.option(fc.uniqueArray(marketArb, { selector: (m) => m.id, maxLength: 5 }), {
    nil: null,
    freq: 2,
  }),
  // Re-list one market of the previous listing as an equal copy (not the same object).
  copyFirst: fc.boolean(),
  quotes: fc.option(fc.array(quoteArb, { maxLength: 4 }), { nil: undefined }),
  stale: fc.boolean(),
  dt: fc.integer({ min: 0, max: 5000 }),
});

type Step = typeof stepArb extends fc.Arbitrary<infer S> ? S : never;

function buildSequence(steps: readonly Step[]): Snapshot[] {
  const out: Snapshot[] = [];
  let listing: Market[] | ReadonlyMap<number, Market> = [];
  let takenAt = T0;
  for (const [index, step] of steps.entries()) {
    const previous = out[out.length - 1]?.markets;
    if (step.listing !== null) listing = step.listing;
    else if (step.copyFirst && previous !== undefined && previous.size > 0) {
      // An equal copy of the first market, in a new Map: compared field by field.
      const [first, ...rest] = previous.values();
      listing = [{ ...(first as Market) }, ...rest];
    } else if (previous !== undefined) {
      // The same Map again, as the poller hands it on: the writer's no-compare path.
      listing = previous;
    }
    takenAt += step.dt;
    out.push(
      createSnapshot({
        seq: index + 1,
        takenAt,
        markets: listing,
        quotes: step.quotes,
        stale: step.stale,
      }),
    );
  }
  return out;
}

describe('recording property', () => {
  it('any snapshot sequence round-trips, versions 1, 2 and 5, plain or gzip, rotated or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { maxLength: 25 }),
        fc.boolean(),
        fc.constantFrom(1, 700, 64 * 1024 * 1024),
        fc.constantFrom(1 as const, 2 as const, 5 as const),
        fc.integer({ min: 1, max: 4 }),
        async (steps, gzip, rotateBytes, version, flushEverySnapshots) => {
          const snapshots = buildSequence(steps);
          const dir = mkdtempSync(join(tmpdir(), 'quanta-recording-prop-'));
          try {
            await record({ dir, gzip, rotateBytes, version, flushEverySnapshots }, snapshots);
            const { list, onWarning } = warnings();
            expectSameSnapshots(await collect(readRecording(dir, { onWarning })), snapshots);
            // Said once per read, however many parts, counting what was read unverified.
            const noun = snapshots.length === 1 ? 'snapshot was' : 'snapshots were';
            expect(list.map((w) => w.message)).toEqual(
              version < 5 && snapshots.length > 0
                ? [
                    expect.stringContaining(
                      `format version ${version} has no line checksums: a changed or deleted line cannot be detected, so ${snapshots.length} ${noun} read unverified`,
                    ),
                  ]
                : [],
            );
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
