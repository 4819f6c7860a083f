/**
 * A recording's snapshots as a table for `quanta export --what snapshots`: one row per market
 * per snapshot, the best level of each side, decimals exact (x18).
 */
import { parseDecimalToX18 } from '../../money/index.ts';
import { openRecording, type ReadRecordingOptions } from '../recording/index.ts';
import type { Cell, Table } from './table-export.ts';

const x18 = (text: string | undefined, what: string): bigint | null =>
  text === undefined ? null : parseDecimalToX18(text, what);

/**
 * The table of a recording's snapshots (read as it is written out: the recording is streamed,
 * not held).
 *
 * @throws QuantaError as `openRecording` and the reading (`QUANTA_RECORDING_INVALID`, …).
 */
export async function snapshotTable(
  path: string,
  options: ReadRecordingOptions = {},
): Promise<Table> {
  const recording = await openRecording(path, options);
  async function* rows(): AsyncGenerator<readonly Cell[]> {
    for await (const snapshot of recording.snapshots()) {
      for (const market of snapshot.markets.values()) {
        const quote = snapshot.quotes?.get(market.id);
        const bid = quote?.bids[0];
        const ask = quote?.asks[0];
        yield [
          snapshot.takenAt,
          snapshot.seq,
          market.id,
          market.symbol,
          x18(bid?.price, 'bid price'),
          x18(bid?.quantity, 'bid size'),
          x18(ask?.price, 'ask price'),
          x18(ask?.quantity, 'ask size'),
          snapshot.stale,
        ];
      }
    }
  }
  return {
    columns: [
      { name: 'taken_at', type: 'timestamp' },
      { name: 'seq', type: 'integer' },
      { name: 'market_id', type: 'integer' },
      { name: 'symbol', type: 'text' },
      { name: 'bid_price', type: 'decimal' },
      { name: 'bid_size', type: 'decimal' },
      { name: 'ask_price', type: 'decimal' },
      { name: 'ask_size', type: 'decimal' },
      { name: 'stale', type: 'boolean' },
    ],
    rows: rows(),
  };
}
