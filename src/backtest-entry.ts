/**
 * `quanta/backtest`: what an embedder needs to backtest from its own code: load a config, run
 * the backtest over a recording, compute its metrics, print the summary, build and write the
 * report. Strategy authors import `quanta`; live bots are `quanta/runtime`. A test snapshots
 * this list (test/unit/public-api.test.ts).
 */
export { loadConfig, type Config, type StrategyConfig } from './config/index.ts';
export { createLogger, type Logger } from './log/logger.ts';
export { runBacktest, type BacktestOptions } from './backtest/run-backtest.ts';
export type { BacktestTrace } from './backtest/trace.ts';
export { computeMetrics, type BacktestMetrics, type MetricsOptions } from './backtest/metrics.ts';
export { formatSummary } from './backtest/format-summary.ts';
export { buildReport, type BacktestReport } from './backtest/report-json.ts';
export { writeReport, type WrittenReport } from './backtest/write-report.ts';
