import { unrealizedPnlX18, type PositionState } from '../../execution/positions.ts';
import { markPriceX18 } from '../../market/mark-price.ts';
import type { Snapshot } from '../../market/snapshot.ts';
import { absX18, X18_SCALE } from '../../money/index.ts';

/** One market's position valued at the mark (the one mark-price rule). All x18. */
export interface ValuedPosition {
  readonly marketId: number;
  readonly symbol: string;
  readonly amountX18: bigint;
  readonly avgEntryPriceX18: bigint;
  /** Undefined when the market has no two-sided quote. */
  readonly markX18: bigint | undefined;
  /** |amount| × mark (0 without a mark). */
  readonly notionalX18: bigint;
  readonly unrealizedX18: bigint;
  readonly realizedX18: bigint;
  readonly feesX18: bigint;
}

/** The account valued at a snapshot's marks. */
export interface AccountValue {
  readonly positions: readonly ValuedPosition[];
  /** Realized PnL net of fees, all markets. */
  readonly realizedNetX18: bigint;
  readonly unrealizedX18: bigint;
  /**
   * Net PnL: realized net of fees + unrealized, what the bot has made or lost since its journal
   * began. Not equity: the bot does not know the account's deposit (the venue's to tell).
   */
  readonly netPnlX18: bigint;
}

/** Values every position the account ever held at the marks of `snapshot`. */
export function valueAccount(
  positions: readonly (readonly [number, PositionState])[],
  snapshot: Snapshot | undefined,
  symbolOf: (marketId: number) => string,
): AccountValue {
  let realizedNetX18 = 0n;
  let unrealizedX18 = 0n;
  const valued = positions.map(([marketId, position]): ValuedPosition => {
    const markX18 = markPriceX18(snapshot?.quotes?.get(marketId));
    const unrealized =
      markX18 === undefined || position.amountX18 === 0n ? 0n : unrealizedPnlX18(position, markX18);
    realizedNetX18 += position.realizedPnlX18 - position.feesX18;
    unrealizedX18 += unrealized;
    return {
      marketId,
      symbol: symbolOf(marketId),
      amountX18: position.amountX18,
      avgEntryPriceX18: position.avgEntryPriceX18,
      markX18,
      notionalX18: markX18 === undefined ? 0n : (absX18(position.amountX18) * markX18) / X18_SCALE,
      unrealizedX18: unrealized,
      realizedX18: position.realizedPnlX18,
      feesX18: position.feesX18,
    };
  });
  return {
    positions: valued,
    realizedNetX18,
    unrealizedX18,
    netPnlX18: realizedNetX18 + unrealizedX18,
  };
}
