export { loadConfig, DEFAULT_CONFIG_PATH } from './load-config.ts';
export { parseConfig, type ParseConfigOptions } from './parse-config.ts';
export { LOG_LEVELS, type Config } from './schema.ts';
