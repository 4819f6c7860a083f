import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
} from 'prom-client';
import { CLOCK_STATES, type ClockReport } from '../../clock/venue-clock.ts';
import { isFinalState, ORDER_STATES, type OrderState } from '../../domain/index.ts';
import { ErrorCodes, isQuantaError } from '../../errors/index.ts';
import type { ExecutorObserver, ExecutorStats } from '../../execution/executor.ts';
import type { OrderRecord } from '../../execution/order-record.ts';
import { TRADING_MODES, type TradingMode } from '../../execution/trading-mode.ts';
import { formatX18 } from '../../money/index.ts';
import type { VenueClient } from '../../venue/venue-client.ts';
import type { AccountValue } from './position-values.ts';
import type { RateBudgetStatus } from '../../execution/rate-budget/rate-budget.ts';

/** What the metrics read at scrape time (nothing is computed per snapshot for them). */
export interface MetricsSource {
  readonly stats: () => ExecutorStats;
  readonly account: () => AccountValue;
  readonly queueDepth: () => number;
  readonly pollFailuresInRow: () => number;
  /** Ms since the last good poll, on the monotonic clock (undefined before the first). */
  readonly lastGoodPollAgeMs: () => number | undefined;
  readonly credentialsExpireAt: () => number;
  readonly pausedStrategies: () => readonly string[];
  readonly strategyTimeouts: () => Readonly<Record<string, number>>;
  readonly strategyErrors: () => Readonly<Record<string, number>>;
  readonly mode: () => TradingMode;
  readonly ready: () => boolean;
  /** The rate budget's status (absent: no budget metrics). */
  readonly rateBudget?: () => RateBudgetStatus;
  /** This host's clock against the venue's (absent: no clock metrics). */
  readonly clock?: () => ClockReport;
}

/** Options of {@link BotMetrics}: the label values allowed (everything else is `other`). */
export interface BotMetricsOptions {
  /** Strategy instance names from the config. */
  readonly strategies: readonly string[];
  /** Market symbols named in the config. */
  readonly markets: readonly string[];
  /** Extra strategy names the bot itself journals under (the flatten orders). */
  readonly internalStrategies?: readonly string[];
}

const OTHER = 'other';
/** Seconds: from a fast loopback answer to a venue that takes its full timeout. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A decimal x18 amount as a gauge value: a number only here, at the very edge. */
const gaugeValue = (x18: bigint): number => Number(formatX18(x18));

/**
 * The bot's Prometheus metrics on a registry of its own (prom-client), plus Node's default
 * process metrics. Label sets are bounded: strategies and markets come from the config (others
 * are `other`), refusal reasons, order states and modes from the code. Counters the order path
 * drives are increased through hooks; everything else is read when Prometheus scrapes.
 */
export class BotMetrics {
  readonly registry = new Registry();
  readonly #strategies: ReadonlySet<string>;
  readonly #markets: ReadonlySet<string>;
  #source: MetricsSource | undefined;
  /** States of orders seen by this process that are not final yet (to count each final once). */
  readonly #open = new Map<number, OrderState>();

  readonly #polls: Counter<'outcome'>;
  readonly #readLatency: Histogram<'read'>;
  readonly #intents: Counter<'strategy'>;
  readonly #finished: Counter<'state'>;
  readonly #roundTrip: Histogram;
  readonly #retries: Counter;
  readonly #rateLimited: Counter<'api'>;

  constructor(options: BotMetricsOptions) {
    this.#strategies = new Set([...options.strategies, ...(options.internalStrategies ?? [])]);
    this.#markets = new Set(options.markets);
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });

    this.#polls = new Counter({
      name: 'quanta_polls_total',
      help: 'Venue polls (market listing), by outcome',
      labelNames: ['outcome'],
      registers,
    });
    this.#readLatency = new Histogram({
      name: 'quanta_poll_duration_seconds',
      help: 'Latency of the venue reads a poll makes (markets, quotes)',
      labelNames: ['read'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#intents = new Counter({
      name: 'quanta_intents_total',
      help: 'Intents produced by strategies, before checks',
      labelNames: ['strategy'],
      registers,
    });
    this.#finished = new Counter({
      name: 'quanta_orders_finished_total',
      help: 'Orders that reached a final state in this process, by state',
      labelNames: ['state'],
      registers,
    });
    this.#roundTrip = new Histogram({
      name: 'quanta_order_round_trip_seconds',
      help: 'From the start of an order dispatch to its answer (retries and rate waits included)',
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#retries = new Counter({
      name: 'quanta_order_retries_total',
      help: 'Order send attempts after the first (identical signed bytes)',
      registers,
    });
    this.#rateLimited = new Counter({
      name: 'quanta_venue_rate_limited_total',
      help: 'Venue answers 429 (rate limited), by API',
      labelNames: ['api'],
      registers,
    });
    // Every series of a bounded label set exists from the start (a rate needs its zero).
    for (const outcome of ['ok', 'failed']) this.#polls.inc({ outcome }, 0);
    for (const api of ['read', 'order']) this.#rateLimited.inc({ api }, 0);
    for (const state of ORDER_STATES.filter(isFinalState)) this.#finished.inc({ state }, 0);
    for (const strategy of options.strategies) this.#intents.inc({ strategy }, 0);
    this.#retries.inc(0);
    this.#scrapeTimeMetrics(registers);
  }

  /** Gives the metrics what they read at scrape time. */
  attach(source: MetricsSource): void {
    this.#source = source;
  }

  /** The text exposition and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  #strategyLabel(name: string): string {
    return this.#strategies.has(name) ? name : OTHER;
  }

  #marketLabel(symbol: string): string {
    return this.#markets.has(symbol) ? symbol : OTHER;
  }

  /** Counts an intent a strategy produced. */
  intent(strategy: string): void {
    this.#intents.inc({ strategy: this.#strategyLabel(strategy) });
  }

  /** Counts a send attempt; attempts after the first are retries. */
  attempt(_orderId: number, attempt: number): void {
    if (attempt > 1) this.#retries.inc();
  }

  /** The executor's observer: round trips and orders reaching a final state. */
  readonly observer: ExecutorObserver = {
    dispatched: (_record, roundTripMs) => this.#roundTrip.observe(roundTripMs / 1000),
    updated: (record: OrderRecord) => {
      if (!isFinalState(record.state)) {
        this.#open.set(record.id, record.state);
        return;
      }
      const before = this.#open.get(record.id);
      this.#open.delete(record.id);
      if (before === undefined || !isFinalState(before))
        this.#finished.inc({ state: record.state });
    },
  };

  /**
   * `client` with its reads timed and counted (the poller's) and the 429 answers of reads and
   * order sends counted; lookups pass through.
   */
  venueClient(client: VenueClient): VenueClient {
    return {
      listMarkets: async (signal) => {
        const done = this.#readLatency.startTimer({ read: 'markets' });
        try {
          const markets = await client.listMarkets(signal);
          this.#polls.inc({ outcome: 'ok' });
          return markets;
        } catch (error) {
          if (!signal.aborted) this.#polls.inc({ outcome: 'failed' });
          this.#countRateLimited(error, 'read');
          throw error;
        } finally {
          done();
        }
      },
      getQuotes: async (signal) => {
        const done = this.#readLatency.startTimer({ read: 'quotes' });
        try {
          return await client.getQuotes(signal);
        } catch (error) {
          this.#countRateLimited(error, 'read');
          throw error;
        } finally {
          done();
        }
      },
      createOrder: async (request, signal) => {
        try {
          return await client.createOrder(request, signal);
        } catch (error) {
          this.#countRateLimited(error, 'order');
          throw error;
        }
      },
      getOrder: (venueOrderId, signal) => client.getOrder(venueOrderId, signal),
    };
  }

  #countRateLimited(error: unknown, api: 'read' | 'order'): void {
    if (isQuantaError(error, ErrorCodes.VENUE_RATE_LIMITED)) this.#rateLimited.inc({ api });
  }

  // Gauges (and counters kept by the executor) read from the source when Prometheus scrapes.
  #scrapeTimeMetrics(registers: Registry[]): void {
    const source = (): MetricsSource | undefined => this.#source;
    const strategyLabel = (name: string): string => this.#strategyLabel(name);
    const gauge = <L extends string>(
      config: Omit<GaugeConfiguration<L>, 'registers' | 'collect'>,
      collect: (gauge: Gauge<L>, from: MetricsSource) => void,
    ): void => {
      new Gauge<L>({
        ...config,
        registers,
        collect(this: Gauge<L>) {
          const from = source();
          if (from === undefined) return;
          this.reset();
          collect(this, from);
        },
      });
    };
    const refusedSeen = new Map<string, number>();
    new Counter<'strategy' | 'reason'>({
      name: 'quanta_refusals_total',
      help: 'Intents refused before sending, by strategy and reason',
      labelNames: ['strategy', 'reason'],
      registers,
      collect(this: Counter<'strategy' | 'reason'>) {
        const from = source();
        if (from === undefined) return;
        const totals = new Map<string, { strategy: string; reason: string; n: number }>();
        for (const [name, reasons] of Object.entries(from.stats().refusalsByStrategy)) {
          const strategy = strategyLabel(name);
          for (const [reason, n] of Object.entries(reasons)) {
            const key = `${strategy}\u0000${reason}`;
            const entry = totals.get(key) ?? { strategy, reason, n: 0 };
            entry.n += n ?? 0;
            totals.set(key, entry);
          }
        }
        for (const [key, { strategy, reason, n }] of totals) {
          const delta = n - (refusedSeen.get(key) ?? 0);
          if (delta > 0) this.inc({ strategy, reason }, delta);
          refusedSeen.set(key, n);
        }
      },
    } satisfies CounterConfiguration<'strategy' | 'reason'>);

    gauge(
      {
        name: 'quanta_journal_orders',
        help: 'Orders in the journal, by state',
        labelNames: ['state'],
      },
      (g, from) => {
        for (const [state, n] of Object.entries(from.stats().ordersByState)) g.set({ state }, n);
      },
    );
    gauge(
      {
        name: 'quanta_orders_unresolved',
        help: 'Orders of unknown outcome, counted at full size by risk until resolved',
      },
      (g, from) => g.set(from.stats().unresolvedOrders),
    );
    gauge(
      {
        name: 'quanta_orders_in_flight',
        help: 'Orders journaled but not answered yet (PENDING, SENT)',
      },
      (g, from) => {
        const by = from.stats().ordersByState;
        g.set((by.PENDING ?? 0) + (by.SENT ?? 0));
      },
    );
    gauge(
      { name: 'quanta_orders_open', help: 'Orders resting on the venue (OPEN, PARTIALLY_FILLED)' },
      (g, from) => {
        const by = from.stats().ordersByState;
        g.set((by.OPEN ?? 0) + (by.PARTIALLY_FILLED ?? 0));
      },
    );
    gauge(
      { name: 'quanta_dispatch_queue_depth', help: 'Orders being sent or waiting for a send slot' },
      (g, from) => g.set(from.queueDepth()),
    );
    gauge(
      {
        name: 'quanta_rate_budget_mode',
        help: 'The rate budget in effect: 1 for the mode it is in (local, shared, fallback)',
        labelNames: ['mode'],
      },
      (g, from) => {
        const status = from.rateBudget?.();
        if (status === undefined) return;
        for (const mode of ['local', 'shared', 'fallback'])
          g.set({ mode }, status.mode === mode ? 1 : 0);
      },
    );
    gauge(
      {
        name: 'quanta_rate_budget_requests',
        help: 'Requests per window this process keeps to now (the fallback share when Redis is unreachable)',
      },
      (g, from) => {
        const status = from.rateBudget?.();
        if (status !== undefined) g.set(status.requests);
      },
    );
    gauge(
      {
        name: 'quanta_polls_skipped',
        help: 'Polls skipped since start for want of a rate permit (orders go first)',
      },
      (g, from) => g.set(from.rateBudget?.().skippedPolls ?? 0),
    );
    gauge(
      {
        name: 'quanta_rate_budget_fallbacks',
        help: 'Times the shared rate budget fell back to the local share since start',
      },
      (g, from) => g.set(from.rateBudget?.().fallbacks ?? 0),
    );
    gauge(
      { name: 'quanta_poll_failures_in_row', help: 'Consecutive failed venue polls' },
      (g, from) => g.set(from.pollFailuresInRow()),
    );
    gauge(
      {
        name: 'quanta_snapshot_age_seconds',
        help: 'Age of the last good venue poll (NaN before the first one)',
      },
      (g, from) => {
        const ageMs = from.lastGoodPollAgeMs();
        g.set(ageMs === undefined ? Number.NaN : ageMs / 1000);
      },
    );
    const perMarket = (
      name: string,
      help: string,
      pick: (p: AccountValue['positions'][number]) => bigint,
    ): void =>
      gauge({ name, help, labelNames: ['market'] }, (g, from) => {
        const sums = new Map<string, bigint>();
        for (const market of this.#markets) sums.set(market, 0n);
        for (const position of from.account().positions) {
          const label = this.#marketLabel(position.symbol);
          sums.set(label, (sums.get(label) ?? 0n) + pick(position));
        }
        for (const [market, x18] of sums) g.set({ market }, gaugeValue(x18));
      });
    perMarket('quanta_position', 'Signed position in base units, by market', (p) => p.amountX18);
    perMarket(
      'quanta_position_notional',
      'Position notional at the mark, quote units, by market',
      (p) => p.notionalX18,
    );
    perMarket(
      'quanta_unrealized_pnl_by_market',
      'Unrealized PnL at the mark, quote units, by market',
      (p) => p.unrealizedX18,
    );
    gauge(
      { name: 'quanta_realized_pnl', help: 'Realized PnL net of fees, quote units, whole journal' },
      (g, from) => g.set(gaugeValue(from.account().realizedNetX18)),
    );
    gauge(
      { name: 'quanta_unrealized_pnl', help: 'Unrealized PnL at the marks, quote units' },
      (g, from) => g.set(gaugeValue(from.account().unrealizedX18)),
    );
    gauge(
      {
        name: 'quanta_net_pnl',
        help: 'Net PnL: realized net of fees + unrealized since the journal began, quote units (not equity: deposits are unknown to the bot)',
      },
      (g, from) => g.set(gaugeValue(from.account().netPnlX18)),
    );
    gauge(
      {
        name: 'quanta_credentials_expiry_timestamp_seconds',
        help: 'When the order credentials expire (Unix time)',
      },
      (g, from) => g.set(from.credentialsExpireAt() / 1000),
    );
    gauge(
      {
        name: 'quanta_strategy_paused',
        help: '1 while a strategy is paused after failures or timeouts',
        labelNames: ['strategy'],
      },
      (g, from) => {
        const paused = new Set(from.pausedStrategies());
        for (const strategy of this.#strategies)
          if (!strategy.startsWith('quanta:')) g.set({ strategy }, paused.has(strategy) ? 1 : 0);
      },
    );
    const strategyCounter = (
      name: string,
      help: string,
      read: (from: MetricsSource) => Readonly<Record<string, number>>,
    ): void => {
      const seen = new Map<string, number>();
      new Counter<'strategy'>({
        name,
        help,
        labelNames: ['strategy'],
        registers,
        collect(this: Counter<'strategy'>) {
          const from = source();
          if (from === undefined) return;
          for (const [name, n] of Object.entries(read(from))) {
            const strategy = strategyLabel(name);
            const delta = n - (seen.get(name) ?? 0);
            if (delta > 0 || !seen.has(name)) this.inc({ strategy }, Math.max(0, delta));
            seen.set(name, n);
          }
        },
      });
    };
    strategyCounter(
      'quanta_strategy_errors_total',
      'Strategy calls (onSnapshot, onFill) that failed',
      (from) => from.strategyErrors(),
    );
    strategyCounter(
      'quanta_strategy_timeouts_total',
      'Snapshots a strategy did not answer within its timeout',
      (from) => from.strategyTimeouts(),
    );
    gauge(
      {
        name: 'quanta_trading_mode',
        help: '1 for the trading mode in effect',
        labelNames: ['mode'],
      },
      (g, from) => {
        const current = from.mode();
        for (const mode of TRADING_MODES) g.set({ mode }, mode === current ? 1 : 0);
      },
    );
    gauge(
      {
        name: 'quanta_clock_state',
        help: "1 for what is known of this host's clock against the venue's (orders are signed only when ok)",
        labelNames: ['state'],
      },
      (g, from) => {
        const report = from.clock?.();
        if (report === undefined) return;
        for (const state of CLOCK_STATES) g.set({ state }, report.verdict.state === state ? 1 : 0);
      },
    );
    gauge(
      {
        name: 'quanta_clock_skew_seconds',
        help: "Bounds of the venue's clock minus this host's (positive: this host behind); absent until known",
        labelNames: ['bound'],
      },
      (g, from) => {
        const skew = from.clock?.().verdict.skew;
        if (skew === undefined) return;
        g.set({ bound: 'low' }, skew.low / 1000);
        g.set({ bound: 'high' }, skew.high / 1000);
      },
    );
    gauge(
      { name: 'quanta_wall_clock_steps', help: 'Steps of the wall clock seen since start' },
      (g, from) => g.set(from.clock?.().wallSteps ?? 0),
    );
    gauge({ name: 'quanta_ready', help: '1 while /readyz answers 200' }, (g, from) =>
      g.set(from.ready() ? 1 : 0),
    );
  }
}
