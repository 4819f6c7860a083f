import { markPriceX18 } from '../../market/mark-price.ts';
import type { Snapshot } from '../../market/snapshot.ts';
import type { HeldPosition, MarginFacts } from './margin-check.ts';
import type { PositionBook } from '../positions.ts';

/**
 * The bot's own estimate of its account for the margin check: the deposit plus what its fills
 * realised net of fees, its positions from those fills (plus the signed amounts of its orders in
 * flight, at the mark when nothing is held yet: they may fill), the snapshot's listing and marks
 * by the one mark-price rule.
 *
 * @param capitalX18 - `risk.capital` (a backtest: its starting capital).
 * @param account - the account's positions (every strategy's fills together).
 * @param pendingX18 - signed amounts of orders whose outcome is not yet known, per market.
 */
export function marginFactsOf(
  capitalX18: bigint,
  account: PositionBook,
  snapshot: Snapshot,
  pendingX18: (marketId: number) => bigint,
  maxLeverageX18?: ReadonlyMap<string, bigint>,
): MarginFacts {
  const markOf = marksOf(snapshot);
  const positions = new Map<number, HeldPosition>();
  for (const [marketId, position] of account.sortedEntries()) {
    const amountX18 = position.amountX18 + pendingX18(marketId);
    if (amountX18 === 0n) continue;
    const entryPriceX18 =
      position.amountX18 === 0n ? (markOf(marketId) ?? 0n) : position.avgEntryPriceX18;
    positions.set(marketId, { amountX18, entryPriceX18 });
  }
  return {
    balanceX18: capitalX18 + account.realizedNetX18(),
    positions,
    markets: snapshot.markets,
    markOf,
    maxLeverageX18,
  };
}

/** The snapshot's marks by market (returned, not a named constant: see `positionsWithPending`). */
function marksOf(snapshot: Snapshot): (marketId: number) => bigint | undefined {
  return (marketId) => markPriceX18(snapshot.quotes?.get(marketId));
}
