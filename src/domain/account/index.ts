/**
 * The one account model (issue 29): equity, initial and maintenance margin, free margin,
 * leverage and liquidation prices of one subaccount, from its balance and its positions at their
 * marks. Pure, bigint x18; used by the pre-trade checks, the simulation (paper venue and
 * backtest) and the report. docs/margin.md explains it.
 */
export {
  ceilDiv,
  floorDiv,
  freeMarginX18,
  isLiquidatable,
  liquidationPriceX18,
  marginAccount,
  marginX18,
  unrealizedPnlX18,
  type MarginAccountInput,
  type MarginAccountView,
  type MarginPosition,
  type PositionMargin,
} from './margin-account.ts';
export {
  effectiveInitialFractionX18,
  openingAmountX18,
  orderInitialMarginX18,
} from './order-margin.ts';
