import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';
import { isCandleHistory, openCandleHistory, type OpenedCandles } from '../market/history/index.ts';
import { openRecording, type SnapshotBatch } from '../market/recording/index.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { candleTimeframeProblem } from '../strategy/check-candle-timeframes.ts';
import type { PreparedStrategy } from '../strategy/prepare-strategies.ts';

/** What a backtest replays: an opened recording, candle history, or decoded snapshots. */
export interface ReplaySource {
  /** Size of the files in bytes (compressed for gzip); undefined for decoded snapshots. */
  readonly bytes: number | undefined;
  /** One read of the snapshots, in batches. */
  snapshots(): { readonly dropped: number; batches(): AsyncIterable<SnapshotBatch> };
}

/** Where a backtest's snapshots come from (`BacktestOptions`' fields of the same names). */
export interface BacktestData {
  readonly data: string | readonly string[];
  readonly snapshots?: readonly Snapshot[] | undefined;
  readonly repair?: boolean | undefined;
  readonly orderLatency?: unknown;
}

/**
 * Opens what a backtest replays: decoded `snapshots` when given, else `data` as candle history
 * (refused with per-order latencies, or with bars the candles cannot make) or as a recording.
 */
export async function openBacktestData(
  options: BacktestData,
  strategies: readonly PreparedStrategy[],
  log: Logger,
): Promise<{ readonly source: ReplaySource; readonly candles: OpenedCandles | undefined }> {
  const candles =
    options.snapshots === undefined && (await isCandleHistory(options.data))
      ? await openCandleHistory(options.data)
      : undefined;
  if (candles !== undefined) {
    if (options.orderLatency !== undefined)
      throw new QuantaError(
        ErrorCodes.BACKTEST_INVALID_OPTION,
        `${String(options.data)}: candle history has no order latencies to replay (orders reach the venue at the next candle's open)`,
      );
    const problem = candleTimeframeProblem(strategies, candles.timeframe, candles.timeframeMs);
    if (problem !== undefined) throw new QuantaError(ErrorCodes.BACKTEST_INVALID_OPTION, problem);
    return { source: candles, candles };
  }
  const source =
    options.snapshots === undefined
      ? await openRecording(options.data, {
          onWarning: (warning) => log.warn({ warning: warning.message }, 'recording warning'),
          repair: options.repair === true,
        })
      : decodedRecording(options.snapshots);
  return { source, candles };
}

/** Already decoded snapshots behind the reading interface of an opened recording. */
function decodedRecording(snapshots: readonly Snapshot[]): ReplaySource {
  return {
    bytes: undefined,
    snapshots: () => ({
      dropped: 0,
      batches: () => ({
        [Symbol.asyncIterator](): AsyncIterator<SnapshotBatch> {
          // One batch of them all (nothing read: no bytes).
          let done = false;
          return {
            next: () => {
              if (done) return Promise.resolve({ done: true, value: undefined });
              done = true;
              const bytesRead = new Array<number>(snapshots.length).fill(0);
              // A copy: the batch's reader may let go of its snapshots (see SnapshotBatch).
              const batch = snapshots.slice();
              return Promise.resolve({ done: false, value: { snapshots: batch, bytesRead } });
            },
          };
        },
      }),
    }),
  };
}
