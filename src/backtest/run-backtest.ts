import { isAbsolute, relative, sep } from 'node:path';
import { keccak256, toHex } from 'viem';
import type { PositionBook } from '../execution/positions.ts';
import type { Config } from '../config/index.ts';
import { OrderJournal } from '../execution/journal.ts';
import type { Executor } from '../execution/executor.ts';
import type { ProducedIntent } from '../execution/trading-session.ts';
import { buildTradingStack } from '../runtime/trading-stack.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import { openRecording } from '../market/recording/index.ts';
import { markPriceX18 } from '../market/mark-price.ts';
import { createSnapshot, type Snapshot } from '../market/snapshot.ts';
import { SimEngine } from '../sim/index.ts';
import { checkStrategySymbols } from '../strategy/check-symbols.ts';
import { prepareStrategies } from '../strategy/prepare-strategies.ts';
import { signOrder } from '../venue/signing/index.ts';
import type { Market } from '../domain/index.ts';
import { DEFAULT_SIGNING_DOMAIN } from '../venue/types.ts';
import { parseDecimalToX18 } from '../money/index.ts';
import {
  type FillModel,
  overridesFees,
  resolveFillModel,
  slippedQuote,
  withModelFees,
} from './fill-model.ts';
import { LatentVenue, type ReplayPosition } from './latent-venue.ts';
import { journalWithFillLog } from './fill-log.ts';
import type { BacktestTrace, FillEvent, MarketSample, PlotPoint, Sample } from './trace.ts';
import { simOrderLookup } from './sim-venue.ts';

/** Options of {@link runBacktest}. */
export interface BacktestOptions {
  readonly config: Config;
  /** A recording file, a directory of rotated files, or a list. */
  readonly data: string | readonly string[];
  /** Where strategy modules are looked up. */
  readonly projectRoot: string;
  readonly log?: Logger;
  /** Called once the recording has been scanned, with its number of snapshots. */
  readonly onStart?: (snapshots: number) => void;
  /**
   * Drop snapshots whose seq or takenAt does not increase (counted) instead of failing on the
   * first; files that overlap in time are an error even so.
   */
  readonly repair?: boolean;
  /** With `repair`: called once the recording has been scanned, with the snapshots dropped. */
  readonly onRepaired?: (dropped: number) => void;
  /** Called after every snapshot with the count so far. */
  readonly onProgress?: (done: number) => void;
  /** The fill model; default: the config's `backtest:` section. */
  readonly fillModel?: FillModel;
  /**
   * Snapshots already decoded (in order), replayed instead of reading `data`, which then only
   * names them in the trace. A sweep decodes a recording once and replays it (or a time window
   * of it) for many parameter sets.
   */
  readonly snapshots?: readonly Snapshot[];
}

// Backtests sign like live trading (same code path) with a fixed, public, worthless key, so
// the same inputs give the same signatures and the same report bytes.
const BACKTEST_SIGNING_KEY = keccak256(toHex('quanta backtest signing key'));
const BACKTEST_SUBACCOUNT = '0_0x0000000000000000000000000000000000000001_1';
const ACCOUNT_ID = 'backtest';

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * Replays a recording through the configured strategies, sizing, checks and journal, exactly as
 * live trading runs them, against the simulation engine filling at the recorded quotes, on a
 * virtual clock. Deterministic: the same recording and config give the same trace.
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
  const recording =
    options.snapshots === undefined
      ? await openRecording(options.data, {
          onWarning: (warning) => log.warn({ warning: warning.message }, 'recording warning'),
          repair: options.repair === true,
        })
      : decodedRecording(options.snapshots);

  // First pass: every market the recording ever lists, so the engine knows them all up front.
  const markets = new Map<number, Market>();
  const gaps: number[] = [];
  let previousAt: number | undefined;
  let firstAt: number | undefined;
  let total = 0;
  // This pass meets every check of the recording first; the second gives the same verdict.
  const scan = recording.snapshots();
  for await (const snapshot of scan) {
    total += 1;
    for (const market of snapshot.markets.values())
      if (!markets.has(market.id)) markets.set(market.id, withModelFees(market, fillModel));
    if (previousAt !== undefined) gaps.push(snapshot.takenAt - previousAt);
    firstAt ??= snapshot.takenAt;
    previousAt = snapshot.takenAt;
  }

  checkStrategySymbols(
    strategies,
    new Set([...markets.values()].map((market) => market.symbol)),
    'the recording',
    config.source,
  );
  if (options.repair === true) options.onRepaired?.(scan.dropped);
  options.onStart?.(total);
  // The engine starts at the recording's first moment: it steps its clock forward from there.
  let now = firstAt ?? 0;
  const clock = (): number => now;
  const engine = new SimEngine({ clock, markets: [...markets.values()], seed: config.paper.seed });
  const active = new Map<number, boolean>([...markets.values()].map((m) => [m.id, m.isActive]));
  const journal = OrderJournal.open(':memory:');
  const fills: FillEvent[] = [];
  const plots: PlotPoint[] = [];
  const intents: ProducedIntent[] = [];
  let position: ReplayPosition = { index: -1, takenAt: now };
  const venue = new LatentVenue({
    engine,
    accountId: ACCOUNT_ID,
    latencyMs: fillModel.latencyMs,
    position: () => position,
  });
  const { executor, session } = await buildTradingStack({
    config,
    strategies,
    journal: journalWithFillLog(journal, fills),
    submitter: venue.submitter(),
    signer: {
      async sign(body) {
        const signed = await signOrder({
          signingPrivateKey: BACKTEST_SIGNING_KEY,
          subaccountId: BACKTEST_SUBACCOUNT,
          body,
          domain: DEFAULT_SIGNING_DOMAIN,
        });
        return { signature: signed.signature, signer: signed.signer };
      },
    },
    lookupOrder: simOrderLookup(engine, ACCOUNT_ID),
    // Virtual time: no rate window to wait for, and the simulation never fails transiently.
    // Every order is on its way at once (latency is the fill model's, not a queue's).
    rate: { requests: Infinity, perMs: 1, concurrency: Infinity, maxAttempts: 1 },
    killSwitchOn: () => false,
    now: clock,
    sleep: () => Promise.resolve(),
    log,
    onIntent: (produced) => intents.push(produced),
    onPlot: (strategy, name, value, t) => plots.push({ strategy, name, value, t }),
  });

  const samples: Sample[] = [];
  const marks = new Map<number, bigint>();
  let count = 0;
  let startedAt = 0;
  // Sends finished and answers booked; orders still on their way to the venue wait. With none
  // on its way the executor's own settle() says so; otherwise its bookkeeping of the orders that
  // arrived is waited out (it is promise work only: the journal and the engine are in-process).
  const settle = async (): Promise<void> => {
    if (venue.inFlight === 0) return executor.settle();
    for (let turn = 0; ; turn += 1) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const unanswered = journal.inStates(['PENDING', 'SENT']).length;
      if (unanswered <= venue.inFlight) break;
      if (turn > 10_000) throw new Error('backtest: order bookkeeping did not finish');
    }
    // The fills' onFill hooks run after the journal row is written.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  const feesChanged = overridesFees(fillModel);
  let fillsCharted = 0;
  let last: Snapshot | undefined;
  const instanceNames = session.strategyNames();
  // Price charts: every market a strategy names (by symbol) or trades.
  const named = new Set(config.strategies.flatMap((s) => s.markets));
  const charted = new Set(
    [...markets.values()].filter((m) => named.has(m.symbol)).map((m) => m.id),
  );
  // Its warnings were logged by the first pass.
  for await (const recorded of recording.snapshots({ onWarning: () => undefined })) {
    const snapshot = feesChanged ? withFillModelFees(recorded, fillModel) : recorded;
    now = snapshot.takenAt;
    if (count === 0) startedAt = now;
    position = { index: count, takenAt: now };
    syncEngine(engine, snapshot, active, fillModel);
    // Orders sent earlier that reach the venue by now meet this snapshot's book, before the
    // strategies see it (a live answer arrives before the next poll too).
    if (venue.arrive() > 0) await settle();
    await session.onSnapshot(snapshot);
    await settle();
    for (const fill of fills.slice(fillsCharted)) charted.add(fill.marketId);
    fillsCharted = fills.length;
    samples.push(sampleOf(snapshot, executor, marks, instanceNames, charted));
    last = snapshot;
    count += 1;
    options.onProgress?.(count);
  }
  venue.end();
  await executor.settle();
  await session.stop();
  const trace: BacktestTrace = {
    data: typeof options.data === 'string' ? options.data : options.data.join(','),
    strategies: session.strategyNames(),
    symbols: new Map([...markets.values()].map((m) => [m.id, m.symbol])),
    snapshotIntervalMs: median(gaps),
    startedAt,
    endedAt: now,
    snapshots: count,
    fillModel,
    samples,
    orders: journal.all(),
    refusals: executor.stats().refusals,
    instances: strategies.map((prepared) => {
      const entry = config.strategies[prepared.index];
      return {
        name: prepared.name,
        module: displayPath(entry?.module ?? '', options.projectRoot),
        markets: [...(entry?.markets ?? [])],
        params: entry?.params ?? {},
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
    plots,
    intents,
  };
  journal.close();
  return trace;
}

/** Already decoded snapshots behind the reading interface of an opened recording. */
function decodedRecording(snapshots: readonly Snapshot[]): {
  snapshots(overrides?: unknown): AsyncIterable<Snapshot> & { readonly dropped: number };
} {
  return {
    snapshots: () => ({
      dropped: 0,
      async *[Symbol.asyncIterator]() {
        yield* snapshots;
      },
    }),
  };
}

/** The snapshot with the fill model's fees in every market (what the portfolio charges). */
function withFillModelFees(snapshot: Snapshot, model: FillModel): Snapshot {
  return createSnapshot({
    seq: snapshot.seq,
    takenAt: snapshot.takenAt,
    markets: [...snapshot.markets.values()].map((market) => withModelFees(market, model)),
    quotes: snapshot.quotes?.values(),
    stale: snapshot.stale,
  });
}

/**
 * Makes the engine's markets and books what the recording says at this snapshot, the book
 * worsened by the model's slippage.
 */
function syncEngine(
  engine: SimEngine,
  snapshot: Snapshot,
  active: Map<number, boolean>,
  model: FillModel,
): void {
  for (const [marketId, wasActive] of active) {
    const isActive = snapshot.markets.get(marketId)?.isActive ?? false;
    if (isActive !== wasActive) {
      engine.setMarketActive(marketId, isActive);
      active.set(marketId, isActive);
    }
  }
  if (snapshot.quotes !== undefined)
    engine.setExternalQuotes([...snapshot.quotes.values()].map((q) => slippedQuote(q, model)));
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

function sampleOf(
  snapshot: Snapshot,
  executor: Executor,
  marks: Map<number, bigint>,
  instances: readonly string[],
  charted: ReadonlySet<number>,
): Sample {
  const marketSamples = (book: PositionBook): MarketSample[] =>
    book.entries().map(([marketId, position]) => {
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
  const markets = marketSamples(executor.positions);
  const byStrategy = instances
    .map((strategy) => ({
      strategy,
      markets: marketSamples(executor.strategyPositions(strategy)),
    }))
    .filter((instance) => instance.markets.length > 0);
  const tops = [...charted]
    .sort((a, b) => a - b)
    .map((marketId) => {
      const quote = snapshot.quotes?.get(marketId);
      const best = (levels: readonly { price: string }[] | undefined): bigint | null =>
        levels?.[0] === undefined ? null : parseDecimalToX18(levels[0].price, 'quote price');
      return { marketId, bidX18: best(quote?.bids), askX18: best(quote?.asks) };
    });
  return { seq: snapshot.seq, t: snapshot.takenAt, markets, byStrategy, tops };
}
