/**
 * `quanta/runtime`: what an embedder needs to run a bot from its own code: load a config, make
 * a logger, start the bot, run it until a signal aborts, shut it down and read its summary. The
 * `Bot` handle is narrow on purpose (status, mode, run, shutdown). Strategy authors import
 * `quanta`; backtests are `quanta/backtest`. A test snapshots this list
 * (test/unit/public-api.test.ts).
 */
export { loadConfig, type Config, type StrategyConfig } from './config/index.ts';
export { createLogger, type Logger } from './log/logger.ts';
export {
  startBot,
  type Bot,
  type BotOptions,
  type BotWaitTime,
  type RunSummary,
} from './runtime/bot.ts';
export type { ModeSource, TradingMode } from './execution/trading-mode.ts';
export type {
  BotStatus,
  BarJson,
  ClockJson,
  OrderJson,
  PositionJson,
} from './runtime/control/status-json.ts';
