/**
 * The bot's metrics read when Prometheus scrapes (gauges, and counters the executor keeps):
 * nothing is computed per snapshot for them. Registered in this order, which is the order of
 * the exposition.
 */
import {
  Counter,
  Gauge,
  type CounterConfiguration,
  type GaugeConfiguration,
  type Registry,
} from 'prom-client';
import { CLOCK_STATES } from '../../clock/venue-clock.ts';
import { TRADING_MODES } from '../../execution/trading-mode.ts';
import { formatX18 } from '../../money/index.ts';
import type { MetricsSource } from './metrics-source.ts';
import type { AccountValue } from './position-values.ts';

/** What the scrape-time metrics share: where they register, what they read, the label bounds. */
export interface ScrapeContext {
  readonly registers: Registry[];
  /** The source attached to the metrics (undefined before: the metrics then stay as they are). */
  readonly source: () => MetricsSource | undefined;
  /** Strategy names allowed as labels (the config's and the bot's own). */
  readonly strategies: ReadonlySet<string>;
  /** Market symbols allowed as labels. */
  readonly markets: ReadonlySet<string>;
  readonly strategyLabel: (name: string) => string;
  readonly marketLabel: (symbol: string) => string;
}

/** Registers every scrape-time metric. */
export function registerScrapeMetrics(context: ScrapeContext): void {
  orderMetrics(context);
  lookupMetrics(context);
  pollMetrics(context);
  accountMetrics(context);
  strategyMetrics(context);
  modeMetrics(context);
}

/** A decimal x18 amount as a gauge value: a number only here, at the very edge. */
const gaugeValue = (x18: bigint): number => Number(formatX18(x18));

/** A gauge reset and filled from the source at each scrape. */
function scrapeGauge<L extends string>(
  { registers, source }: ScrapeContext,
  config: Omit<GaugeConfiguration<L>, 'registers' | 'collect'>,
  collect: (gauge: Gauge<L>, from: MetricsSource) => void,
): void {
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
}

/** Failed order lookups (the executor counts them; a counter only grows). */
function lookupMetrics({ registers, source }: ScrapeContext): void {
  let lookupFailuresSeen = 0;
  new Counter({
    name: 'quanta_order_lookup_failures_total',
    help: 'Order lookups (by venue id or by signature) that failed',
    registers,
    collect(this: Counter) {
      const n = source()?.stats().lookupFailures;
      if (n === undefined) return;
      if (n > lookupFailuresSeen) this.inc(n - lookupFailuresSeen);
      lookupFailuresSeen = n;
    },
  });
}

function orderMetrics(context: ScrapeContext): void {
  const { registers, source, strategyLabel } = context;
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
  scrapeGauge(
    context,
    {
      name: 'quanta_journal_orders',
      help: 'Orders in the journal, by state',
      labelNames: ['state'],
    },
    (g, from) => {
      for (const [state, n] of Object.entries(from.stats().ordersByState)) g.set({ state }, n);
    },
  );
  scrapeGauge(
    context,
    {
      name: 'quanta_orders_unresolved',
      help: 'Orders of unknown outcome, counted at full size by risk until resolved',
    },
    (g, from) => g.set(from.stats().unresolvedOrders),
  );
  scrapeGauge(
    context,
    {
      name: 'quanta_orders_in_flight',
      help: 'Orders journaled but not answered yet (PENDING, SENT)',
    },
    (g, from) => {
      const by = from.stats().ordersByState;
      g.set((by.PENDING ?? 0) + (by.SENT ?? 0));
    },
  );
  scrapeGauge(
    context,
    { name: 'quanta_orders_open', help: 'Orders resting on the venue (OPEN, PARTIALLY_FILLED)' },
    (g, from) => {
      const by = from.stats().ordersByState;
      g.set((by.OPEN ?? 0) + (by.PARTIALLY_FILLED ?? 0));
    },
  );
  scrapeGauge(
    context,
    { name: 'quanta_dispatch_queue_depth', help: 'Orders being sent or waiting for a send slot' },
    (g, from) => g.set(from.queueDepth()),
  );
}

function pollMetrics(context: ScrapeContext): void {
  scrapeGauge(
    context,
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
  scrapeGauge(
    context,
    {
      name: 'quanta_rate_budget_requests',
      help: 'Requests per window this process keeps to now (the fallback share when Redis is unreachable)',
    },
    (g, from) => {
      const status = from.rateBudget?.();
      if (status !== undefined) g.set(status.requests);
    },
  );
  scrapeGauge(
    context,
    {
      name: 'quanta_polls_skipped',
      help: 'Polls skipped since start for want of a rate permit (orders go first)',
    },
    (g, from) => g.set(from.rateBudget?.().skippedPolls ?? 0),
  );
  scrapeGauge(
    context,
    {
      name: 'quanta_rate_budget_fallbacks',
      help: 'Times the shared rate budget fell back to the local share since start',
    },
    (g, from) => g.set(from.rateBudget?.().fallbacks ?? 0),
  );
  scrapeGauge(
    context,
    { name: 'quanta_poll_failures_in_row', help: 'Consecutive failed venue polls' },
    (g, from) => g.set(from.pollFailuresInRow()),
  );
  scrapeGauge(
    context,
    {
      name: 'quanta_snapshot_age_seconds',
      help: 'Age of the last good venue poll (NaN before the first one)',
    },
    (g, from) => {
      const ageMs = from.lastGoodPollAgeMs();
      g.set(ageMs === undefined ? Number.NaN : ageMs / 1000);
    },
  );
}

function accountMetrics(context: ScrapeContext): void {
  const perMarket = (
    name: string,
    help: string,
    pick: (p: AccountValue['positions'][number]) => bigint,
  ): void =>
    scrapeGauge(context, { name, help, labelNames: ['market'] }, (g, from) => {
      const sums = new Map<string, bigint>();
      for (const market of context.markets) sums.set(market, 0n);
      for (const position of from.account().positions) {
        const label = context.marketLabel(position.symbol);
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
  scrapeGauge(
    context,
    { name: 'quanta_realized_pnl', help: 'Realized PnL net of fees, quote units, whole journal' },
    (g, from) => g.set(gaugeValue(from.account().realizedNetX18)),
  );
  scrapeGauge(
    context,
    { name: 'quanta_unrealized_pnl', help: 'Unrealized PnL at the marks, quote units' },
    (g, from) => g.set(gaugeValue(from.account().unrealizedX18)),
  );
  scrapeGauge(
    context,
    {
      name: 'quanta_net_pnl',
      help: 'Net PnL: realized net of fees + unrealized since the journal began, quote units (not equity: deposits are unknown to the bot)',
    },
    (g, from) => g.set(gaugeValue(from.account().netPnlX18)),
  );
  scrapeGauge(
    context,
    {
      name: 'quanta_credentials_expiry_timestamp_seconds',
      help: 'When the order credentials expire (Unix time)',
    },
    (g, from) => g.set(from.credentialsExpireAt() / 1000),
  );
  scrapeGauge(
    context,
    {
      name: 'quanta_credentials_can_sign',
      help: '1 while an order can be signed: 0 after the venue refused the newest key (until a new one registers) or close to its expiry',
    },
    (g, from) => g.set(from.credentialsCanSign() ? 1 : 0),
  );
}

function strategyMetrics(context: ScrapeContext): void {
  const { registers, source, strategyLabel } = context;
  scrapeGauge(
    context,
    {
      name: 'quanta_strategy_paused',
      help: '1 while a strategy is paused after failures or timeouts',
      labelNames: ['strategy'],
    },
    (g, from) => {
      const paused = new Set(from.pausedStrategies());
      for (const strategy of context.strategies)
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
}

function modeMetrics(context: ScrapeContext): void {
  scrapeGauge(
    context,
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
  scrapeGauge(
    context,
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
  scrapeGauge(
    context,
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
  scrapeGauge(
    context,
    { name: 'quanta_wall_clock_steps', help: 'Steps of the wall clock seen since start' },
    (g, from) => g.set(from.clock?.().wallSteps ?? 0),
  );
  scrapeGauge(context, { name: 'quanta_ready', help: '1 while /readyz answers 200' }, (g, from) =>
    g.set(from.ready() ? 1 : 0),
  );
}
