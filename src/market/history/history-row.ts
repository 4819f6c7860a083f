/**
 * One CSV row of history checked and read exactly: the time, the symbol, and the prices and
 * sizes as x18 integers on the market's grids. Pure: a row is accepted whole or refused with a
 * reason a person can act on (which column, which value, which rule); nothing is rounded.
 */
import type { Market } from '../../domain/index.ts';
import { formatX18, isOnGrid, quantumX18, tryParseSignedDecimalToX18 } from '../../money/index.ts';
import type { ColumnPlan, LevelColumns } from './layouts.ts';
import { parseTimestamp, type ParsedTime } from './timestamp.ts';

/** Why a row was refused, by kind (the import's counts). */
export type BadRowKind =
  'malformed' | 'time-back' | 'duplicate' | 'off-grid' | 'other-market' | 'crossed';

/** A refused row's kind and a sentence saying why. */
export interface BadRow {
  readonly kind: BadRowKind;
  readonly reason: string;
}

/** A level as read: exact price and size, canonical decimal text. */
export interface RowLevel {
  readonly priceX18: bigint;
  readonly sizeX18: bigint;
}

/** A candle row: OHLC on the price grid, volume ≥ 0. */
export interface CandleRow {
  readonly time: ParsedTime;
  readonly symbol: string | undefined;
  readonly openX18: bigint;
  readonly highX18: bigint;
  readonly lowX18: bigint;
  readonly closeX18: bigint;
  readonly volumeX18: bigint;
  /** The close time column's value, when the layout has one. */
  readonly closeTime: ParsedTime | undefined;
}

/** A quote or book row: levels best first. */
export interface BookRow {
  readonly time: ParsedTime;
  readonly symbol: string | undefined;
  readonly bids: readonly RowLevel[];
  readonly asks: readonly RowLevel[];
}

// Plain non-negative decimals only, read by the one decimal parser (money/); the reason names
// the column.
function decimal(text: string, what: string): bigint | BadRow {
  const trimmed = text.trim();
  const x18 = trimmed.startsWith('-') ? undefined : tryParseSignedDecimalToX18(trimmed);
  if (x18 === undefined)
    return {
      kind: 'malformed',
      reason: `${what} ${JSON.stringify(text)} is not a plain decimal (digits, an optional fraction of at most 18 digits)`,
    };
  return x18;
}

// No market trades at 0: a backtest would fill and value positions there. A row with a price of
// 0 is a placeholder (a gap a source filled with zeros), refused like any malformed row.
function zeroPrice(what: string): BadRow {
  return { kind: 'malformed', reason: `${what} is 0: no market trades at a price of 0` };
}

const isBad = (value: unknown): value is BadRow =>
  typeof value === 'object' && value !== null && 'reason' in value;

function onGrid(
  valueX18: bigint,
  expo: number,
  what: string,
  grid: 'price tick' | 'amount step',
): BadRow | undefined {
  if (isOnGrid(valueX18, expo)) return undefined;
  return {
    kind: 'off-grid',
    reason: `${what} ${formatX18(valueX18)} is not on the market's ${grid} ${formatX18(quantumX18(expo))}`,
  };
}

function header(
  fields: readonly string[],
  plan: ColumnPlan,
): { time: ParsedTime; symbol: string | undefined } | BadRow {
  if (fields.length !== plan.columns)
    return {
      kind: 'malformed',
      reason: `expected ${plan.columns} fields (as the ${plan.layout} layout has), got ${fields.length}`,
    };
  const time = parseTimestamp((fields[plan.time] ?? '').trim());
  if (typeof time === 'string') return { kind: 'malformed', reason: time };
  const symbol = plan.symbol === undefined ? undefined : (fields[plan.symbol] ?? '').trim();
  return { time, symbol };
}

/** Reads a candle row, or says why it is refused. */
export function readCandleRow(
  fields: readonly string[],
  plan: ColumnPlan,
  market: Market,
): CandleRow | BadRow {
  const head = header(fields, plan);
  if (isBad(head)) return head;
  const [o, h, l, c, v] = plan.ohlcv ?? [0, 0, 0, 0, 0];
  const names = ['open', 'high', 'low', 'close', 'volume'];
  const values: bigint[] = [];
  for (const [i, column] of [o, h, l, c, v].entries()) {
    const value = decimal(fields[column] ?? '', names[i] as string);
    if (isBad(value)) return value;
    if (i < 4) {
      if (value === 0n) return zeroPrice(names[i] as string);
      const off = onGrid(value, market.priceExpo, names[i] as string, 'price tick');
      if (off !== undefined) return off;
    }
    values.push(value);
  }
  const [openX18, highX18, lowX18, closeX18, volumeX18] = values as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  const max = [openX18, closeX18, lowX18].reduce((a, b) => (a > b ? a : b));
  const min = [openX18, closeX18, highX18].reduce((a, b) => (a < b ? a : b));
  if (max > highX18 || min < lowX18)
    return {
      kind: 'malformed',
      reason: `high ${formatX18(highX18)} and low ${formatX18(lowX18)} do not hold open ${formatX18(openX18)} and close ${formatX18(closeX18)}`,
    };
  let closeTime: ParsedTime | undefined;
  if (plan.closeTime !== undefined) {
    const parsed = parseTimestamp((fields[plan.closeTime] ?? '').trim());
    if (typeof parsed === 'string') return { kind: 'malformed', reason: `close time: ${parsed}` };
    if (parsed.exact <= head.time.exact)
      return { kind: 'malformed', reason: 'close time is not after open time' };
    closeTime = parsed;
  }
  return { ...head, openX18, highX18, lowX18, closeX18, volumeX18, closeTime };
}

function readSide(
  fields: readonly string[],
  columns: readonly LevelColumns[],
  market: Market,
  side: 'bid' | 'ask',
): RowLevel[] | BadRow {
  const levels: RowLevel[] = [];
  for (const [i, column] of columns.entries()) {
    const priceText = (fields[column.price] ?? '').trim();
    const sizeText = (fields[column.size] ?? '').trim();
    const what = columns.length === 1 ? side : `${side}[${i}]`;
    // A book shallower than the layout's depth leaves its last levels empty.
    if (priceText === '' && sizeText === '') {
      const rest = columns
        .slice(i)
        .some((c) => (fields[c.price] ?? '').trim() !== '' || (fields[c.size] ?? '').trim() !== '');
      if (rest) return { kind: 'malformed', reason: `${what} is empty but a deeper level is not` };
      break;
    }
    const price = decimal(priceText, `${what} price`);
    if (isBad(price)) return price;
    if (price === 0n) return zeroPrice(`${what} price`);
    const size = decimal(sizeText, `${what} size`);
    if (isBad(size)) return size;
    if (size === 0n) return { kind: 'malformed', reason: `${what} size is 0` };
    const off =
      onGrid(price, market.priceExpo, `${what} price`, 'price tick') ??
      onGrid(size, market.amountExpo, `${what} size`, 'amount step');
    if (off !== undefined) return off;
    const previous = levels.at(-1);
    if (
      previous !== undefined &&
      (side === 'bid' ? price >= previous.priceX18 : price <= previous.priceX18)
    )
      return {
        kind: 'malformed',
        reason: `${what} price ${formatX18(price)} is not ${side === 'bid' ? 'below' : 'above'} the level before it`,
      };
    levels.push({ priceX18: price, sizeX18: size });
  }
  return levels;
}

/** Reads a quote or book row, or says why it is refused. */
export function readBookRow(
  fields: readonly string[],
  plan: ColumnPlan,
  market: Market,
): BookRow | BadRow {
  const head = header(fields, plan);
  if (isBad(head)) return head;
  const bids = readSide(fields, plan.bids, market, 'bid');
  if (isBad(bids)) return bids;
  const asks = readSide(fields, plan.asks, market, 'ask');
  if (isBad(asks)) return asks;
  const bid = bids[0];
  const ask = asks[0];
  if (bid !== undefined && ask !== undefined && bid.priceX18 >= ask.priceX18)
    return {
      kind: 'crossed',
      reason: `crossed book: bid ${formatX18(bid.priceX18)} is not below ask ${formatX18(ask.priceX18)}`,
    };
  return { ...head, bids, asks };
}

/** Whether a read row was refused. */
export function isBadRow(row: unknown): row is BadRow {
  return isBad(row);
}
