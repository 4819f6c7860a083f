import { fillFeeX18, formatX18 } from '../money/index.ts';
import type { Market, OrderSide } from '../domain/index.ts';
import {
  freeMarginX18,
  openingAmountX18,
  orderInitialMarginX18,
  type MarginAccountInput,
  type MarginPosition,
} from '../domain/account/index.ts';
import type { AccountLedger } from './ledger.ts';
import { SimRejection } from './sim-rejection.ts';

/**
 * The liquidation fee of the simulation, when not configured: 1 % of the notional a liquidation
 * closes, charged instead of the taker fee (docs/margin.md, "Simulation").
 */
export const DEFAULT_LIQUIDATION_FEE = '0.01';

/** What the simulation does about margin (docs/margin.md). */
export interface SimMarginRules {
  /** Refuse an order whose initial margin and fee exceed the free margin (default on). */
  readonly checks: boolean;
  /** Fraction x18 of the closed notional a liquidation costs. */
  readonly liquidationFeeX18: bigint;
  /** After a liquidation the account's orders are refused, unless this is true. */
  readonly continueAfterLiquidation: boolean;
}

/** One liquidation: a position closed by the simulation because equity fell below maintenance. */
export interface SimLiquidation {
  readonly accountId: string;
  /** Engine time, ms since the epoch. */
  readonly at: number;
  readonly marketId: number;
  /** The side of the closing fills (SELL closes a long). */
  readonly side: OrderSide;
  /** Base amount closed, x18 (unsigned). */
  readonly amountX18: bigint;
  /** Average price of the closing fills: the book walked, as a MARKET order would. */
  readonly priceX18: bigint;
  /** The mark that tripped the rule. */
  readonly markX18: bigint;
  readonly feeX18: bigint;
  /** The account's equity and maintenance margin when the rule tripped. */
  readonly equityX18: bigint;
  readonly maintenanceMarginX18: bigint;
}

/**
 * The account model's input for a ledger: its balance (deposit + realised − fees) and its open
 * positions at `markOf` (the one mid rule, the last mid held when a book is one-sided).
 * Undefined when a held market has no mark at all: the margin cannot be judged then.
 */
export function ledgerAccount(
  ledger: AccountLedger,
  marketOf: (marketId: number) => Market | undefined,
  markOf: (marketId: number) => bigint | undefined,
): MarginAccountInput | undefined {
  const positions: MarginPosition[] = [];
  for (const position of ledger.openPositions()) {
    const market = marketOf(position.marketId);
    const markX18 = markOf(position.marketId);
    if (market === undefined || markX18 === undefined) return undefined;
    positions.push({
      marketId: market.id,
      type: market.type,
      amountX18: position.amountX18,
      entryPriceX18: position.avgEntryPriceX18,
      markX18,
      initialFractionX18: market.initialMarginX18,
      maintenanceFractionX18: market.maintenanceMarginX18,
    });
  }
  return { balanceX18: ledger.balanceX18(), positions };
}

/**
 * The venue side of the pre-trade rules (docs/margin.md): a SPOT sell of more than is held is
 * refused; with `rules.checks`, an order whose opening part's initial margin at `priceX18` plus
 * its taker fee exceeds the free margin is refused, as is every opening order while a held
 * market has no mark.
 *
 * @throws SimRejection with the reason.
 */
export function checkSimOrderMargin(
  rules: SimMarginRules,
  ledger: AccountLedger,
  market: Market,
  side: OrderSide,
  amountX18: bigint,
  priceX18: bigint | undefined,
  account: () => MarginAccountInput | undefined,
): void {
  const held = ledger.positionAmountX18(market.id);
  if (market.type === 'SPOT' && side === 'SELL' && amountX18 > held) {
    throw new SimRejection(
      `insufficient ${market.baseAsset}: sell of ${formatX18(amountX18)} is more than the ${formatX18(held > 0n ? held : 0n)} held`,
    );
  }
  if (!rules.checks) return;
  const signed = side === 'BUY' ? amountX18 : -amountX18;
  if (priceX18 === undefined) return; // Nothing to trade against: the order fills nothing.
  if (openingAmountX18(held, signed) === 0n) return; // It only reduces.
  const needX18 =
    orderInitialMarginX18(held, signed, priceX18, market.initialMarginX18) +
    fillFeeX18(amountX18, priceX18, market.takerFeeX18);
  const input = account();
  if (input === undefined)
    throw new SimRejection('insufficient margin: a held market has no mark price');
  const freeX18 = freeMarginX18(input);
  if (needX18 > freeX18) {
    throw new SimRejection(
      `insufficient margin: the order needs ${formatX18(needX18)} of initial margin and fee, the free margin is ${formatX18(freeX18)}`,
    );
  }
}
