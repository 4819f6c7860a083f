import type { Config } from '../config/index.ts';
import type { Market, Quote } from '../domain/index.ts';
import type { OrderSigner } from '../execution/executor.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { OrderRecord } from '../execution/order-record.ts';
import { capitalOf } from '../execution/pre-trade/index.ts';
import type { Logger } from '../log/logger.ts';
import { candleX18, lockedQuote, type Candle } from '../market/candle.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { parseDecimalToX18 } from '../money/index.ts';
import { SimEngine } from '../sim/index.ts';
import type { ProducedIntent } from '../stack/trading-session.ts';
import { buildTradingStack, type TradingStack } from '../stack/trading-stack.ts';
import { checkStrategySymbols } from '../strategy/check-symbols.ts';
import type { PreparedStrategy } from '../strategy/prepare-strategies.ts';
import type { SignedOrderRequest, VenueClient } from '../venue/venue-client.ts';
import { backtestSigner } from './backtest-signer.ts';
import type { DataKind } from './data-kind.ts';
import type { FeeOverlay } from './fee-overlay.ts';
import { journalWithFillLog } from './fill-log.ts';
import { KeptIntents } from './kept-intents.ts';
import type { FillModel } from './fill-model.ts';
import { LatentVenue, type ReplayPosition } from './latent-venue.ts';
import { takeLiquidations } from './liquidations.ts';
import type { FillEvent, LiquidationEvent, PlotPoint } from './trace.ts';

/** The simulation's account a backtest trades on. */
const ACCOUNT_ID = 'backtest';

/** What {@link ReplayDriver} replays through and how (`runBacktest`'s options, resolved). */
export interface ReplayDriverOptions {
  readonly config: Config;
  readonly strategies: readonly PreparedStrategy[];
  readonly journal: OrderJournal;
  readonly fillModel: FillModel;
  readonly overlay: FeeOverlay;
  /** Candle history: an order reaches the venue at the next candle's open (the next snapshot). */
  readonly candles: boolean;
  readonly log: Logger;
  readonly signer: OrderSigner | undefined;
  readonly orderLatency: ((order: OrderRecord, from: number, before: number) => number) | undefined;
  readonly venueClient: ((simulated: VenueClient) => VenueClient) | undefined;
}

/** What a replay runs on, built at its first snapshot. */
export interface ReplayRun extends TradingStack {
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

const NO_PLOTS: PlotPoint[] = [];

/**
 * Replays snapshots, one at a time, through the trading stack against the simulation engine on
 * a virtual clock: builds the engine, venue and stack at the first snapshot, follows listing
 * changes, lets orders in flight arrive, replays the books (the candle fill rule for candles),
 * takes liquidations, and hands each snapshot to the strategies. It keeps what the trace lists
 * (fills, intents, plots, liquidations); what is measured of each snapshot is not its job.
 */
export class ReplayDriver {
  readonly #options: ReplayDriverOptions;
  /** Every market seen so far, with the fill model's fees. */
  readonly markets = new Map<number, Market>();
  readonly fills: FillEvent[] = [];
  readonly intents: ProducedIntent[] = [];
  /** One copy of each intent `intents` keeps. */
  readonly #keptIntents = new KeptIntents();
  readonly liquidations: LiquidationEvent[] = [];
  #plots: PlotPoint[] = [];
  #now = 0;
  readonly #clock = (): number => this.#now;
  #position: ReplayPosition = { index: -1, takenAt: 0 };
  #run: ReplayRun | undefined;
  #instanceNames: readonly string[] = [];
  /** Snapshots replayed so far. */
  #index = 0;
  #startedAt = 0;
  #dataKind: DataKind | undefined;
  /** Symbols the strategies name are checked once all are listed, or at the end. */
  #unchecked = true;
  #liquidationsSeen = 0;

  constructor(options: ReplayDriverOptions) {
    this.#options = options;
    if (options.candles) this.#dataKind = 'candles';
  }

  /** Virtual time now. */
  get now(): number {
    return this.#now;
  }

  /** Time of the first snapshot replayed (0 before). */
  get startedAt(): number {
    return this.#startedAt;
  }

  /** What the replay saw: candles, full books or quotes (quotes until known). */
  get dataKind(): DataKind {
    return this.#dataKind ?? 'quotes';
  }

  /** The strategy instances, by name (known once the run started). */
  get instanceNames(): readonly string[] {
    return this.#instanceNames;
  }

  /** The run; throws before the first snapshot. */
  get run(): ReplayRun {
    if (this.#run === undefined) throw new Error('backtest: the replay has not started');
    return this.#run;
  }

  /** The `ctx.plot` points since the last call (the same empty array when there are none). */
  takePlots(): PlotPoint[] {
    if (this.#plots.length === 0) return NO_PLOTS;
    const drawn = this.#plots;
    this.#plots = [];
    return drawn;
  }

  /** Replays one recorded snapshot; gives it as the strategies saw it (the model's fees). */
  async step(recorded: Snapshot): Promise<Snapshot> {
    if (this.#run === undefined) {
      this.#run = await this.#start(recorded);
      this.#instanceNames = this.#run.session.strategyNames();
    }
    const run = this.#run;
    if (recorded.markets !== run.activeOf) this.#listNew(recorded, run);
    const snapshot = this.#options.overlay.snapshot(recorded);
    // Per-order latencies: orders that reached the venue before this snapshot meet the book
    // they found there, the previous snapshot's, each at its own arrival time.
    while (run.venue.arriveBefore(snapshot.takenAt, (t) => (this.#now = t))) await settle(run);
    this.#now = snapshot.takenAt;
    if (this.#index === 0) this.#startedAt = this.#now;
    this.#position = { index: this.#index, takenAt: this.#now };
    if (recorded.markets !== run.activeOf) {
      syncActive(run.engine, snapshot, run.active);
      run.activeOf = recorded.markets;
    }
    await this.#replayBooks(snapshot, run);
    // Orders sent earlier that reach the venue by now meet this snapshot's book, before the
    // strategies see it (a live answer arrives before the next poll too).
    if (run.venue.arrive() > 0) await settle(run);
    await run.session.onSnapshot(snapshot);
    await settle(run);
    this.#index += 1;
    return snapshot;
  }

  /**
   * After the last snapshot: checks the symbols not checked yet, and starts the run on an empty
   * snapshot when the recording had none.
   */
  async close(): Promise<ReplayRun> {
    if (this.#unchecked) this.#checkSymbols(true);
    this.#run ??= await this.#start(EMPTY_SNAPSHOT);
    return this.#run;
  }

  /**
   * Ends the run: orders still on their way, measured latency or not, are refused (the run's
   * PnL is measured at its snapshots, and no snapshot follows to value what they would fill),
   * answers are booked and the strategies stopped.
   */
  async end(): Promise<void> {
    const { venue, executor, session } = await this.close();
    venue.end();
    await executor.settle();
    await session.stop();
  }

  /** The listing changed (the decoder hands on one Map while it does not): new markets. */
  #listNew(recorded: Snapshot, run: ReplayRun): void {
    for (const market of recorded.markets.values()) {
      if (this.markets.has(market.id)) continue;
      const withFees = this.#options.overlay.market(market);
      this.markets.set(market.id, withFees);
      this.#now = recorded.takenAt;
      run.engine.addMarket(withFees);
      run.active.set(market.id, withFees.isActive);
    }
    if (this.#unchecked) this.#checkSymbols(false);
  }

  /** The snapshot's books into the engine, then the liquidations its marks tripped. */
  async #replayBooks(snapshot: Snapshot, run: ReplayRun): Promise<void> {
    const { engine, venue, executor } = run;
    const { overlay } = this.#options;
    if (snapshot.candles !== undefined) {
      this.#dataKind = 'candles';
      // The candle fill rule (data-kind.ts): the open, then the range, then the close.
      // Fills inside a candle are booked at its open time (the path inside is not known).
      this.#now = Math.min(...[...snapshot.candles.values()].map((c) => c.start));
      for (const [i, step] of candleSteps(snapshot.candles).entries()) {
        engine.replayQuotes(overlay.quotes(step));
        if (i === 0 && venue.arrive() > 0) await settle(run);
      }
      this.#now = snapshot.takenAt;
    } else if (this.#dataKind === undefined && snapshot.quotes !== undefined) {
      this.#dataKind = [...snapshot.quotes.values()].some(
        (q) => q.bids.length > 1 || q.asks.length > 1,
      )
        ? 'book'
        : 'quotes';
    }
    if (snapshot.quotes !== undefined) engine.replayQuotes(overlay.quotes(snapshot.quotes));
    this.#liquidationsSeen = takeLiquidations(
      engine,
      ACCOUNT_ID,
      this.#liquidationsSeen,
      executor,
      this.fills,
      this.liquidations,
    );
  }

  /**
   * Symbols a strategy names that the recording did not list yet: checked once all are seen,
   * or at the end (with the same error a scan up front gave).
   */
  #checkSymbols(final: boolean): void {
    const { strategies, config } = this.#options;
    const listed = new Set([...this.markets.values()].map((market) => market.symbol));
    if (!final && strategies.some((s) => s.symbols.some((symbol) => !listed.has(symbol)))) return;
    this.#unchecked = false;
    checkStrategySymbols(strategies, listed, 'the recording', config.source);
  }

  /** The engine, venue and trading stack, at the first snapshot. */
  async #start(first: Snapshot): Promise<ReplayRun> {
    const { config, fillModel, journal, overlay } = this.#options;
    this.#now = first.takenAt;
    this.#position = { index: -1, takenAt: this.#now };
    for (const market of first.markets.values())
      this.markets.set(market.id, overlay.market(market));
    const engine = new SimEngine({
      clock: this.#clock,
      markets: [...this.markets.values()],
      seed: config.paper.seed,
      // The venue's account holds what the report's equity starts from (docs/margin.md).
      initialBalance: fillModel.startingCapital,
    });
    const orderLatency = this.#options.orderLatency;
    const venue = new LatentVenue({
      engine,
      accountId: ACCOUNT_ID,
      // Candles: an order reaches the venue at the next candle's open (the next snapshot).
      latencyMs: this.#options.candles ? null : fillModel.latencyMs,
      position: () => this.#position,
      ...(orderLatency === undefined
        ? {}
        : {
            latencyOf: (request: SignedOrderRequest, from: number, before: number) =>
              orderLatency(sentOrder(journal, request), from, before),
          }),
    });
    const stack = await this.#stack(venue);
    return {
      engine,
      venue,
      ...stack,
      active: new Map([...this.markets.values()].map((m) => [m.id, m.isActive])),
      activeOf: undefined,
    };
  }

  /** The trading stack live trading runs, on the virtual clock, sending to `venue`. */
  #stack(venue: LatentVenue): Promise<TradingStack> {
    const { config, strategies, journal, fillModel, log } = this.#options;
    const wrap = this.#options.venueClient;
    return buildTradingStack({
      config,
      strategies,
      journal: journalWithFillLog(journal, this.fills),
      venue: wrap === undefined ? venue : wrap(venue),
      signer: this.#options.signer ?? backtestSigner(),
      // Virtual time: no rate window to wait for, and the simulation never fails transiently.
      // Every order is on its way at once (latency is the fill model's, not a queue's).
      rate: { requests: Infinity, perMs: 1, concurrency: Infinity, maxAttempts: 1 },
      killSwitchOn: () => false,
      // The equity a backtest sizes from starts where its report's equity curve does, unless
      // the config names the live capital.
      capitalX18:
        capitalOf(config.risk) ?? parseDecimalToX18(fillModel.startingCapital, 'startingCapital'),
      now: this.#clock,
      sleep: () => Promise.resolve(),
      log,
      onIntent: ({ seq, strategy, intent }) =>
        this.intents.push({ seq, strategy, intent: this.#keptIntents.one(intent) }),
      onPlot: (strategy, name, value, t) => this.#plots.push({ strategy, name, value, t }),
      chartBars: true,
    });
  }
}

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

/** The journal row of an order on its way (SENT), by the bytes that were sent. */
function sentOrder(journal: OrderJournal, request: SignedOrderRequest): OrderRecord {
  const record = journal.inStates(['SENT']).find((o) => o.body === request.body);
  if (record === undefined)
    throw new Error('backtest: an order was sent that its journal does not hold');
  return record;
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
    const x18 = candleX18(candle);
    const rising = x18.close >= x18.open;
    open.push(lockedQuote(marketId, start, candle.open, x18.open));
    first.push(
      rising
        ? lockedQuote(marketId, start, candle.low, x18.low)
        : lockedQuote(marketId, start, candle.high, x18.high),
    );
    second.push(
      rising
        ? lockedQuote(marketId, start, candle.high, x18.high)
        : lockedQuote(marketId, start, candle.low, x18.low),
    );
  }
  return [open, first, second];
}
