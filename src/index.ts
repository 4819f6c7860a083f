/**
 * The public surface of `quanta`: what strategy authors and embedders import. A test snapshots
 * this list, so every change to it is a visible decision.
 */
export {
  defineStrategy,
  type Strategy,
  type StrategyDefinition,
  type StrategyContext,
  type StrategyStore,
  type ParamsChange,
} from './strategy/define-strategy.ts';
export type { Fill, OpenOrder, OrderIntent } from './domain/index.ts';
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

// Programmatic use: load a config, then run a bot or a backtest with it.
export { loadConfig, type Config, type StrategyConfig } from './config/index.ts';
export { createLogger, type Logger } from './log/logger.ts';
export { startBot, type Bot, type BotOptions, type RunSummary } from './runtime/bot.ts';
export { runBacktest, type BacktestOptions } from './backtest/run-backtest.ts';
export type { BacktestTrace } from './backtest/trace.ts';
export { computeMetrics, type BacktestMetrics, type MetricsOptions } from './backtest/metrics.ts';
export { formatSummary } from './backtest/format-summary.ts';
export { buildReport, type BacktestReport } from './backtest/report-json.ts';
export { writeReport, type WrittenReport } from './backtest/write-report.ts';
