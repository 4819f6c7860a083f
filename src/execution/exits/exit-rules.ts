import type { ExitSpec } from '../../domain/index.ts';
import { levelDistanceX18, levelPriceX18, parseExitLevel } from './exit-levels.ts';

/** Why a protective exit closed a position (the closing order's tag is `exit:<reason>`). */
export const EXIT_REASONS = ['stop-loss', 'take-profit', 'trailing-stop', 'time-limit'] as const;

/** One of {@link EXIT_REASONS}. */
export type ExitReason = (typeof EXIT_REASONS)[number];

/** What an exit remembers about its position besides the spec (persisted in the journal). */
export interface ExitProgress {
  /** When the position was first seen open (ms); null while the exit waits for it. */
  readonly openedAt: number | null;
  /** The best closing price since then (highest bid of a long, lowest ask of a short). */
  readonly bestX18: bigint | null;
}

/** The position an exit guards, and the price a closing order would get now. */
export interface ExitMarket {
  /** The strategy's signed position (never 0 here). */
  readonly amountX18: bigint;
  readonly entryPriceX18: bigint;
  /** Best bid for a long, best ask for a short; undefined when that side is empty. */
  readonly closingPriceX18: bigint | undefined;
  readonly now: number;
}

/**
 * One snapshot of one exit (pure): the progress after it (the best price followed, the open
 * time set once) and the reason to close now, if any. Checked in a fixed order: stop-loss,
 * trailing stop, take-profit, time limit (the first that holds names the exit). A side
 * without a price checks only the time limit.
 */
export function evaluateExit(
  spec: ExitSpec,
  progress: ExitProgress,
  market: ExitMarket,
): { readonly progress: ExitProgress; readonly reason: ExitReason | undefined } {
  const long = market.amountX18 > 0n;
  const openedAt = progress.openedAt ?? market.now;
  const price = market.closingPriceX18;
  let best = progress.bestX18;
  if (price !== undefined && (best === null || (long ? price > best : price < best))) best = price;
  const next = { openedAt, bestX18: best };
  let reason: ExitReason | undefined;
  if (price !== undefined) {
    // Against the position: below for a long, above for a short.
    const against = (level: bigint): boolean => (long ? price <= level : price >= level);
    const entry = market.entryPriceX18;
    if (spec.stopLoss !== undefined) {
      const stop = levelPriceX18(parseExitLevel(spec.stopLoss, 'stopLoss'), entry, long);
      if (against(stop)) reason = 'stop-loss';
    }
    if (reason === undefined && spec.trailingStop !== undefined && best !== null) {
      const distance = levelDistanceX18(parseExitLevel(spec.trailingStop, 'trailingStop'), best);
      if (against(long ? best - distance : best + distance)) reason = 'trailing-stop';
    }
    if (reason === undefined && spec.takeProfit !== undefined) {
      const target = levelPriceX18(parseExitLevel(spec.takeProfit, 'takeProfit'), entry, !long);
      if (long ? price >= target : price <= target) reason = 'take-profit';
    }
  }
  if (
    reason === undefined &&
    spec.timeLimitMs !== undefined &&
    market.now >= openedAt + spec.timeLimitMs
  )
    reason = 'time-limit';
  return { progress: next, reason };
}
