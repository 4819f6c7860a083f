export {
  importHistory,
  type ImportOptions,
  type ImportSummary,
  type RefusedRow,
} from './import-history.ts';
export { readMarketRules, parseMarketRules, type MarketRules } from './market-rules.ts';
export {
  HISTORY_KINDS,
  layoutsOf,
  parseColumnMapping,
  planColumns,
  type HistoryKind,
} from './layouts.ts';
export { parseTimestamp, isoOfMs } from './timestamp.ts';
export { isCandleHistory, openCandleHistory, type OpenedCandles } from './candle-reader.ts';
