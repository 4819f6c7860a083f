/**
 * The pure parts of `quanta import`: timestamps in every unit, CSV fields, layout detection,
 * `--columns`, row checks and market rules files, each with the message a user reads.
 */
import { describe, expect, it } from 'vitest';
import { splitCsvLine } from '../../../../src/market/history/csv-fields.ts';
import {
  parseColumnMapping,
  planColumns,
  type ColumnPlan,
} from '../../../../src/market/history/layouts.ts';
import { readBookRow, readCandleRow } from '../../../../src/market/history/history-row.ts';
import { parseMarketRules } from '../../../../src/market/history/market-rules.ts';
import { parseTimestamp } from '../../../../src/market/history/timestamp.ts';

const RULES = `symbol: ETH-USD
amountExpo: 3
priceExpo: 2
minAmount: '0.001'
maxPositionValue: '1000000'
makerFee: 0.0002
takerFee: '0.0005'
`;
const { market } = parseMarketRules(RULES, 'm.yaml');

describe('parseTimestamp', () => {
  it('reads s, ms, µs and ns by their digits, and ISO 8601 with a zone, to the same ms', () => {
    const ms = 1767571200123;
    expect(parseTimestamp('1767571200')).toEqual({
      ms: 1767571200000,
      exact: 1767571200000000000n,
    });
    expect(parseTimestamp('1767571200123')).toEqual({ ms, exact: 1767571200123000000n });
    expect(parseTimestamp('1767571200123456')).toEqual({ ms, exact: 1767571200123456000n });
    expect(parseTimestamp('1767571200123456789')).toEqual({ ms, exact: 1767571200123456789n });
    expect(parseTimestamp('2026-01-05T00:00:00.123Z')).toEqual({ ms, exact: 1767571200123000000n });
    expect(parseTimestamp('2026-01-05 02:00:00.123456+02:00')).toEqual({
      ms,
      exact: 1767571200123456000n,
    });
    expect(parseTimestamp('2026-01-05T02:00:00.123+0200')).toMatchObject({ ms });
  });

  it('refuses what it would have to guess', () => {
    expect(parseTimestamp('2026-01-05T00:00:00')).toMatch(/ISO 8601 with a zone/);
    expect(parseTimestamp('1767571200.5')).toMatch(/expected seconds, ms, µs or ns/);
    expect(parseTimestamp('176757120')).toMatch(/expected 10 \(s\), 13 \(ms\), 16 \(µs\)/);
    expect(parseTimestamp('2026-02-30T00:00:00Z')).toMatch(/not a valid date/);
    expect(parseTimestamp('2026-01-05T24:00:00Z')).toMatch(/not a valid date/);
    expect(parseTimestamp('2026-13-05T00:00:00Z')).toMatch(/not a valid date/);
  });
});

describe('splitCsvLine', () => {
  it('splits plain and quoted fields', () => {
    expect(splitCsvLine('a,b,,c')).toEqual(['a', 'b', '', 'c']);
    expect(splitCsvLine('"a,1","b ""x""",c')).toEqual(['a,1', 'b "x"', 'c']);
    expect(splitCsvLine('"a')).toBe('a quoted field is not closed');
    expect(splitCsvLine('"a"b')).toBe('a quoted field is followed by "b"');
  });
});

describe('planColumns', () => {
  const plan = (kind: 'candles' | 'quotes' | 'book', header: string): ColumnPlan | string =>
    planColumns(kind, header.split(','));

  it('recognises each layout by its header', () => {
    expect(plan('quotes', 'timestamp,bid,bid_size,ask,ask_size')).toMatchObject({
      layout: 'quotes',
      header: true,
      bids: [{ price: 1, size: 2 }],
      asks: [{ price: 3, size: 4 }],
    });
    expect(
      plan(
        'quotes',
        'update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time',
      ),
    ).toMatchObject({ layout: 'book-ticker', time: 5 });
    expect(
      plan(
        'quotes',
        'exchange,symbol,timestamp,local_timestamp,ask_amount,ask_price,bid_price,bid_amount',
      ),
    ).toMatchObject({ layout: 'tardis-quotes', time: 2, symbol: 1, asks: [{ price: 5, size: 4 }] });
    const book = plan(
      'book',
      'exchange,symbol,timestamp,local_timestamp,asks[0].price,asks[0].amount,bids[0].price,bids[0].amount,asks[1].price,asks[1].amount,bids[1].price,bids[1].amount',
    );
    expect(book).toMatchObject({ layout: 'tardis-book-snapshot', time: 2 });
    expect(typeof book !== 'string' && book.bids.length).toBe(2);
    expect(
      plan('book', 'time,bids[0].price,bids[0].size,asks[0].price,asks[0].size'),
    ).toMatchObject({ layout: 'book', time: 0 });
    expect(plan('candles', 'Date,Open,High,Low,Close,Volume')).toMatchObject({
      layout: 'candles',
      ohlcv: [1, 2, 3, 4, 5],
    });
    expect(
      plan('candles', '1767571200000,2500.1,2501,2499,2500.5,12.5,1767571259999,1,2,3,4,0'),
    ).toMatchObject({ layout: 'kline', header: false, closeTime: 6 });
  });

  it('maps unknown names with --columns, and says what it wanted otherwise', () => {
    const mapping = parseColumnMapping('quotes', 'time=t,bid=b,bidSize=bs,ask=a,askSize=as');
    expect(typeof mapping).not.toBe('string');
    expect(
      planColumns('quotes', ['t', 'b', 'bs', 'a', 'as'], mapping as Map<string, string>),
    ).toMatchObject({ layout: 'quotes', time: 0, asks: [{ price: 3, size: 4 }] });
    expect(plan('quotes', 't,b,bs,a,as')).toMatch(
      /^header "t,b,bs,a,as" is no quotes layout quanta knows \(book-ticker, tardis-quotes, quotes\): name the columns time \(timestamp\/time\/ts\), bid/,
    );
    expect(parseColumnMapping('quotes', 'open=x')).toBe(
      '--columns: "open" is no quotes column role (roles: time, bid, bidSize, ask, askSize, symbol)',
    );
    expect(parseColumnMapping('quotes', 'time')).toMatch(/expected role=name pairs/);
  });
});

describe('row checks', () => {
  const quotes = planColumns(
    'quotes',
    'timestamp,bid,bid_size,ask,ask_size'.split(','),
  ) as ColumnPlan;
  const row = (text: string): unknown => readBookRow(text.split(','), quotes, market);

  it('reads a row exactly', () => {
    expect(row('1767571200000,2500.10,1.5,2500.20,2')).toEqual({
      time: { ms: 1767571200000, exact: 1767571200000000000n },
      symbol: undefined,
      bids: [{ priceX18: 2500_100000000000000000n, sizeX18: 1_500000000000000000n }],
      asks: [{ priceX18: 2500_200000000000000000n, sizeX18: 2_000000000000000000n }],
    });
  });

  it('refuses each fault with its kind and a reason naming the column', () => {
    expect(row('1767571200000,2500.10,1.5,2500.20')).toEqual({
      kind: 'malformed',
      reason: 'expected 5 fields (as the quotes layout has), got 4',
    });
    expect(row('1767571200000,abc,1.5,2500.20,2')).toEqual({
      kind: 'malformed',
      reason:
        'bid price "abc" is not a plain decimal (digits, an optional fraction of at most 18 digits)',
    });
    expect(row('1767571200000,2500.105,1.5,2500.20,2')).toEqual({
      kind: 'off-grid',
      reason: "bid price 2500.105 is not on the market's price tick 0.01",
    });
    expect(row('1767571200000,2500.10,1.5001,2500.20,2')).toEqual({
      kind: 'off-grid',
      reason: "bid size 1.5001 is not on the market's amount step 0.001",
    });
    expect(row('1767571200000,2500.30,1.5,2500.20,2')).toEqual({
      kind: 'crossed',
      reason: 'crossed book: bid 2500.3 is not below ask 2500.2',
    });
    expect(row('1767571200000,2500.10,0,2500.20,2')).toMatchObject({ reason: 'bid size is 0' });
    // A price of 0 is a placeholder, not a quote: a backtest would fill at it.
    expect(row('1767571200000,0,1.5,2500.20,2')).toEqual({
      kind: 'malformed',
      reason: 'bid price is 0: no market trades at a price of 0',
    });
  });

  it('checks candles: OHLC on the grid, high and low holding open and close', () => {
    const candles = planColumns(
      'candles',
      'time,open,high,low,close,volume'.split(','),
    ) as ColumnPlan;
    const candle = (text: string): unknown => readCandleRow(text.split(','), candles, market);
    expect(candle('1767571200,2500.1,2501,2499,2500.5,12.25')).toMatchObject({
      openX18: 2500_100000000000000000n,
      volumeX18: 12_250000000000000000n,
    });
    expect(candle('1767571200,2500.1,2500.2,2499,2500.5,1')).toEqual({
      kind: 'malformed',
      reason: 'high 2500.2 and low 2499 do not hold open 2500.1 and close 2500.5',
    });
    expect(candle('1767571200,2500.1,2501,2499.001,2500.5,1')).toMatchObject({ kind: 'off-grid' });
    // A gap a source filled with zeros: refused, not a candle at 0 (a volume of 0 is fine).
    expect(candle('1767571260,0,0,0,0,0')).toEqual({
      kind: 'malformed',
      reason: 'open is 0: no market trades at a price of 0',
    });
    expect(candle('1767571260,2500.1,2501,0,2500.5,1')).toMatchObject({
      reason: 'low is 0: no market trades at a price of 0',
    });
    expect(candle('1767571260,2500.1,2500.1,2500.1,2500.1,0')).toMatchObject({ volumeX18: 0n });
  });
});

describe('parseMarketRules', () => {
  it('builds the market, with defaults from the symbol', () => {
    expect(market).toMatchObject({
      id: 1,
      symbol: 'ETH-USD',
      baseAsset: 'ETH',
      quoteAsset: 'USD',
      amountExpo: 3,
      priceExpo: 2,
      minAmountX18: 1_000000000000000n,
      makerFeeX18: 200000000000000n,
      initialMarginX18: 50000000000000000n,
    });
  });

  it('names the file and key of a bad rule', () => {
    expect(() => parseMarketRules(`${RULES}tick: 1\n`, 'm.yaml')).toThrow(
      /^m\.yaml tick: unknown key \(known: symbol, id,/,
    );
    expect(() =>
      parseMarketRules(RULES.replace('priceExpo: 2', 'priceExpo: 2.5'), 'm.yaml'),
    ).toThrow(
      'm.yaml priceExpo: expected an integer (price tick 10^-priceExpo (required)), got 2.5',
    );
    expect(() =>
      parseMarketRules(RULES.replace("takerFee: '0.0005'", 'takerFee: 5e-4'), 'm.yaml'),
    ).toThrow(
      'm.yaml takerFee: expected a plain decimal ≥ 0 (taker fee as a fraction, like 0.0005 (required)), got "5e-4"',
    );
    expect(() => parseMarketRules('symbol: [', 'm.yaml')).toThrow(/^m\.yaml: not YAML or JSON/);
  });
});
