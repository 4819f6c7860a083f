/**
 * Issue 28, the broken-input corpus for every layout quanta imports: a truncated gzip file,
 * a row with the wrong column count, a non-numeric field, a time going back, a duplicate, an
 * off-grid price and a different market's row mixed in. Each is refused naming `file:line`
 * (`onBad: 'fail'`), or with `onBad: 'skip'` dropped, counted by kind and listed with its
 * `file:line`, the other rows imported. The kline and book-ticker dumps have no symbol column:
 * a different market's rows there can only be caught by the other checks (its prices off the
 * grid, its times out of order).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isQuantaError } from '../../../src/errors/index.ts';
import {
  importHistory,
  readMarketRules,
  type ImportOptions,
} from '../../../src/market/history/index.ts';
import { ROOT } from '../../helpers/strategy-harness.ts';
import { tempDirs } from '../../helpers/temp-dirs.ts';

const { market } = await readMarketRules(join(ROOT, 'test/fixtures/history/eth-usd.yaml'));
const tempDir = tempDirs('quanta-broken-corpus-');
const now = (): number => Date.UTC(2026, 10, 26);
const T0 = 1767571200000;

interface Layout {
  readonly name: string;
  readonly kind: ImportOptions['kind'];
  readonly header: string | undefined;
  /** Time step between rows (ms). */
  readonly step: number;
  /** The fields of row `i` (time T0 + i * step) of market `symbol`. */
  readonly row: (i: number, symbol: string) => string[];
  /** Index of a price field, and of the symbol field (none: the layout has none). */
  readonly price: number;
  readonly symbol: number | undefined;
}

const ms = (i: number, step: number): number => T0 + i * step;

const LAYOUTS: readonly Layout[] = [
  {
    name: 'candles',
    kind: 'candles',
    header: 'timestamp,symbol,open,high,low,close,volume',
    step: 60_000,
    row: (i, s) => [`${ms(i, 60_000)}`, s, '2500.00', '2501.00', '2499.00', '2500.50', '1.5'],
    price: 2,
    symbol: 1,
  },
  {
    name: 'kline',
    kind: 'candles',
    header: undefined,
    step: 60_000,
    row: (i) => {
      const t = ms(i, 60_000);
      return [
        `${t}`,
        '2500.00',
        '2501.00',
        '2499.00',
        '2500.50',
        '1.500',
        `${t + 59_999}`,
        '3750',
        '10',
        '0.7',
        '1750',
        '0',
      ];
    },
    price: 1,
    symbol: undefined,
  },
  {
    name: 'book-ticker',
    kind: 'quotes',
    header:
      'update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time',
    step: 1000,
    row: (i) => [
      `${100 + i}`,
      '2500.10',
      '1.500',
      '2500.20',
      '2.000',
      `${ms(i, 1000)}`,
      `${ms(i, 1000) + 3}`,
    ],
    price: 1,
    symbol: undefined,
  },
  {
    name: 'tardis-quotes',
    kind: 'quotes',
    header: 'exchange,symbol,timestamp,local_timestamp,ask_amount,ask_price,bid_price,bid_amount',
    step: 1000,
    row: (i, s) => [
      'binance-futures',
      s,
      `${ms(i, 1000) * 1000}`,
      `${ms(i, 1000) * 1000 + 500}`,
      '2.000',
      '2500.20',
      '2500.10',
      '1.500',
    ],
    price: 6,
    symbol: 1,
  },
  {
    name: 'quotes',
    kind: 'quotes',
    header: 'timestamp,symbol,bid,bid_size,ask,ask_size',
    step: 1000,
    row: (i, s) => [`${ms(i, 1000)}`, s, '2500.10', '1', '2500.20', '1'],
    price: 2,
    symbol: 1,
  },
  {
    name: 'tardis-book-snapshot',
    kind: 'book',
    header:
      'exchange,symbol,timestamp,local_timestamp,asks[0].price,asks[0].amount,bids[0].price,bids[0].amount,asks[1].price,asks[1].amount,bids[1].price,bids[1].amount',
    step: 1000,
    row: (i, s) => [
      'binance-futures',
      s,
      `${ms(i, 1000) * 1000}`,
      `${ms(i, 1000) * 1000 + 900}`,
      '2500.20',
      '2.000',
      '2500.10',
      '1.500',
      '2500.30',
      '4.000',
      '2500.00',
      '3.000',
    ],
    price: 6,
    symbol: 1,
  },
  {
    name: 'book',
    kind: 'book',
    header: 'timestamp,symbol,bids[0].price,bids[0].amount,asks[0].price,asks[0].amount',
    step: 1000,
    row: (i, s) => [`${ms(i, 1000)}`, s, '2500.10', '1.5', '2500.20', '2'],
    price: 2,
    symbol: 1,
  },
];

const SYMBOL = 'ETHUSDT';

/** A broken row: its fields from the layout, the kind it is refused as, and the reason's text. */
interface Case {
  readonly name: string;
  readonly bad: (layout: Layout) => string[];
  readonly kind: string;
  readonly message: (layout: Layout) => RegExp;
  readonly applies?: (layout: Layout) => boolean;
}

const CASES: readonly Case[] = [
  {
    name: 'wrong column count',
    bad: (l) => l.row(2, SYMBOL).slice(0, -1),
    kind: 'malformed',
    message: (l) =>
      new RegExp(
        `expected ${l.row(0, SYMBOL).length} fields \\(as the ${l.name} layout has\\), got ${l.row(0, SYMBOL).length - 1}`,
      ),
  },
  {
    name: 'non-numeric',
    bad: (l) => l.row(2, SYMBOL).map((f, i) => (i === l.price ? 'abc' : f)),
    kind: 'malformed',
    message: () => /"abc" is not a plain decimal/,
  },
  {
    name: 'time going back',
    bad: (l) => l.row(0, SYMBOL),
    kind: 'time-back',
    message: () => /time goes back to 2026-01-05T00:00:00\.000Z, before the row at .*:3/,
  },
  {
    name: 'a duplicate',
    bad: (l) => l.row(1, SYMBOL),
    kind: 'duplicate',
    message: () => /again \(the row at .*:3 has it\): a duplicated row/,
  },
  {
    name: 'an off-grid price',
    bad: (l) => l.row(2, SYMBOL).map((f, i) => (i === l.price ? '2500.105' : f)),
    kind: 'off-grid',
    message: () => /2500\.105 is not on the market's price tick 0\.01/,
  },
  {
    name: "another market's row",
    bad: (l) => l.row(2, 'BTCUSDT'),
    kind: 'other-market',
    message: () => /a row of "BTCUSDT", not of "ETHUSDT" \(the market imported as ETH-USD\)/,
    applies: (l) => l.symbol !== undefined,
  },
];

function fileOf(layout: Layout, rows: readonly string[][], gzip = false): string {
  const lines = [
    ...(layout.header === undefined ? [] : [layout.header]),
    ...rows.map((r) => r.join(',')),
  ];
  const path = join(tempDir(), `${layout.name}.csv${gzip ? '.gz' : ''}`);
  const text = `${lines.join('\n')}\n`;
  writeFileSync(path, gzip ? gzipSync(text) : text);
  return path;
}

const run = (layout: Layout, file: string, onBad: 'fail' | 'skip') =>
  importHistory({
    kind: layout.kind,
    market,
    files: [file],
    out: join(tempDir(), 'out'),
    now,
    onBad,
  });

for (const layout of LAYOUTS)
  describe(`${layout.name} layout`, () => {
    // Headerless files (kline) hold their bad row one line higher.
    const at = layout.header === undefined ? 3 : 4;
    for (const c of CASES) {
      if (c.applies?.(layout) === false) continue;
      it(`${c.name}: refused at file:line, or skipped and counted`, async () => {
        const rows = [
          layout.row(0, SYMBOL),
          layout.row(1, SYMBOL),
          c.bad(layout),
          layout.row(3, SYMBOL),
        ];
        const file = fileOf(layout, rows);
        const failed = await run(layout, file, 'fail').then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isQuantaError(failed, 'QUANTA_HISTORY_INVALID')).toBe(true);
        const message = (failed as Error).message;
        expect(message.startsWith(`${file}:${at}: `)).toBe(true);
        // Lines named relative to the file: the row before is at `at - 1`.
        expect(message.replace(`${file}:${at - 1}`, 'PREVIOUS:3')).toMatch(
          c.message(layout).source.includes('.*:3')
            ? new RegExp(c.message(layout).source.replace('.*:3', 'PREVIOUS:3'))
            : c.message(layout),
        );
        const summary = await run(layout, file, 'skip');
        expect(summary.skipped).toMatchObject({ [c.kind]: 1 });
        expect(Object.values(summary.skipped).reduce((a, b) => a + b)).toBe(1);
        expect(summary.examples).toEqual([
          expect.objectContaining({ file, line: at, kind: c.kind }),
        ]);
        expect(summary.snapshots).toBe(3);
        expect([summary.firstMs, summary.lastMs]).toEqual([T0, ms(3, layout.step)]);
      });
    }

    it('a truncated gzip file: an error naming the file and where it ends, nothing kept', async () => {
      const rows = Array.from({ length: 3000 }, (_, i) => layout.row(i, SYMBOL));
      const file = fileOf(layout, rows, true);
      const { readFileSync } = await import('node:fs');
      const whole = readFileSync(file);
      writeFileSync(file, whole.subarray(0, whole.length - 100));
      await expect(run(layout, file, 'skip')).rejects.toThrow(
        new RegExp(
          `^${file.replaceAll('.', '\\.')}:\\d+: the gzip stream ends early \\(the file is truncated\\) after line \\d+`,
        ),
      );
    });
  });
