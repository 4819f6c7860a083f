import { applyFill, FLAT_POSITION, type PositionState } from '../execution/positions.ts';
import { absX18, formatX18 } from '../money/index.ts';
import { bigintRatio, formatRatio } from './ratio-decimal.ts';
import type { FillEvent } from './trace.ts';

/**
 * One round-trip trade of one strategy instance in one market: from the fill that opened a
 * position to the fill that brought it back to flat (or through it: a flip closes one trade and
 * opens the next with the rest). All x18; money in quote units.
 */
export interface RoundTrip {
  readonly strategy: string;
  readonly marketId: number;
  readonly direction: 'LONG' | 'SHORT';
  readonly entryTime: number;
  /** Null while the trade is still open at the end of the run. */
  readonly exitTime: number | null;
  /** Largest absolute position the trade held. */
  readonly maxAmountX18: bigint;
  /** Volume-weighted price of the fills that opened or added to it. */
  readonly entryPriceX18: bigint;
  /** Volume-weighted price of the fills that reduced it; null when none did. */
  readonly exitPriceX18: bigint | null;
  /** Realized PnL before fees, exactly as the portfolio realized it. */
  readonly pnlX18: bigint;
  /** Fees of its fills (a flipping fill's fee is split by amount). */
  readonly feesX18: bigint;
  /** `pnl − fees`. */
  readonly netPnlX18: bigint;
  readonly fills: number;
  /** The order whose fill opened it (its tag names the intent that entered). */
  readonly entryOrderId: number;
  /** The order whose fill closed it (its tag says why); null while it is still open. */
  readonly exitOrderId: number | null;
}

interface OpenTrade {
  direction: 'LONG' | 'SHORT';
  entryOrderId: number;
  entryTime: number;
  maxAmountX18: bigint;
  entryAmountX18: bigint;
  entryNotionalX36: bigint;
  exitAmountX18: bigint;
  exitNotionalX36: bigint;
  pnlX18: bigint;
  feesX18: bigint;
  fills: number;
}

function open(fill: FillEvent, amountX18: bigint, feeX18: bigint): OpenTrade {
  return {
    direction: fill.side === 'BUY' ? 'LONG' : 'SHORT',
    entryOrderId: fill.orderId,
    entryTime: fill.t,
    maxAmountX18: amountX18,
    entryAmountX18: amountX18,
    entryNotionalX36: amountX18 * fill.priceX18,
    exitAmountX18: 0n,
    exitNotionalX36: 0n,
    pnlX18: 0n,
    feesX18: feeX18,
    fills: 1,
  };
}

function finish(
  trade: OpenTrade,
  strategy: string,
  marketId: number,
  exitTime: number | null,
  exitOrderId: number | null,
): RoundTrip {
  return {
    strategy,
    marketId,
    direction: trade.direction,
    entryTime: trade.entryTime,
    exitTime,
    maxAmountX18: trade.maxAmountX18,
    entryPriceX18: trade.entryNotionalX36 / trade.entryAmountX18,
    exitPriceX18: trade.exitAmountX18 === 0n ? null : trade.exitNotionalX36 / trade.exitAmountX18,
    pnlX18: trade.pnlX18,
    feesX18: trade.feesX18,
    netPnlX18: trade.pnlX18 - trade.feesX18,
    fills: trade.fills,
    entryOrderId: trade.entryOrderId,
    exitOrderId,
  };
}

/**
 * Cuts the fills of each strategy instance in each market into round trips, applying them with
 * the portfolio's own average-cost rule so the realized PnL of the trades adds up exactly to the
 * instance's. Trades come out ordered by entry time (ties: strategy, market); a trade still
 * open at the end has `exitTime` null.
 */
export function roundTrips(fills: readonly FillEvent[]): RoundTrip[] {
  const positions = new Map<string, PositionState>();
  const openTrades = new Map<string, OpenTrade>();
  const trades: { trip: RoundTrip; order: number }[] = [];
  let order = 0;
  const keyOf = (fill: FillEvent): string => `${fill.strategy}\u0000${fill.marketId}`;
  const entryOrder = new Map<string, number>();
  for (const fill of fills) {
    const key = keyOf(fill);
    const before = positions.get(key) ?? FLAT_POSITION;
    const after = applyFill(before, fill);
    positions.set(key, after);
    const realized = after.realizedPnlX18 - before.realizedPnlX18;
    const current = openTrades.get(key);
    const signed = fill.side === 'BUY' ? fill.amountX18 : -fill.amountX18;
    if (current === undefined || before.amountX18 === 0n) {
      openTrades.set(key, open(fill, fill.amountX18, fill.feeX18));
      entryOrder.set(key, order++);
      continue;
    }
    if (before.amountX18 > 0n === signed > 0n) {
      current.entryAmountX18 += fill.amountX18;
      current.entryNotionalX36 += fill.amountX18 * fill.priceX18;
      current.maxAmountX18 =
        absX18(after.amountX18) > current.maxAmountX18
          ? absX18(after.amountX18)
          : current.maxAmountX18;
      current.feesX18 += fill.feeX18;
      current.fills += 1;
      continue;
    }
    const closed =
      fill.amountX18 < absX18(before.amountX18) ? fill.amountX18 : absX18(before.amountX18);
    const closingFee = (fill.feeX18 * closed) / fill.amountX18;
    current.exitAmountX18 += closed;
    current.exitNotionalX36 += closed * fill.priceX18;
    current.pnlX18 += realized;
    current.feesX18 += closingFee;
    current.fills += 1;
    if (after.amountX18 === 0n || after.amountX18 > 0n !== before.amountX18 > 0n) {
      trades.push({
        trip: finish(current, fill.strategy, fill.marketId, fill.t, fill.orderId),
        order: entryOrder.get(key) ?? 0,
      });
      openTrades.delete(key);
      if (after.amountX18 !== 0n) {
        openTrades.set(key, open(fill, fill.amountX18 - closed, fill.feeX18 - closingFee));
        entryOrder.set(key, order++);
      }
    }
  }
  for (const [key, trade] of openTrades) {
    const [strategy = '', marketId = '0'] = key.split('\u0000');
    trades.push({
      trip: finish(trade, strategy, Number(marketId), null, null),
      order: entryOrder.get(key) ?? 0,
    });
  }
  return trades.sort((a, b) => a.order - b.order).map((t) => t.trip);
}

/** Figures of a set of closed round trips. Money as decimal strings; ratios with 6 digits. */
export interface TradeStats {
  readonly closed: number;
  /** Trades still open at the end (not in the figures below). */
  readonly open: number;
  readonly wins: number;
  readonly losses: number;
  /** `wins / closed` (0..1) by the one rule, {@link winRateOf}; null without closed trades. */
  readonly winRate: string | null;
  /** Net PnL of the winners / |net PnL of the losers|; null without a losing trade. */
  readonly profitFactor: string | null;
  /** Mean net PnL per closed trade, quote units (rounded toward zero). */
  readonly expectancy: string | null;
  readonly avgWin: string | null;
  /** Mean net PnL of the losing trades (negative). */
  readonly avgLoss: string | null;
  readonly grossProfit: string;
  readonly grossLoss: string;
  /** Mean time from entry to exit, ms (rounded down). */
  readonly avgDurationMs: number | null;
  /** Most closed trades in a row that won, by exit time ({@link streaksOf}). */
  readonly maxWinStreak: number;
  /** Most closed trades in a row that lost, by exit time. */
  readonly maxLossStreak: number;
}

/** The longest runs of winning and of losing round trips. */
export interface Streaks {
  readonly maxWinStreak: number;
  readonly maxLossStreak: number;
}

/**
 * The longest winning and losing streaks of the closed round trips, taken in the order they
 * closed (ties keep the order of `trips`, by entry). A win and a loss are as {@link winRateOf}
 * counts them (net PnL after fees above / below zero); a trip that nets exactly zero ends both
 * streaks. Trips still open are not counted.
 */
export function streaksOf(trips: readonly RoundTrip[]): Streaks {
  const closed = trips
    .filter((t): t is RoundTrip & { exitTime: number } => t.exitTime !== null)
    .map((trip, index) => ({ trip, index }))
    .sort((a, b) => a.trip.exitTime - b.trip.exitTime || a.index - b.index);
  let wins = 0;
  let losses = 0;
  let maxWinStreak = 0;
  let maxLossStreak = 0;
  for (const { trip } of closed) {
    wins = trip.netPnlX18 > 0n ? wins + 1 : 0;
    losses = trip.netPnlX18 < 0n ? losses + 1 : 0;
    if (wins > maxWinStreak) maxWinStreak = wins;
    if (losses > maxLossStreak) maxLossStreak = losses;
  }
  return { maxWinStreak, maxLossStreak };
}

/** How many round trips closed and how many of them won, and the win rate they give. */
export interface WinRate {
  readonly closed: number;
  readonly wins: number;
  /** `wins / closed` (0..1, 6 digits); null without a closed round trip. */
  readonly winRate: string | null;
}

/**
 * The one win-rate rule: the share of closed round trips (from flat to flat, or to a flip of
 * side, per strategy instance and market) whose net PnL after fees is above zero. A trip that
 * nets exactly zero is closed and not won; trips still open are not counted. The report's cards,
 * its trade statistics, the per-market and per-strategy tables, the terminal summary and the
 * optimizer's `winRate` all read this one figure (docs/figures.md, "Win rate").
 */
export function winRateOf(trips: readonly RoundTrip[]): WinRate {
  let closed = 0;
  let wins = 0;
  for (const trip of trips) {
    if (trip.exitTime === null) continue;
    closed += 1;
    if (trip.netPnlX18 > 0n) wins += 1;
  }
  return {
    closed,
    wins,
    winRate: closed === 0 ? null : formatRatio(bigintRatio(BigInt(wins), BigInt(closed))),
  };
}

/** Win/loss figures of the closed trades among `trips`. */
export function tradeStats(trips: readonly RoundTrip[]): TradeStats {
  const closed = trips.filter((t) => t.exitTime !== null);
  const winners = closed.filter((t) => t.netPnlX18 > 0n);
  const losers = closed.filter((t) => t.netPnlX18 < 0n);
  const sum = (list: readonly RoundTrip[]): bigint => list.reduce((n, t) => n + t.netPnlX18, 0n);
  const mean = (list: readonly RoundTrip[]): string | null =>
    list.length === 0 ? null : formatX18(sum(list) / BigInt(list.length));
  const grossProfit = sum(winners);
  const grossLoss = sum(losers);
  const durations = closed.reduce((n, t) => n + ((t.exitTime ?? t.entryTime) - t.entryTime), 0);
  return {
    closed: closed.length,
    open: trips.length - closed.length,
    wins: winners.length,
    losses: losers.length,
    winRate: winRateOf(trips).winRate,
    profitFactor: grossLoss === 0n ? null : formatRatio(bigintRatio(grossProfit, -grossLoss)),
    expectancy: mean(closed),
    avgWin: mean(winners),
    avgLoss: mean(losers),
    grossProfit: formatX18(grossProfit),
    grossLoss: formatX18(grossLoss),
    avgDurationMs: closed.length === 0 ? null : Math.floor(durations / closed.length),
    ...streaksOf(trips),
  };
}
