/**
 * `quanta import` (issue 28): each recognised layout's sample under test/fixtures/history/
 * imports into a recording that reads back with exactly its rows, and a corpus of broken inputs
 * is refused naming file:line, or with `--on-bad skip` counted by kind.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isQuantaError } from '../../../src/errors/index.ts';
import {
  importHistory,
  readMarketRules,
  type ImportOptions,
} from '../../../src/market/history/index.ts';
import { readRecording } from '../../../src/market/recording/index.ts';
import type { Snapshot } from '../../../src/market/snapshot.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const FIXTURES = join(ROOT, 'test/fixtures/history');
const { market } = await readMarketRules(join(FIXTURES, 'eth-usd.yaml'));
const tempDir = tempDirs('quanta-import-');
const now = (): number => Date.UTC(2026, 10, 26);

async function importFiles(
  kind: ImportOptions['kind'],
  files: string[],
  extra: Partial<ImportOptions> = {},
): Promise<{ summary: Awaited<ReturnType<typeof importHistory>>; snapshots: Snapshot[] }> {
  const out = join(tempDir(), 'rec');
  const summary = await importHistory({ kind, market, files, out, now, ...extra });
  const snapshots: Snapshot[] = [];
  for await (const snapshot of readRecording(out, { onWarning: (w) => expect.fail(w.message) }))
    snapshots.push(snapshot);
  return { summary, snapshots };
}

/** Each snapshot as [takenAt, bids, asks] with levels as "price@size". */
function tops(snapshots: readonly Snapshot[]): [number, string[], string[]][] {
  return snapshots.map((s) => {
    const quote = s.quotes?.get(market.id);
    const side = (levels: readonly { price: string; quantity: string }[] = []): string[] =>
      levels.map((l) => `${l.price}@${l.quantity}`);
    return [s.takenAt, side(quote?.bids), side(quote?.asks)];
  });
}

describe('each layout imports and reads back exactly', () => {
  it('generic quotes (ISO times)', async () => {
    const { summary, snapshots } = await importFiles('quotes', [join(FIXTURES, 'quotes.csv')]);
    expect(summary).toMatchObject({ layouts: ['quotes'], rows: 4, snapshots: 4, superseded: 0 });
    expect(tops(snapshots)).toEqual([
      [1767571200000, ['2500.1@1.5'], ['2500.2@2']],
      [1767571201000, ['2500.2@1.2'], ['2500.3@0.8']],
      [1767571202000, ['2500@3'], ['2500.15@1']],
      [1767571203000, ['2499.9@2.5'], ['2500.05@1.1']],
    ]);
    expect(snapshots.map((s) => [s.seq, s.markets.get(1)?.symbol])).toEqual([
      [1, 'ETH-USD'],
      [2, 'ETH-USD'],
      [3, 'ETH-USD'],
      [4, 'ETH-USD'],
    ]);
    expect(snapshots[0]?.markets.get(1)).toEqual(market);
  });

  it('book-ticker dump (ms, transaction time)', async () => {
    const { summary, snapshots } = await importFiles('quotes', [join(FIXTURES, 'book-ticker.csv')]);
    expect(summary.layouts).toEqual(['book-ticker']);
    expect(tops(snapshots)).toEqual([
      [1767571200000, ['2500.1@1.5'], ['2500.2@2']],
      [1767571200250, ['2500.2@1.2'], ['2500.3@0.8']],
      [1767571200500, ['2500.2@1.1'], ['2500.3@0.8']],
    ]);
  });

  it('book-ticker rows sharing a millisecond are updates of it: the last one is its snapshot, counted', async () => {
    // Exchange dumps stamp several updates with one transaction time: they were refused as
    // duplicates, and with --on-bad skip the first (stale) quote of the millisecond was kept.
    const file = join(tempDir(), 'ticker.csv');
    writeFileSync(
      file,
      [
        'update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time',
        '100,2500.10,1.500,2500.20,2.000,1767571200000,1767571200003',
        '101,2500.20,1.200,2500.30,0.800,1767571200000,1767571200003',
        '102,2500.30,1.000,2500.40,0.500,1767571200250,1767571200252',
        '102,2500.30,1.000,2500.40,0.500,1767571200250,1767571200252',
        '',
      ].join('\n'),
    );
    const { summary, snapshots } = await importFiles('quotes', [file], { onBad: 'skip' });
    expect(summary).toMatchObject({ rows: 4, snapshots: 2, superseded: 1 });
    // The same row twice is still a duplicate.
    expect(summary.skipped.duplicate).toBe(1);
    expect(tops(snapshots)).toEqual([
      [1767571200000, ['2500.2@1.2'], ['2500.3@0.8']],
      [1767571200250, ['2500.3@1'], ['2500.4@0.5']],
    ]);
  });

  it('Tardis quotes (µs): rows of one millisecond give its last row, counted', async () => {
    const { summary, snapshots } = await importFiles('quotes', [
      join(FIXTURES, 'tardis-quotes.csv'),
    ]);
    expect(summary).toMatchObject({
      layouts: ['tardis-quotes'],
      rows: 3,
      snapshots: 2,
      superseded: 1,
      symbol: 'ETHUSDT',
    });
    expect(tops(snapshots)).toEqual([
      [1767571200000, ['2500.1@1.5'], ['2500.2@1.9']],
      [1767571200001, ['2500.2@1.2'], ['2500.3@0.8']],
    ]);
  });

  it('Tardis book_snapshot_3 (a shallower book leaves its last levels empty)', async () => {
    const { summary, snapshots } = await importFiles('book', [
      join(FIXTURES, 'tardis-book-snapshot-3.csv'),
    ]);
    expect(summary.layouts).toEqual(['tardis-book-snapshot']);
    expect(tops(snapshots)).toEqual([
      [1767571200000, ['2500.1@1.5', '2500@3', '2499.9@6'], ['2500.2@2', '2500.3@4', '2500.4@5']],
      [1767571201000, ['2500.2@1.2', '2500.1@3'], ['2500.3@0.8', '2500.4@4']],
    ]);
  });

  it('gzip files, several in time order, with a --columns mapping', async () => {
    const dir = tempDir();
    const a = join(dir, 'a.csv.gz');
    const b = join(dir, 'b.csv');
    writeFileSync(a, gzipSync('t,b,bs,a,as\n1767571200,2500.10,1,2500.20,1\n'));
    writeFileSync(b, 't,b,bs,a,as\n1767571260,2500.20,1,2500.30,1\n');
    const mapping = new Map([
      ['time', 't'],
      ['bid', 'b'],
      ['bidSize', 'bs'],
      ['ask', 'a'],
      ['askSize', 'as'],
    ]);
    const { summary, snapshots } = await importFiles('quotes', [a, b], { mapping });
    expect(summary.layouts).toEqual(['quotes', 'quotes']);
    expect(tops(snapshots).map(([t]) => t)).toEqual([1767571200000, 1767571260000]);
  });
});

describe('broken inputs: an error naming file:line, or a counted skip', () => {
  const HEADER = 'timestamp,bid,bid_size,ask,ask_size';
  const GOOD = [
    '1767571200000,2500.10,1,2500.20,1',
    '1767571201000,2500.10,1,2500.20,1',
    '1767571202000,2500.10,1,2500.20,1',
  ];
  const cases: { name: string; row: string; kind: string; message: string }[] = [
    {
      name: 'wrong column count',
      row: '1767571201500,2500.10,1,2500.20',
      kind: 'malformed',
      message: 'expected 5 fields (as the quotes layout has), got 4',
    },
    {
      name: 'non-numeric',
      row: '1767571201500,2500.10,one,2500.20,1',
      kind: 'malformed',
      message: 'bid size "one" is not a plain decimal',
    },
    {
      name: 'time going back',
      row: '1767571200500,2500.10,1,2500.20,1',
      kind: 'time-back',
      message: 'time goes back to 2026-01-05T00:00:00.500Z, before the row at',
    },
    {
      name: 'a duplicate',
      row: '1767571201000,2500.10,1,2500.20,1',
      kind: 'duplicate',
      message: 'time 2026-01-05T00:00:01.000Z again (the row at',
    },
    {
      name: 'an off-grid price',
      row: '1767571201500,2500.101,1,2500.20,1',
      kind: 'off-grid',
      message: "bid price 2500.101 is not on the market's price tick 0.01",
    },
  ];

  for (const c of cases) {
    it(`${c.name}: refused at file:line, or skipped and counted`, async () => {
      const file = join(tempDir(), 'q.csv');
      // The bad row is line 4: after the header and two good rows.
      writeFileSync(file, [HEADER, GOOD[0], GOOD[1], c.row, GOOD[2], ''].join('\n'));
      const out = join(tempDir(), 'rec');
      const failed = await importHistory({ kind: 'quotes', market, files: [file], out, now }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isQuantaError(failed, 'QUANTA_HISTORY_INVALID')).toBe(true);
      expect((failed as Error).message).toContain(`${file}:4: ${c.message}`);
      // Nothing half-imported is left to be backtested.
      await expect(readRecording(out).next()).rejects.toThrow(/no recording files|no such file/);
      const { summary, snapshots } = await importFiles('quotes', [file], { onBad: 'skip' });
      expect(summary.skipped).toMatchObject({ [c.kind]: 1 });
      expect(Object.values(summary.skipped).reduce((a, b) => a + b)).toBe(1);
      expect(summary.examples).toEqual([expect.objectContaining({ file, line: 4, kind: c.kind })]);
      expect(snapshots.map((s) => s.takenAt)).toEqual([
        1767571200000, 1767571201000, 1767571202000,
      ]);
    });
  }

  it("another market's rows mixed in: refused, or skipped and counted", async () => {
    const file = join(tempDir(), 't.csv');
    const lines = readFileSync(join(FIXTURES, 'tardis-quotes.csv'), 'utf8').split('\n');
    lines.splice(
      2,
      0,
      'binance-futures,BTCUSDT,1767571200000300,1767571200001500,1.000,98000.10,98000.00,2.000',
    );
    writeFileSync(file, lines.join('\n'));
    await expect(
      importHistory({ kind: 'quotes', market, files: [file], out: join(tempDir(), 'r'), now }),
    ).rejects.toThrow(
      `${file}:3: a row of "BTCUSDT", not of "ETHUSDT" (the market imported as ETH-USD)`,
    );
    const { summary } = await importFiles('quotes', [file], { onBad: 'skip' });
    expect(summary.skipped['other-market']).toBe(1);
    // The rules file can name the source symbol: then the first row is checked too.
    await expect(
      importHistory({
        kind: 'quotes',
        market,
        sourceSymbol: 'ETHUSD',
        files: [join(FIXTURES, 'tardis-quotes.csv')],
        out: join(tempDir(), 'r'),
        now,
      }),
    ).rejects.toThrow(/tardis-quotes\.csv:2: a row of "ETHUSDT", not of "ETHUSD"/);
  });

  it('a truncated gzip file: an error naming the file and where it ends, nothing kept', async () => {
    const file = join(tempDir(), 'q.csv.gz');
    const rows = Array.from(
      { length: 2000 },
      (_, i) => `${1767571200000 + i * 1000},2500.10,1,2500.20,1`,
    );
    const whole = gzipSync([HEADER, ...rows, ''].join('\n'));
    writeFileSync(file, whole.subarray(0, whole.length - 100));
    const out = join(tempDir(), 'rec');
    await expect(
      importHistory({ kind: 'quotes', market, files: [file], out, now }),
    ).rejects.toThrow(
      new RegExp(
        `^${file}:\\d+: the gzip stream ends early \\(the file is truncated\\) after line \\d+`,
      ),
    );
    await expect(readRecording(out).next()).rejects.toThrow(/no recording files|no such file/);
  });

  it('a header no layout knows: says which layouts were tried', async () => {
    const file = join(tempDir(), 'q.csv');
    writeFileSync(file, 'when,b,a\n1,2,3\n');
    await expect(
      importHistory({ kind: 'quotes', market, files: [file], out: join(tempDir(), 'r'), now }),
    ).rejects.toThrow(`${file}:1: header "when,b,a" is no quotes layout quanta knows`);
  });

  it('an output folder that already holds a recording is refused', async () => {
    const out = join(tempDir(), 'rec');
    const files = [join(FIXTURES, 'quotes.csv')];
    await importHistory({ kind: 'quotes', market, files, out, now });
    await expect(importHistory({ kind: 'quotes', market, files, out, now })).rejects.toThrow(
      /already holds a recording/,
    );
  });
});
