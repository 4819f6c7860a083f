import type { Executor } from '../execution/executor.ts';
import type { SimEngine, SimLiquidation } from '../sim/index.ts';
import { LIQUIDATION_ORDER_ID, type FillEvent, type LiquidationEvent } from './trace.ts';

/**
 * Moves the engine's new liquidations of `accountId` into the bot's books: each closure is
 * booked into the executor's portfolio (every strategy's position closed at the liquidation
 * price, the fee shared), noted as fills (`LIQUIDATION_ORDER_ID`: no order of the bot's) and listed.
 * `seen` counts the liquidations already taken; the new count is returned.
 */
export function takeLiquidations(
  engine: SimEngine,
  accountId: string,
  seen: number,
  executor: Executor,
  fills: FillEvent[],
  listed: LiquidationEvent[],
): number {
  const all: SimLiquidation[] = engine.liquidations(accountId);
  for (const liquidation of all.slice(seen)) {
    for (const fill of executor.bookClosure(
      liquidation.marketId,
      liquidation.priceX18,
      liquidation.feeX18,
    )) {
      fills.push({ ...fill, orderId: LIQUIDATION_ORDER_ID, t: liquidation.at });
    }
    const { accountId: _accountId, at, ...rest } = liquidation;
    listed.push({ t: at, ...rest });
  }
  return all.length;
}
