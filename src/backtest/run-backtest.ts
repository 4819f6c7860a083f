import type { Config } from '../config/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import type { OrderSigner } from '../execution/executor.ts';
import { OrderJournal } from '../execution/journal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import { letGo } from '../market/recording/index.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { parseDecimalToX18 } from '../money/index.ts';
import { prepareStrategies } from '../strategy/prepare-strategies.ts';
import type { VenueClient } from '../venue/venue-client.ts';
import { openBacktestData } from './backtest-data.ts';
import { FeeOverlay } from './fee-overlay.ts';
import { type FillModel, resolveFillModel } from './fill-model.ts';
import { RunMeasurements } from './measurements.ts';
import { ReplayDriver } from './replay-driver.ts';
import { buildTrace } from './trace-builder.ts';
import type { BacktestTrace } from './trace.ts';

/** Options of {@link runBacktest}. */
export interface BacktestOptions {
  readonly config: Config;
  /** A recording file, a directory of rotated files, or a list. */
  readonly data: string | readonly string[];
  /** Where strategy modules are looked up. */
  readonly projectRoot: string;
  readonly log?: Logger;
  /**
   * Called once the strategies are loaded and the recording opened, before the replay, with the
   * size of the recording's files in bytes (compressed for gzip; undefined with `snapshots`).
   * The number of snapshots is not known then: the recording is read once, as it is replayed,
   * so progress is measured in bytes (see `onProgress`).
   */
  readonly onStart?: (recordingBytes: number | undefined) => void;
  /**
   * Drop snapshots whose seq or takenAt does not increase (counted) instead of failing on the
   * first; files that overlap in time are an error even so.
   */
  readonly repair?: boolean;
  /** With `repair`: called once the recording has been replayed, with the snapshots dropped. */
  readonly onRepaired?: (dropped: number) => void;
  /**
   * Called after every snapshot with the count so far and the bytes of the recording consumed up
   * to it (of the size `onStart` was given; 0 with `snapshots`).
   */
  readonly onProgress?: (done: number, bytesRead: number) => void;
  /** The fill model; default: the config's `backtest:` section. */
  readonly fillModel?: FillModel;
  /**
   * Snapshots already decoded (in order), replayed instead of reading `data`, which then only
   * names them in the trace. A sweep decodes a recording once and replays it (or a time window
   * of it) for many parameter sets.
   */
  readonly snapshots?: readonly Snapshot[];
  /**
   * Signs the orders; default `backtestSigner()` (no ECDSA: the simulation verifies none). The
   * order bytes are the executor's whatever signs them.
   */
  readonly signer?: OrderSigner;
  /**
   * Keep the time and seq of every snapshot in `trace.timeline` (`quanta compare` places live
   * orders on it). Off by default: a backtest's memory then grows with its orders, not its
   * snapshots.
   */
  readonly keepTimeline?: boolean;
  /**
   * Journal the orders in a SQLite file at this path (the live journal: every write committed
   * with a full sync) instead of in memory. For measuring a backtest with the order path's disk
   * writes (test/bench/backtest-heap.bench.ts); slower, same trace. The file must hold no order
   * yet (it is created when missing), or the run is refused; it is closed, not removed, at the
   * end.
   */
  readonly journalPath?: string;
  /** Stretches the chart samples are kept in (`SampleKeeper`); default 2000. */
  readonly sampleBuckets?: number;
  /**
   * Each order's own latency in ms, replacing the fill model's (`quanta compare`: the one its
   * live twin measured, `liveLatencies`): an order arrives at send time + its latency and meets
   * the book of the last snapshot taken at or before then. `from` is the time of the snapshot
   * that produced the order, `before` the next one's (Infinity after the last).
   */
  readonly orderLatency?: (order: OrderRecord, from: number, before: number) => number;
  /**
   * Wraps the venue client orders are sent to and looked up at (the simulation engine behind
   * the fill model's latency, `LatentVenue`): a recorder, injected faults.
   */
  readonly venueClient?: (simulated: VenueClient) => VenueClient;
}

/**
 * Replays a recording through the configured strategies, sizing, checks and executor as live
 * trading runs them, against the simulation engine filling at the recorded quotes, on a virtual
 * clock. Two parts differ from live, for speed (docs/design.md §1): the stand-in signer of
 * backtest-signer.ts (the simulation checks no signature) and the journal in memory
 * (`OrderJournal.inMemory()`, no SQLite file). Deterministic: the same recording and config give
 * the same trace.
 *
 * It only composes the parts: the data (backtest-data.ts), the fill model's fees and slippage
 * laid over it (fee-overlay.ts), the replay through the trading stack (replay-driver.ts), what
 * is measured after each snapshot (measurements.ts) and the trace made of them
 * (trace-builder.ts).
 */
export async function runBacktest(options: BacktestOptions): Promise<BacktestTrace> {
  const { config } = options;
  const log = options.log ?? silentLogger;
  const fillModel = options.fillModel ?? resolveFillModel(config.backtest);
  const strategies = await prepareStrategies(
    config.strategies,
    [options.projectRoot],
    config.source,
  );
  const { source, candles } = await openBacktestData(options, strategies, log);
  const journal = openJournal(options.journalPath);
  const driver = new ReplayDriver({
    config,
    strategies,
    journal,
    fillModel,
    overlay: new FeeOverlay(fillModel),
    candles: candles !== undefined,
    log,
    signer: options.signer,
    orderLatency: options.orderLatency,
    venueClient: options.venueClient,
  });
  const measurements = new RunMeasurements({
    startX18: parseDecimalToX18(fillModel.startingCapital, 'startingCapital'),
    named: new Set(config.strategies.flatMap((s) => s.markets)),
    listed: driver.markets,
    sampleBuckets: options.sampleBuckets,
    keepTimeline: options.keepTimeline === true,
  });
  options.onStart?.(source.bytes);
  const scan = source.snapshots();
  let count = 0;
  // A chunk's snapshots at a time: one await per batch rather than one per snapshot.
  for await (const batch of scan.batches()) {
    for (let inBatch = 0; inBatch < batch.snapshots.length; inBatch++) {
      const snapshot = await driver.step(letGo(batch.snapshots, inBatch));
      const { executor } = driver.run;
      measurements.observe(
        snapshot,
        executor,
        driver.instanceNames,
        driver.fills,
        driver.takePlots(),
      );
      count += 1;
      options.onProgress?.(count, batch.bytesRead[inBatch] as number);
    }
  }
  if (options.repair === true) options.onRepaired?.(scan.dropped);
  await driver.close();
  // Read now: the last sample is built from the state after the last snapshot.
  const measured = measurements.result();
  await driver.end();
  const { executor, session } = driver.run;
  const trace = buildTrace({
    data: options.data,
    projectRoot: options.projectRoot,
    config,
    strategies,
    fillModel,
    timeframe: candles?.timeframe,
    instanceNames: session.strategyNames(),
    warmups: session.warmups(),
    barCharts: session.barCharts(),
    markets: driver.markets,
    dataKind: driver.dataKind,
    startedAt: driver.startedAt,
    endedAt: driver.now,
    snapshots: count,
    measured,
    orders: journal.all(),
    stats: executor.stats(),
    fills: driver.fills,
    intents: driver.intents,
    liquidations: driver.liquidations,
  });
  journal.close();
  return trace;
}

/** The run's order journal: in memory, or the SQLite file `journalPath` (empty). */
function openJournal(journalPath: string | undefined): OrderJournal {
  if (journalPath === undefined) return OrderJournal.inMemory();
  const journal = OrderJournal.open(journalPath);
  if (journal.all().length > 0) {
    journal.close();
    throw new QuantaError(
      ErrorCodes.BACKTEST_INVALID_OPTION,
      `backtest journal ${journalPath}: already holds orders; a backtest journals into an empty one`,
    );
  }
  return journal;
}
