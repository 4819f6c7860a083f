/**
 * A year of 1-minute ETH-USD candles as a gzip CSV (`timestamp,open,high,low,close,volume`), made
 * from a seeded walk in cents on the 0.01 tick, so every run writes the same file: the input of
 * candles.bench.ts (the import) and bars.bench.ts (backtests on the imported candles).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadConfig, type Config } from '../../src/config/index.ts';

/**
 * The config both candle benches backtest with: the embedded venue, roomy risk limits, and one
 * strategy module (absolute path) on ETH-USD; written into `dir` as `<file>`.
 */
export async function candleBacktestConfig(
  dir: string,
  file: string,
  module: string,
): Promise<Config> {
  const path = join(dir, file);
  writeFileSync(
    path,
    [
      'venue: { writeUrl: embedded, readUrl: embedded }',
      "risk: { maxOrderNotional: '5000', maxPositionNotional: '20000' }",
      'strategies:',
      `  - module: ${module}`,
      '    markets: [ETH-USD]',
      '',
    ].join('\n'),
  );
  return loadConfig(path, { env: {} });
}

/** The first candle's open time: 2025-01-01 00:00 UTC. */
export const CANDLES_T0 = Date.UTC(2025, 0, 1);

/** `count` consecutive 1m candles from {@link CANDLES_T0}, gzipped. */
export function candleCsv(count: number): Buffer {
  let seed = 28;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const cents = (c: number): string => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
  const lines = ['timestamp,open,high,low,close,volume'];
  let price = 250_000;
  for (let i = 0; i < count; i++) {
    const open = price;
    let high = open;
    let low = open;
    for (let step = 0; step < 4; step++) {
      price = Math.max(1000, price + Math.round((random() - 0.5) * 120));
      high = Math.max(high, price);
      low = Math.min(low, price);
    }
    const volume = (Math.floor(random() * 50_000) / 1000).toFixed(3);
    lines.push(
      `${CANDLES_T0 + i * 60_000},${cents(open)},${cents(high)},${cents(low)},${cents(price)},${volume}`,
    );
  }
  return gzipSync(`${lines.join('\n')}\n`);
}
