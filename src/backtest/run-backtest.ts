import { isAbsolute, relative, sep } from 'node:path';
import type { PositionBook } from '../execution/positions.ts';
import type { Config } from '../config/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { OrderJournal } from '../execution/journal.ts';
import type { ProducedIntent } from '../stack/trading-session.ts';
import { buildTradingStack, type TradingStack } from '../stack/trading-stack.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import { openRecording, type SnapshotBatch } from '../market/recording/index.ts';
import { isCandleHistory, openCandleHistory } from '../market/history/index.ts';
import { lockedQuote, type Candle } from '../market/candle.ts';
import { candleTimeframeProblem } from '../strategy/check-candle-timeframes.ts';
import type { Quote } from '../domain/index.ts';
import { type DataKind } from './data-kind.ts';
import { markPriceX18 } from '../market/mark-price.ts';
import { bestPriceX18 } from '../market/best-price.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { SimEngine } from '../sim/index.ts';
import { checkStrategySymbols } from '../strategy/check-symbols.ts';
import { prepareStrategies } from '../strategy/prepare-strategies.ts';
import type { Market } from '../domain/index.ts';
import { parseDecimalToX18 } from '../money/index.ts';
import { capitalOf } from '../execution/risk-limits.ts';
import { takeLiquidations } from './liquidations.ts';
import {
  type FillModel,
  overridesFees,
  resolveFillModel,
  lazySlipper,
  withModelFees,
} from './fill-model.ts';
import { LatentVenue, type ReplayPosition } from './latent-venue.ts';
import { journalWithFillLog } from './fill-log.ts';
import type {
  BacktestTrace,
  FillEvent,
  LiquidationEvent,
  MarketSample,
  MarketTop,
  PlotPoint,
  StrategySample,
} from './trace.ts';
import { ReturnsAccumulator, ScopeAccumulator } from './online-metrics.ts';
import { SampleKeeper } from './sample-keeper.ts';
import { backtestSigner } from './backtest-signer.ts';
import type { OrderSigner } from '../execution/executor.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import type { SignedOrderRequest, VenueClient } from '../venue/venue-client.ts';

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

const ACCOUNT_ID = 'backtest';

/** The median of values given as counts per value: the one at index ⌊n/2⌋ once sorted. */
function medianOfCounts(counts: ReadonlyMap<number, number>, n: number): number {
  if (n === 0) return 0;
  const target = Math.floor(n / 2);
  let seen = 0;
  for (const value of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(value) ?? 0;
    if (seen > target) return value;
  }
  return 0;
}

/** What a replay runs on, built at its first snapshot. */
interface ReplayRun extends TradingStack {
  readonly engine: SimEngine;
  readonly venue: LatentVenue;
  /** Whether each market is active in the engine. */
  readonly active: Map<number, boolean>;
  /** The listing `active` was last synced with. */
  activeOf: ReadonlyMap<number, Market> | undefined;
}

const EMPTY_SNAPSHOT: Snapshot = Object.freeze({
  seq: 0,
  takenAt: 0,
  markets: new Map<number, Market>(),
  stale: false,
});

/**
 * Sends finished and answers booked (with the strategies' `onFill` hooks, which the executor
 * awaits as part of each send); orders still on their way to the venue wait for a later
 * snapshot's `arrive`.
 */
function settle(run: ReplayRun): Promise<void> {
  const { executor, venue } = run;
  return executor.settleAllBut(
    () => venue.inFlight,
    () => venue.nextInFlight(),
  );
}

/**
 * Replays a recording through the configured strategies, sizing, checks and executor as live
 * trading runs them, against the simulation engine filling at the recorded quotes, on a virtual
 * clock. Two parts differ from live, for speed (docs/design.md §1): the stand-in signer of
 * backtest-signer.ts (the simulation checks no signature) and the journal in memory
 * (`OrderJournal.inMemory()`, no SQLite file). Deterministic: the same recording and config give
 * the same trace.
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
  }
  const recording =
    candles ??
    (options.snapshots === undefined
      ? await openRecording(options.data, {
          onWarning: (warning) => log.warn({ warning: warning.message }, 'recording warning'),
          repair: options.repair === true,
        })
      : decodedRecording(options.snapshots));
  let dataKind: DataKind | undefined = candles === undefined ? undefined : 'candles';

  // One pass over the recording: the engine is built at the first snapshot and learns markets
  // as they appear; gap statistics are gathered on the way.
  const markets = new Map<number, Market>();
  const gaps = new Map<number, number>();
  let gapCount = 0;
  let now = 0;
  const clock = (): number => now;
  const fills: FillEvent[] = [];
  let plots: PlotPoint[] = [];
  const intents: ProducedIntent[] = [];
  const journal = openJournal(options.journalPath);
  let position: ReplayPosition = { index: -1, takenAt: now };
  let run: ReplayRun | undefined;
  const start = async (first: Snapshot): Promise<ReplayRun> => {
    now = first.takenAt;
    position = { index: -1, takenAt: now };
    for (const market of first.markets.values())
      markets.set(market.id, withModelFees(market, fillModel));
    const engine = new SimEngine({
      clock,
      markets: [...markets.values()],
      seed: config.paper.seed,
      // The venue's account holds what the report's equity starts from (docs/margin.md).
      initialBalance: fillModel.startingCapital,
    });
    const orderLatency = options.orderLatency;
    const venue = new LatentVenue({
      engine,
      accountId: ACCOUNT_ID,
      // Candles: an order reaches the venue at the next candle's open (the next snapshot).
      latencyMs: candles === undefined ? fillModel.latencyMs : null,
      position: () => position,
      ...(orderLatency === undefined
        ? {}
        : {
            latencyOf: (request: SignedOrderRequest, from: number, before: number) =>
              orderLatency(sentOrder(journal, request), from, before),
          }),
    });
    const stack = await buildTradingStack({
      config,
      strategies,
      journal: journalWithFillLog(journal, fills),
      venue: options.venueClient === undefined ? venue : options.venueClient(venue),
      signer: options.signer ?? backtestSigner(),
      // Virtual time: no rate window to wait for, and the simulation never fails transiently.
      // Every order is on its way at once (latency is the fill model's, not a queue's).
      rate: { requests: Infinity, perMs: 1, concurrency: Infinity, maxAttempts: 1 },
      killSwitchOn: () => false,
      // The equity a backtest sizes from starts where its report's equity curve does, unless
      // the config names the live capital.
      capitalX18:
        capitalOf(config.risk) ?? parseDecimalToX18(fillModel.startingCapital, 'startingCapital'),
      now: clock,
      sleep: () => Promise.resolve(),
      log,
      onIntent: (produced) => intents.push(produced),
      onPlot: (strategy, name, value, t) => plots.push({ strategy, name, value, t }),
    });
    return {
      engine,
      venue,
      ...stack,
      active: new Map([...markets.values()].map((m) => [m.id, m.isActive])),
      activeOf: undefined,
    };
  };
  // Symbols a strategy names that the recording did not list yet: checked once all are seen,
  // or at the end (with the same error a scan up front gave).
  let unchecked = true;
  const checkSymbols = (final: boolean): void => {
    const listed = new Set([...markets.values()].map((market) => market.symbol));
    if (!final && strategies.some((s) => s.symbols.some((symbol) => !listed.has(symbol)))) return;
    unchecked = false;
    checkStrategySymbols(strategies, listed, 'the recording', config.source);
  };

  const startX18 = parseDecimalToX18(fillModel.startingCapital, 'startingCapital');
  const account = new ScopeAccumulator(startX18);
  const byInstance = new Map<string, ScopeAccumulator>();
  const returns = new ReturnsAccumulator(startX18);
  const keeper = new SampleKeeper(options.sampleBuckets);
  const timeline =
    options.keepTimeline === true ? { t: [] as number[], seq: [] as number[] } : undefined;
  // Markets whose first mid was not seen yet: that sample is kept (the benchmark starts there).
  const midSeen = new Set<number>();
  const marks = new Map<number, bigint>();
  let count = 0;
  let startedAt = 0;
  const feesChanged = overridesFees(fillModel);
  const slip = lazySlipper(fillModel);
  const slips = parseDecimalToX18(fillModel.slippageBps, 'slippageBps') !== 0n;
  let feeMarkets:
    { readonly from: ReadonlyMap<number, Market>; readonly to: Map<number, Market> } | undefined;
  let fillsCharted = 0;
  let last: Snapshot | undefined;
  let instanceNames: readonly string[] = [];
  // Price charts: every market a strategy names (by symbol) or trades.
  const named = new Set(config.strategies.flatMap((s) => s.markets));
  const charted = new Set<number>();
  // `charted` by id ascending, sorted again only when it grew (it only grows).
  let chartedSorted: number[] = [];
  const chartedIds = (): readonly number[] => {
    if (chartedSorted.length !== charted.size) chartedSorted = [...charted].sort((a, b) => a - b);
    return chartedSorted;
  };
  let previousAt: number | undefined;
  const liquidations: LiquidationEvent[] = [];
  let liquidationsSeen = 0;
  options.onStart?.(recording.bytes);
  const scan = recording.snapshots();
  // A chunk's snapshots at a time: one await per batch rather than one per snapshot.
  for await (const batch of scan.batches()) {
    for (let inBatch = 0; inBatch < batch.snapshots.length; inBatch++) {
      const recorded = batch.snapshots[inBatch] as Snapshot;
      if (previousAt !== undefined) {
        const gap = recorded.takenAt - previousAt;
        gaps.set(gap, (gaps.get(gap) ?? 0) + 1);
        gapCount += 1;
      }
      previousAt = recorded.takenAt;
      if (run === undefined) {
        run = await start(recorded);
        instanceNames = run.session.strategyNames();
      }
      const { engine, venue, executor, session } = run;
      if (recorded.markets !== run.activeOf) {
        // The listing changed (the decoder hands on one Map while it does not).
        for (const market of recorded.markets.values()) {
          if (markets.has(market.id)) continue;
          const withFees = withModelFees(market, fillModel);
          markets.set(market.id, withFees);
          now = recorded.takenAt;
          engine.addMarket(withFees);
          run.active.set(market.id, withFees.isActive);
        }
        for (const market of markets.values()) if (named.has(market.symbol)) charted.add(market.id);
        if (unchecked) checkSymbols(false);
      }
      let snapshot = recorded;
      if (feesChanged) {
        if (feeMarkets?.from !== recorded.markets) {
          const to = new Map<number, Market>();
          for (const [id, market] of recorded.markets) to.set(id, withModelFees(market, fillModel));
          feeMarkets = { from: recorded.markets, to };
        }
        snapshot = Object.freeze({ ...recorded, markets: feeMarkets.to });
      }
      // Per-order latencies: orders that reached the venue before this snapshot meet the book
      // they found there, the previous snapshot's, each at its own arrival time.
      while (venue.arriveBefore(snapshot.takenAt, (t) => (now = t))) await settle(run);
      now = snapshot.takenAt;
      if (count === 0) startedAt = now;
      position = { index: count, takenAt: now };
      if (recorded.markets !== run.activeOf) {
        syncActive(engine, snapshot, run.active);
        run.activeOf = recorded.markets;
      }
      if (snapshot.candles !== undefined) {
        dataKind = 'candles';
        // The candle fill rule (data-kind.ts): the open, then the range, then the close.
        // Fills inside a candle are booked at its open time (the path inside is not known).
        now = Math.min(...[...snapshot.candles.values()].map((c) => c.start));
        for (const [i, step] of candleSteps(snapshot.candles).entries()) {
          engine.replayQuotes(slips ? step.map(slip) : step);
          if (i === 0 && venue.arrive() > 0) await settle(run);
        }
        now = snapshot.takenAt;
      } else if (dataKind === undefined && snapshot.quotes !== undefined) {
        dataKind = [...snapshot.quotes.values()].some((q) => q.bids.length > 1 || q.asks.length > 1)
          ? 'book'
          : 'quotes';
      }
      if (snapshot.quotes !== undefined)
        engine.replayQuotes(slips ? [...snapshot.quotes.values()].map(slip) : snapshot.quotes);
      liquidationsSeen = takeLiquidations(
        engine,
        ACCOUNT_ID,
        liquidationsSeen,
        executor,
        fills,
        liquidations,
      );
      // Orders sent earlier that reach the venue by now meet this snapshot's book, before the
      // strategies see it (a live answer arrives before the next poll too).
      if (venue.arrive() > 0) await settle(run);
      await session.onSnapshot(snapshot);
      await settle(run);
      let pin = count === 0;
      if (fills.length > fillsCharted) {
        for (let i = fillsCharted; i < fills.length; i++)
          charted.add((fills[i] as FillEvent).marketId);
        fillsCharted = fills.length;
        pin = true;
      }
      if (midSeen.size < charted.size) {
        for (const marketId of charted) {
          if (midSeen.has(marketId)) continue;
          const quote = snapshot.quotes?.get(marketId);
          if (quote?.bids[0] === undefined && quote?.asks[0] === undefined) continue;
          midSeen.add(marketId);
          pin = true;
        }
      }
      const accountMarkets = marketSamples(snapshot, executor.positions, marks);
      account.push(accountMarkets);
      const byStrategy: StrategySample[] = [];
      // A sole instance placed every order of the account (a backtest has no other orders), so
      // its book is the account's: its samples and statistics are the account's, kept once.
      const sole = instanceNames.length === 1;
      for (const name of instanceNames) {
        const own = sole
          ? accountMarkets
          : marketSamples(snapshot, executor.strategyPositions(name), marks);
        let scope = byInstance.get(name);
        if (scope === undefined)
          byInstance.set(name, (scope = sole ? account : new ScopeAccumulator(startX18)));
        if (scope !== account) scope.push(own);
        if (own.length > 0) byStrategy.push({ strategy: name, markets: own });
      }
      const { equityX18, drawdownX18 } = account.total.equity();
      returns.push(equityX18);
      timeline?.t.push(snapshot.takenAt);
      timeline?.seq.push(snapshot.seq);
      const drawn = plots.length === 0 ? NO_PLOTS : plots;
      if (plots.length > 0) plots = [];
      const at = snapshot;
      keeper.offer(equityX18, drawdownX18, pin, () => ({
        sample: {
          seq: at.seq,
          t: at.takenAt,
          markets: accountMarkets,
          byStrategy,
          tops: topsOf(at, chartedIds()),
        },
        plots: drawn,
      }));
      last = snapshot;
      count += 1;
      options.onProgress?.(count, batch.bytesRead[inBatch] as number);
    }
  }
  if (options.repair === true) options.onRepaired?.(scan.dropped);
  if (unchecked) checkSymbols(true);
  run ??= await start(EMPTY_SNAPSHOT);
  const { venue, executor, session } = run;
  // Read now: the last sample is built from the state after the last snapshot.
  const kept = keeper.result();
  // Orders still on their way, measured latency or not, are refused: the run's PnL is measured
  // at its snapshots, and no snapshot follows to value what they would fill.
  venue.end();
  await executor.settle();
  await session.stop();
  const warmups = session.warmups();
  const trace: BacktestTrace = {
    data: typeof options.data === 'string' ? options.data : options.data.join(','),
    strategies: session.strategyNames(),
    symbols: new Map([...markets.values()].map((m) => [m.id, m.symbol])),
    precision: new Map(
      [...markets.values()].map((m) => [
        m.id,
        { priceExpo: m.priceExpo, amountExpo: m.amountExpo },
      ]),
    ),
    snapshotIntervalMs: medianOfCounts(gaps, gapCount),
    dataKind: dataKind ?? 'quotes',
    ...(candles === undefined ? {} : { timeframe: candles.timeframe }),
    startedAt,
    endedAt: now,
    snapshots: count,
    fillModel,
    samples: kept.samples,
    sampleCount: count,
    measured: { startX18, account, strategies: byInstance, returns },
    ...(timeline === undefined ? {} : { timeline }),
    orders: journal.all(),
    refusals: executor.stats().refusals,
    instances: strategies.map((prepared) => {
      const entry = config.strategies[prepared.index];
      return {
        name: prepared.name,
        module: displayPath(entry?.module ?? '', options.projectRoot),
        markets: [...(entry?.markets ?? [])],
        params: entry?.params ?? {},
        ...(warmups[prepared.name] === undefined ? {} : { warmup: warmups[prepared.name] }),
      };
    }),
    refusalsByStrategy: executor.stats().refusalsByStrategy,
    config: {
      risk: {
        ...config.risk,
        ...(config.risk.killSwitchFile === undefined
          ? {}
          : { killSwitchFile: displayPath(config.risk.killSwitchFile, options.projectRoot) }),
      },
      execution: { orderTtlMs: config.execution.orderTtlMs },
      backtest: config.backtest,
      paper: { seed: config.paper.seed },
    },
    finalMarks: finalMarksOf(last, marks),
    fills,
    plots: kept.plots,
    intents,
    ...(liquidations.length === 0 ? {} : { liquidations }),
  };
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

/** The journal row of an order on its way (SENT), by the bytes that were sent. */
function sentOrder(journal: OrderJournal, request: SignedOrderRequest): OrderRecord {
  const record = journal.inStates(['SENT']).find((o) => o.body === request.body);
  if (record === undefined)
    throw new Error('backtest: an order was sent that its journal does not hold');
  return record;
}

/** Already decoded snapshots behind the reading interface of an opened recording. */
function decodedRecording(snapshots: readonly Snapshot[]): {
  /** Not a file: no size. */
  readonly bytes: undefined;
  snapshots(overrides?: unknown): {
    readonly dropped: number;
    batches(): AsyncIterable<SnapshotBatch>;
  };
} {
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
              return Promise.resolve({ done: false, value: { snapshots, bytesRead } });
            },
          };
        },
      }),
    }),
  };
}

/** Makes the engine's markets active or not as the recording's listing says. */
function syncActive(engine: SimEngine, snapshot: Snapshot, active: Map<number, boolean>): void {
  for (const [marketId, wasActive] of active) {
    const isActive = snapshot.markets.get(marketId)?.isActive ?? false;
    if (isActive !== wasActive) {
      engine.setMarketActive(marketId, isActive);
      active.set(marketId, isActive);
    }
  }
}

function finalMarksOf(
  snapshot: Snapshot | undefined,
  marks: ReadonlyMap<number, bigint>,
): Map<number, bigint> {
  const final = new Map(marks);
  for (const [marketId, quote] of snapshot?.quotes ?? []) {
    const mark = markPriceX18(quote);
    if (mark !== undefined) final.set(marketId, mark);
  }
  return final;
}

/** A path as a report shows it: relative to the project root when inside it. */
function displayPath(path: string, root: string): string {
  const inside = relative(root, path);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)
    ? inside.split(sep).join('/')
    : path;
}

/** The markets of a position book after a snapshot, valued at its marks (carried forward). */
function marketSamples(
  snapshot: Snapshot,
  book: PositionBook,
  marks: Map<number, bigint>,
): MarketSample[] {
  const entries = book.entries();
  if (entries.length === 0) return NO_MARKETS;
  return entries.map(([marketId, position]) => {
    const mark = markPriceX18(snapshot.quotes?.get(marketId));
    if (mark !== undefined) marks.set(marketId, mark);
    return {
      marketId,
      positionX18: position.amountX18,
      markPriceX18: marks.get(marketId) ?? 0n,
      avgEntryPriceX18: position.avgEntryPriceX18,
      realizedPnlX18: position.realizedPnlX18,
      feesX18: position.feesX18,
      turnoverX18: position.turnoverX18,
    };
  });
}

const NO_MARKETS: MarketSample[] = [];
const NO_PLOTS: PlotPoint[] = [];

/** Best bid and ask of every charted market (ids given ascending). */
function topsOf(snapshot: Snapshot, charted: readonly number[]): MarketTop[] {
  return charted.map((marketId) => {
    const quote = snapshot.quotes?.get(marketId);
    return {
      marketId,
      bidX18: bestPriceX18(quote, 'bids') ?? null,
      askX18: bestPriceX18(quote, 'asks') ?? null,
    };
  });
}

/**
 * The stand-in books of the candle fill rule, before the snapshot's own (locked at the close):
 * the open, then the low and the high, the low first in a rising candle (close ≥ open).
 */
function candleSteps(candles: ReadonlyMap<number, Candle>): Quote[][] {
  const open: Quote[] = [];
  const first: Quote[] = [];
  const second: Quote[] = [];
  for (const candle of candles.values()) {
    const { marketId, start } = candle;
    const rising = parseDecimalToX18(candle.close) >= parseDecimalToX18(candle.open);
    open.push(lockedQuote(marketId, start, candle.open));
    first.push(lockedQuote(marketId, start, rising ? candle.low : candle.high));
    second.push(lockedQuote(marketId, start, rising ? candle.high : candle.low));
  }
  return [open, first, second];
}
