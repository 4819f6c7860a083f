/**
 * The CSV layouts `quanta import` recognises, one registry: which columns hold the time, the
 * prices and the sizes, found by the header's names (or by a `--columns` mapping). Each layout
 * has a sample under test/fixtures/history/ and is described in docs/recording-format.md
 * ("Importing history").
 */

/** What a history file holds. */
export type HistoryKind = 'candles' | 'quotes' | 'book';

/** The kinds, as the CLI names them. */
export const HISTORY_KINDS: readonly HistoryKind[] = ['candles', 'quotes', 'book'];

/** Where one book level's price and size are. */
export interface LevelColumns {
  readonly price: number;
  readonly size: number;
}

/** Which column (0-based) holds what, for one file. */
export interface ColumnPlan {
  /** The layout's name, for the summary. */
  readonly layout: string;
  readonly kind: HistoryKind;
  /** The first line is a header (not data). */
  readonly header: boolean;
  /** Fields every row must have. */
  readonly columns: number;
  readonly time: number;
  /** A column naming the market (Tardis `symbol`), checked against the market's. */
  readonly symbol: number | undefined;
  /** Candles: open, high, low, close, volume. */
  readonly ohlcv: readonly [number, number, number, number, number] | undefined;
  /** Candles: the bar's close time column, when the layout has one (kline dumps). */
  readonly closeTime: number | undefined;
  /** Quotes and books: levels best first (quotes: one). */
  readonly bids: readonly LevelColumns[];
  readonly asks: readonly LevelColumns[];
}

/** Column roles a `--columns` mapping may name (`time=ts,bid=best_bid,…`). */
export const ROLES: Readonly<Record<HistoryKind, readonly string[]>> = {
  candles: ['time', 'open', 'high', 'low', 'close', 'volume', 'symbol'],
  quotes: ['time', 'bid', 'bidSize', 'ask', 'askSize', 'symbol'],
  book: ['time', 'symbol'],
};

// Header names each role goes by in generic files (lower-cased, compared after trimming).
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  time: ['timestamp', 'time', 'ts', 'date', 'datetime', 'open_time', 'opentime'],
  open: ['open', 'o'],
  high: ['high', 'h'],
  low: ['low', 'l'],
  close: ['close', 'c'],
  volume: ['volume', 'vol', 'v'],
  bid: ['bid', 'bid_price', 'bidprice', 'best_bid', 'best_bid_price'],
  bidSize: ['bid_size', 'bidsize', 'bid_qty', 'bid_amount', 'best_bid_qty', 'bid_quantity'],
  ask: ['ask', 'ask_price', 'askprice', 'best_ask', 'best_ask_price'],
  askSize: ['ask_size', 'asksize', 'ask_qty', 'ask_amount', 'best_ask_qty', 'ask_quantity'],
  symbol: ['symbol', 'market', 'instrument'],
};

/** The exchange kline dump's columns (Binance `data.binance.vision` klines). */
const KLINE_COLUMNS = [
  'open_time',
  'open',
  'high',
  'low',
  'close',
  'volume',
  'close_time',
  'quote_volume',
  'count',
  'taker_buy_volume',
  'taker_buy_quote_volume',
  'ignore',
];

/** A layout: its name, a line saying what it is, and how it finds its columns. */
interface Layout {
  readonly name: string;
  readonly kind: HistoryKind;
  readonly about: string;
  /** The plan for a file whose first line is `first` (split), or undefined if not this layout. */
  plan(first: readonly string[], mapping: ReadonlyMap<string, string>): ColumnPlan | undefined;
}

const lower = (names: readonly string[]): string[] => names.map((n) => n.trim().toLowerCase());

function base(
  layout: string,
  kind: HistoryKind,
  header: boolean,
  columns: number,
  time: number,
): Omit<ColumnPlan, 'ohlcv' | 'closeTime' | 'bids' | 'asks' | 'symbol'> {
  return { layout, kind, header, columns, time };
}

/** The index of a role's column: the mapping's name, else the first alias found. */
function find(
  names: readonly string[],
  role: string,
  mapping: ReadonlyMap<string, string>,
): number | undefined {
  const mapped = mapping.get(role);
  if (mapped !== undefined) {
    const at = names.indexOf(mapped.toLowerCase());
    return at < 0 ? undefined : at;
  }
  for (const alias of ALIASES[role] ?? []) {
    const at = names.indexOf(alias);
    if (at >= 0) return at;
  }
  return undefined;
}

/** Book level columns `bids[0].price`, `bids[0].amount`, … (Tardis names; `size`/`qty` too). */
function levelColumns(names: readonly string[], side: 'bids' | 'asks'): LevelColumns[] {
  const levels: LevelColumns[] = [];
  for (let i = 0; ; i++) {
    const price = names.indexOf(`${side}[${i}].price`);
    const size = ['amount', 'size', 'qty', 'quantity']
      .map((s) => names.indexOf(`${side}[${i}].${s}`))
      .find((at) => at >= 0);
    if (price < 0 || size === undefined) return levels;
    levels.push({ price, size });
  }
}

const isNumeric = (field: string): boolean => /^\d+(\.\d+)?$/.test(field);

const LAYOUTS: readonly Layout[] = [
  {
    name: 'kline',
    kind: 'candles',
    about:
      'exchange kline dump (Binance data.binance.vision): open_time,open,high,low,close,volume,close_time,… with or without that header',
    plan(first) {
      const names = lower(first);
      const headerless = first.length === KLINE_COLUMNS.length && first.every(isNumeric);
      if (!headerless && names.join(',') !== KLINE_COLUMNS.join(',')) return undefined;
      return {
        ...base('kline', 'candles', !headerless, KLINE_COLUMNS.length, 0),
        symbol: undefined,
        ohlcv: [1, 2, 3, 4, 5],
        closeTime: 6,
        bids: [],
        asks: [],
      };
    },
  },
  {
    name: 'book-ticker',
    kind: 'quotes',
    about:
      'exchange book-ticker dump (Binance bookTicker): update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time',
    plan(first) {
      const names = lower(first);
      const at = (name: string): number => names.indexOf(name);
      if (at('update_id') < 0 || at('best_bid_price') < 0 || at('transaction_time') < 0)
        return undefined;
      return {
        ...base('book-ticker', 'quotes', true, names.length, at('transaction_time')),
        symbol: undefined,
        ohlcv: undefined,
        closeTime: undefined,
        bids: [{ price: at('best_bid_price'), size: at('best_bid_qty') }],
        asks: [{ price: at('best_ask_price'), size: at('best_ask_qty') }],
      };
    },
  },
  {
    name: 'tardis-quotes',
    kind: 'quotes',
    about:
      'Tardis quotes export: exchange,symbol,timestamp,local_timestamp,ask_amount,ask_price,bid_price,bid_amount (µs; the exchange timestamp is used)',
    plan(first) {
      const names = lower(first);
      const at = (name: string): number => names.indexOf(name);
      if (at('exchange') < 0 || at('local_timestamp') < 0 || at('ask_amount') < 0) return undefined;
      return {
        ...base('tardis-quotes', 'quotes', true, names.length, at('timestamp')),
        symbol: at('symbol'),
        ohlcv: undefined,
        closeTime: undefined,
        bids: [{ price: at('bid_price'), size: at('bid_amount') }],
        asks: [{ price: at('ask_price'), size: at('ask_amount') }],
      };
    },
  },
  {
    name: 'tardis-book-snapshot',
    kind: 'book',
    about:
      'Tardis book_snapshot_N export: exchange,symbol,timestamp,local_timestamp,asks[0].price,asks[0].amount,bids[0].price,bids[0].amount,… (µs)',
    plan(first) {
      const names = lower(first);
      if (names.indexOf('exchange') < 0 || names.indexOf('local_timestamp') < 0) return undefined;
      const bids = levelColumns(names, 'bids');
      const asks = levelColumns(names, 'asks');
      if (bids.length === 0 || asks.length === 0) return undefined;
      return {
        ...base('tardis-book-snapshot', 'book', true, names.length, names.indexOf('timestamp')),
        symbol: names.indexOf('symbol'),
        ohlcv: undefined,
        closeTime: undefined,
        bids,
        asks,
      };
    },
  },
  {
    name: 'candles',
    kind: 'candles',
    about: 'generic candles: a header naming time, open, high, low, close and volume columns',
    plan(first, mapping) {
      const names = lower(first);
      const cols = ['time', 'open', 'high', 'low', 'close', 'volume'].map((r) =>
        find(names, r, mapping),
      );
      if (cols.some((c) => c === undefined)) return undefined;
      const [time, open, high, low, close, volume] = cols as number[];
      return {
        ...base('candles', 'candles', true, names.length, time as number),
        symbol: find(names, 'symbol', mapping),
        ohlcv: [open as number, high as number, low as number, close as number, volume as number],
        closeTime: undefined,
        bids: [],
        asks: [],
      };
    },
  },
  {
    name: 'quotes',
    kind: 'quotes',
    about: 'generic quotes: a header naming time, bid, bid size, ask and ask size columns',
    plan(first, mapping) {
      const names = lower(first);
      const cols = ['time', 'bid', 'bidSize', 'ask', 'askSize'].map((r) => find(names, r, mapping));
      if (cols.some((c) => c === undefined)) return undefined;
      const [time, bid, bidSize, ask, askSize] = cols as number[];
      return {
        ...base('quotes', 'quotes', true, names.length, time as number),
        symbol: find(names, 'symbol', mapping),
        ohlcv: undefined,
        closeTime: undefined,
        bids: [{ price: bid as number, size: bidSize as number }],
        asks: [{ price: ask as number, size: askSize as number }],
      };
    },
  },
  {
    name: 'book',
    kind: 'book',
    about:
      'generic book snapshots: a time column and bids[i].price, bids[i].amount, asks[i].price, asks[i].amount from i = 0',
    plan(first, mapping) {
      const names = lower(first);
      const time = find(names, 'time', mapping);
      const bids = levelColumns(names, 'bids');
      const asks = levelColumns(names, 'asks');
      if (time === undefined || bids.length === 0 || asks.length === 0) return undefined;
      return {
        ...base('book', 'book', true, names.length, time),
        symbol: find(names, 'symbol', mapping),
        ohlcv: undefined,
        closeTime: undefined,
        bids,
        asks,
      };
    },
  },
];

/** Every layout of a kind, with its one-line description (for help and docs). */
export function layoutsOf(kind: HistoryKind): { name: string; about: string }[] {
  return LAYOUTS.filter((l) => l.kind === kind).map(({ name, about }) => ({ name, about }));
}

/**
 * The plan of a file of `kind` whose first line is `first`: the first layout of that kind that
 * recognises it (specific dumps before the generic layouts).
 *
 * @returns the plan, or a string saying which layouts were tried and what the header lacked.
 */
export function planColumns(
  kind: HistoryKind,
  first: readonly string[],
  mapping: ReadonlyMap<string, string> = new Map(),
): ColumnPlan | string {
  for (const layout of LAYOUTS) {
    if (layout.kind !== kind) continue;
    const plan = layout.plan(first, mapping);
    if (plan !== undefined) return plan;
  }
  const wanted =
    kind === 'book'
      ? 'a time column and bids[0].price, bids[0].amount, asks[0].price, asks[0].amount, …'
      : ROLES[kind]
          .filter((r) => r !== 'symbol')
          .map((r) => `${r} (${(ALIASES[r] ?? []).slice(0, 3).join('/')})`)
          .join(', ');
  return `header ${JSON.stringify(first.join(','))} is no ${kind} layout quanta knows (${LAYOUTS.filter(
    (l) => l.kind === kind,
  )
    .map((l) => l.name)
    .join(', ')}): name the columns ${wanted}, or map them with --columns role=name,…`;
}

/**
 * Parses a `--columns` mapping, `role=name,role=name`, against the roles of `kind`.
 *
 * @returns the mapping, or a string saying what is wrong.
 */
export function parseColumnMapping(
  kind: HistoryKind,
  text: string | undefined,
): Map<string, string> | string {
  const mapping = new Map<string, string>();
  if (text === undefined || text === '') return mapping;
  for (const pair of text.split(',')) {
    const [role, name, ...rest] = pair.split('=');
    if (role === undefined || name === undefined || name === '' || rest.length > 0)
      return `--columns: expected role=name pairs separated by commas, got ${JSON.stringify(pair)}`;
    if (!ROLES[kind].includes(role))
      return `--columns: ${JSON.stringify(role)} is no ${kind} column role (roles: ${ROLES[kind].join(', ')})`;
    mapping.set(role, name.trim().toLowerCase());
  }
  return mapping;
}
