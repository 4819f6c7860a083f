/**
 * Candle history's bars as a table for `quanta export --what bars`: one row per candle, as the
 * backtest hands it to `onBar` on the candles' own timeframe, decimals exact (x18).
 */
import { parseDecimalToX18 } from '../../money/index.ts';
import { isCandleHistory, openCandleHistory } from './candle-reader.ts';
import type { Cell, Table } from './table-export.ts';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';

/**
 * The table of the candles of candle history at `path` (read as it is written out).
 *
 * @throws QuantaError `QUANTA_USAGE` when `path` holds no candle history (a recording of
 *   quotes has snapshots, not candles); `QUANTA_RECORDING_INVALID` from the reading.
 */
export async function barTable(path: string): Promise<Table> {
  if (!(await isCandleHistory(path)))
    throw new QuantaError(
      ErrorCodes.USAGE,
      `--data ${path}: no candle history (.candles.gz) there; --what bars exports imported candles (quanta import --kind candles), a recording's quotes export with --what snapshots`,
    );
  const opened = await openCandleHistory(path);
  const { market, timeframe } = opened;
  async function* rows(): AsyncGenerator<readonly Cell[]> {
    for await (const batch of opened.snapshots().batches())
      for (const snapshot of batch.snapshots)
        for (const candle of snapshot.candles?.values() ?? [])
          yield [
            candle.start,
            candle.end,
            market.id,
            market.symbol,
            timeframe,
            parseDecimalToX18(candle.open, 'open'),
            parseDecimalToX18(candle.high, 'high'),
            parseDecimalToX18(candle.low, 'low'),
            parseDecimalToX18(candle.close, 'close'),
            parseDecimalToX18(candle.volume, 'volume'),
          ];
  }
  return {
    columns: [
      { name: 'start', type: 'timestamp' },
      { name: 'end', type: 'timestamp' },
      { name: 'market_id', type: 'integer' },
      { name: 'symbol', type: 'text' },
      { name: 'timeframe', type: 'text' },
      { name: 'open', type: 'decimal' },
      { name: 'high', type: 'decimal' },
      { name: 'low', type: 'decimal' },
      { name: 'close', type: 'decimal' },
      { name: 'volume', type: 'decimal' },
    ],
    rows: rows(),
  };
}
