/**
 * The public surface of `quanta`: what strategy authors import (the strategy API, bars, market
 * and order types, exact-decimal helpers, errors, zod). Embedders import `quanta/runtime`
 * (src/runtime-entry.ts) and `quanta/backtest` (src/backtest-entry.ts). A test snapshots each
 * entry's list (test/unit/public-api.test.ts), so every change to it is a visible decision.
 */
export {
  defineStrategy,
  type Strategy,
  type StrategyDefinition,
  type StrategyContext,
  type StrategyStore,
  type ParamsChange,
} from './strategy/define-strategy.ts';
export type { ExitSpec, Fill, OpenOrder, OrderIntent } from './domain/index.ts';
/** The type of `ctx.log`: a strategy's own logger (pino's). */
export type { Logger } from './log/logger.ts';
export type { Bar } from './strategy/bars/bar.ts';
export { toOrderPrice } from './strategy/order-price.ts';
export {
  positionX18,
  isLong,
  isShort,
  isFlat,
  absAmount,
  mid,
  midX18,
  spread,
  bestBid,
  bestAsk,
  levelNumbers,
  toX18,
  fixedX18,
  RollingWindow,
} from './strategy/helpers.ts';
/** zod, re-exported so a strategy project needs only `quanta` to declare its params. */
export { z } from 'zod';
export { findMarketBySymbol, type Snapshot } from './market/snapshot.ts';
export type {
  Market,
  Quote,
  QuoteLevel,
  MarketType,
  OrderSide,
  OrderType,
  OrderStatus,
} from './domain/index.ts';
export {
  parseDecimalToX18,
  formatX18,
  floorToGrid,
  ceilToGrid,
  isOnGrid,
  quantumX18,
  notionalX18,
  X18_SCALE,
} from './money/index.ts';
export { QuantaError, ErrorCodes, isQuantaError, type ErrorCode } from './errors/index.ts';
