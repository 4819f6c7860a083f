export { loadConfig, DEFAULT_CONFIG_PATH } from './load-config.ts';
export { parseConfig, type ParseConfigOptions } from './parse-config.ts';
export { locatedLine } from './config-problems.ts';
export { LOG_FORMATS, LOG_LEVELS, type Config, type ConfigSource } from './schema.ts';
export { DEFAULT_STRATEGY_HEAP_MB, type StrategyConfig } from './strategy-schema.ts';
