/**
 * `quanta import --kind candles` (issue 28): each candle layout's sample under
 * test/fixtures/history/ (generic with ms or ISO times, the exchange kline dump with and
 * without its header, plain or gzip) imports into a candle file that reads back as exactly
 * its candles, one snapshot per candle at its close.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  importHistory,
  openCandleHistory,
  readMarketRules,
} from '../../../src/market/history/index.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const FIXTURES = join(ROOT, 'test/fixtures/history');
const { market } = await readMarketRules(join(FIXTURES, 'eth-usd.yaml'));
const tempDir = tempDirs('quanta-import-candles-');
const now = (): number => Date.UTC(2026, 10, 26);

const EXPECTED = [
  [1767571200000, '2500', '2504.5', '2498', '2503', '12.5'],
  [1767571260000, '2503', '2506', '2501', '2505.5', '8.25'],
  [1767571320000, '2505.5', '2507', '2499.5', '2500', '20'],
  [1767571380000, '2500', '2502', '2495', '2496', '15.75'],
];

async function candlesOf(out: string): Promise<(string | number)[][]> {
  const opened = await openCandleHistory(out);
  expect(opened.market).toEqual(market);
  const rows: (string | number)[][] = [];
  for await (const batch of opened.snapshots().batches())
    for (const snapshot of batch.snapshots) {
      const candle = snapshot.candles?.get(market.id);
      if (candle === undefined) throw new Error('a candle snapshot without its candle');
      // One snapshot per candle, at its close, with a book locked at the close price.
      expect(snapshot.takenAt).toBe(candle.end);
      expect(candle.end - candle.start).toBe(opened.timeframeMs);
      expect(snapshot.quotes?.get(market.id)?.bids[0]?.price).toBe(candle.close);
      expect(snapshot.quotes?.get(market.id)?.asks[0]?.price).toBe(candle.close);
      rows.push([candle.start, candle.open, candle.high, candle.low, candle.close, candle.volume]);
    }
  return rows;
}

describe('each candle layout imports and reads back exactly', () => {
  const layouts: [string, string][] = [
    ['candles.csv', 'candles'],
    ['candles-iso.csv', 'candles'],
    ['kline-1m.csv', 'kline'],
    ['kline-1m-header.csv', 'kline'],
  ];
  for (const [name, layout] of layouts)
    for (const gzip of [false, true])
      it(`${name}${gzip ? ' (gzip)' : ''}: layout ${layout}, 1m`, async () => {
        let file = join(FIXTURES, name);
        if (gzip) {
          file = join(tempDir(), `${name}.gz`);
          writeFileSync(file, gzipSync(readFileSync(join(FIXTURES, name))));
        }
        const out = join(tempDir(), 'candles');
        const summary = await importHistory({ kind: 'candles', market, files: [file], out, now });
        expect(summary).toMatchObject({
          layouts: [layout],
          rows: 4,
          snapshots: 4,
          timeframe: '1m',
          firstMs: 1767571200000,
          lastMs: 1767571380000,
        });
        expect(summary.recording).toEqual([
          join(out, 'candles-2026-11-26T00-00-00-000Z.candles.gz'),
        ]);
        expect(await candlesOf(out)).toEqual(EXPECTED);
      });

  it("the timeframe is the gap found most often, not the first: a first candle cut short is refused, not taken for a 30m file's", async () => {
    // 23:30 (the last half hour of a day the source cut), then whole hours. The first gap is
    // 30 minutes: the hours were imported as 30m candles, each closing 30 minutes early.
    const file = join(tempDir(), 'cut.csv');
    const hours = [0, 1, 2, 3].map((h) => `${1767571200 + h * 3600},2,3,1,2,1`);
    writeFileSync(
      file,
      ['timestamp,open,high,low,close,volume', `${1767571200 - 1800},1,2,1,2,1`, ...hours, ''].join(
        '\n',
      ),
    );
    await expect(
      importHistory({ kind: 'candles', market, files: [file], out: join(tempDir(), 'c'), now }),
    ).rejects.toThrow(
      `${file}:2: candle time 2026-01-04T23:30:00.000Z is not on the 1h grid of the candles`,
    );
    const out = join(tempDir(), 'candles');
    const summary = await importHistory({
      kind: 'candles',
      market,
      files: [file],
      out,
      now,
      onBad: 'skip',
    });
    expect(summary).toMatchObject({ timeframe: '1h', snapshots: 4 });
    expect(summary.skipped['off-grid']).toBe(1);
    expect(summary.examples).toMatchObject([{ file, line: 2, kind: 'off-grid' }]);
    expect((await candlesOf(out)).map((row) => row[0])).toEqual(
      [0, 1, 2, 3].map((h) => 1767571200000 + h * 3_600_000),
    );
  });

  it('candles held to find the timeframe come first when a later file (a kline dump) tells it', async () => {
    // Three hours without a close time, then a kline file whose close times say 1h: the held
    // three were written after the kline's, out of order, with the timeframe found again.
    const plain = join(tempDir(), 'plain.csv');
    const rows = [0, 1, 2].map((h) => `${1767571200 + h * 3600},2,3,1,2,1`);
    writeFileSync(plain, ['timestamp,open,high,low,close,volume', ...rows, ''].join('\n'));
    const kline = join(tempDir(), 'kline.csv');
    const open = 1767571200000 + 3 * 3_600_000;
    writeFileSync(kline, `${open},2,3,1,2,1,${open + 3_599_999},2,1,0.5,1,0\n`);
    const out = join(tempDir(), 'candles');
    const summary = await importHistory({
      kind: 'candles',
      market,
      files: [plain, kline],
      out,
      now,
    });
    expect(summary).toMatchObject({ timeframe: '1h', snapshots: 4 });
    expect((await candlesOf(out)).map((row) => row[0])).toEqual(
      [0, 1, 2, 3].map((h) => 1767571200000 + h * 3_600_000),
    );
  });

  it('a missing 1m row between the first two does not make the file 2m', async () => {
    const file = join(tempDir(), 'gap.csv');
    const minutes = [0, 2, 3, 4, 5].map((m) => `${1767571200 + m * 60},2,3,1,2,1`);
    writeFileSync(file, ['timestamp,open,high,low,close,volume', ...minutes, ''].join('\n'));
    const out = join(tempDir(), 'candles');
    const summary = await importHistory({ kind: 'candles', market, files: [file], out, now });
    expect(summary).toMatchObject({ timeframe: '1m', snapshots: 5 });
  });

  it('the timeframe comes from the gaps: 1h candles with a missing hour', async () => {
    const file = join(tempDir(), 'h.csv');
    writeFileSync(
      file,
      'timestamp,open,high,low,close,volume\n1767571200,1,2,1,2,1\n1767574800,2,3,1,1,1\n1767582000,1,1,1,1,0\n',
    );
    const out = join(tempDir(), 'candles');
    const summary = await importHistory({ kind: 'candles', market, files: [file], out, now });
    expect(summary.timeframe).toBe('1h');
    expect((await candlesOf(out)).map((row) => row[0])).toEqual([
      1767571200000, 1767574800000, 1767582000000,
    ]);
  });

  it('a changed byte in a candle file is refused naming file:line', async () => {
    const out = join(tempDir(), 'candles');
    const summary = await importHistory({
      kind: 'candles',
      market,
      files: [join(FIXTURES, 'candles.csv')],
      out,
      now,
    });
    const path = summary.recording[0] as string;
    const { gunzipSync } = await import('node:zlib');
    const text = gunzipSync(readFileSync(path)).toString('utf8').replace('2505.5', '2505.6');
    writeFileSync(path, gzipSync(text));
    await expect(candlesOf(out)).rejects.toThrow(`${path}:4: the line does not match its checksum`);
  });
});
