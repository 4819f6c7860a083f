import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { isFinalState, ORDER_STATES, type OrderState } from '../../domain/index.ts';
import { ErrorCodes, isQuantaError } from '../../errors/index.ts';
import type { ExecutorObserver } from '../../execution/executor.ts';
import type { OrderRecord } from '../../execution/order-record.ts';
import type { VenueClient } from '../../venue/venue-client.ts';
import type { MetricsSource } from './metrics-source.ts';
import { registerScrapeMetrics } from './scrape-metrics.ts';

export type { MetricsSource } from './metrics-source.ts';

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
    registerScrapeMetrics({
      registers,
      source: () => this.#source,
      strategies: this.#strategies,
      markets: this.#markets,
      strategyLabel: (name) => this.#strategyLabel(name),
      marketLabel: (symbol) => this.#marketLabel(symbol),
    });
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
      getQuotes: async (signal, marketId) => {
        const done = this.#readLatency.startTimer({ read: 'quotes' });
        try {
          return await client.getQuotes(signal, marketId);
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
      ...(client.findOrder === undefined ? {} : { findOrder: client.findOrder }),
      register: (brokerId, request, signal) => client.register(brokerId, request, signal),
    };
  }

  #countRateLimited(error: unknown, api: 'read' | 'order'): void {
    if (isQuantaError(error, ErrorCodes.VENUE_RATE_LIMITED)) this.#rateLimited.inc({ api });
  }
}
