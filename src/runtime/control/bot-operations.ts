import type { CredentialManager } from '../../account/credential-manager.ts';
import type { ClockReport } from '../../clock/venue-clock.ts';
import type { Config } from '../../config/index.ts';
import { summarizeError } from '../../errors/index.ts';
import type { Dispatcher } from '../../execution/dispatcher.ts';
import type { Executor } from '../../execution/executor.ts';
import type { OrderJournal } from '../../execution/journal.ts';
import { OPEN_ORDER_STATES } from '../../domain/index.ts';
import type { TradingModes, TradingMode } from '../../execution/trading-mode.ts';
import type { TradingSession } from '../../stack/trading-session.ts';
import type { RateBudgetStatus } from '../../execution/rate-budget/rate-budget.ts';
import type { Poller } from '../../market/poller.ts';
import type { Snapshot } from '../../market/snapshot.ts';
import { formatX18 } from '../../money/index.ts';
import type { LiveParams } from '../live-params.ts';
import type { ControlHandlers } from './control-handlers.ts';
import type { LiveFeed } from './live-feed.ts';
import { realizedPnlHistory } from './pnl-history.ts';
import { clockJson, credentialsJson, orderJson, type BotStatus } from './status-json.ts';
import { valueAccount, type AccountValue } from './position-values.ts';

/** The parts of a running bot that operations read. */
export interface BotOperationsOptions {
  readonly config: Pick<Config, 'poll'> & { readonly control?: Config['control'] };
  readonly now: () => number;
  readonly executor: Pick<Executor, 'positions' | 'stats'>;
  readonly dispatcher: Pick<Dispatcher, 'pending'>;
  readonly session: Pick<
    TradingSession,
    | 'pausedStrategies'
    | 'strategyTimeouts'
    | 'resumeStrategy'
    | 'strategyNames'
    | 'strategyErrors'
    | 'strategyBars'
  >;
  readonly poller: Pick<Poller, 'failures' | 'lastGoodAt' | 'lastGoodAgeMs'>;
  readonly journal: Pick<OrderJournal, 'inStates' | 'latest' | 'lastWriteError' | 'all'>;
  readonly credentials: Pick<CredentialManager, 'current' | 'signingRefusal' | 'state'>;
  readonly modes: TradingModes;
  /** A market's symbol (its id when unknown). */
  readonly symbolOf: (marketId: number) => string;
  /** Metrics exposition; absent until metrics are wired. */
  readonly metrics?: () => Promise<{ contentType: string; body: string }>;
  /** The rate budget's status (`GET /status` shows it as `rateBudget`). */
  readonly rateBudget?: () => RateBudgetStatus;
  /** The live page's feed (`GET /events`); absent: nothing is pushed. */
  readonly feed?: LiveFeed;
  /** This host's clock against the venue's (`GET /status` shows it as `clock`). */
  readonly clock?: () => ClockReport;
  /** Live params (`POST /strategies/{name}/params`); absent: params cannot change. */
  readonly params?: Pick<LiveParams, 'change' | 'audit' | 'current'>;
}

/** How many of a strategy's latest bars `GET /status` gives the page's chart. */
const STATUS_BARS = 120;

/** How many of the latest params changes `GET /status` lists. */
const STATUS_PARAM_CHANGES = 20;

/** A value as JSON can carry it: a schema may parse a param into a bigint. */
function jsonSafe(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ??
      'null',
  ) as unknown;
}

/** Where the status line and the control server read the bot's state from. */
export class BotOperations {
  readonly #options: BotOperationsOptions;
  #running = false;
  #snapshots = 0;
  #last: Snapshot | undefined;
  #renewalError: string | undefined;

  constructor(options: BotOperationsOptions) {
    this.#options = options;
  }

  get modes(): TradingModes {
    return this.#options.modes;
  }

  /** The run loop started (true) or ended (false). */
  setRunning(running: boolean): void {
    this.#running = running;
  }

  /** A snapshot was traded on. */
  traded(snapshot: Snapshot, snapshots: number): void {
    this.#last = snapshot;
    this.#snapshots = snapshots;
    this.#options.feed?.push(() => this.status());
  }

  /** Sends the status to the live pages now (a mode changed, a strategy resumed). */
  pushNow(): void {
    this.#options.feed?.push(() => this.status(), 'now');
  }

  /** How the last credential renewal ended (undefined: it succeeded). */
  renewalEnded(error: unknown): void {
    this.#renewalError = error === undefined ? undefined : summarizeError(error).message;
  }

  /** The latest snapshot traded on. */
  get lastSnapshot(): Snapshot | undefined {
    return this.#last;
  }

  /** The account at the latest snapshot's marks. */
  accountValue(): AccountValue {
    return valueAccount(
      this.#options.executor.positions.entries(),
      this.#last,
      this.#options.symbolOf,
    );
  }

  /** Whether the last credential renewal failed, with why. */
  get renewalError(): string | undefined {
    return this.#renewalError;
  }

  /**
   * Why the bot is not ready to trade: the run loop not running, data stale, polls failing,
   * credentials that cannot renew (or expired), a journal whose last write failed, trading
   * halted. Writes nothing.
   */
  notReadyReasons(): string[] {
    const { poller, config, now, credentials, journal, modes } = this.#options;
    const reasons: string[] = [];
    if (!this.#running) reasons.push('run loop not running');
    const ageMs = poller.lastGoodAgeMs();
    const staleAfterMs = config.poll.staleAfterMs;
    if (ageMs === undefined) {
      if (this.#running) reasons.push('no venue poll has succeeded yet');
    } else if (ageMs > staleAfterMs) {
      reasons.push(
        `data stale: last good poll ${Math.round(ageMs)} ms ago (poll.staleAfterMs ${staleAfterMs})`,
      );
    }
    if (poller.failures > 0) reasons.push(`venue polls failing: ${poller.failures} in a row`);
    if (this.#renewalError !== undefined)
      reasons.push(`credentials cannot renew: ${this.#renewalError}`);
    const expiry = credentials.current().expiryTs;
    if (expiry <= now()) reasons.push(`credentials expired at ${new Date(expiry).toISOString()}`);
    else {
      // Refused by the venue (revoked), or too close to its expiry: every intent is refused.
      const signing = credentials.signingRefusal();
      if (signing !== undefined) reasons.push(`orders cannot be signed: ${signing}`);
    }
    // The last real write's outcome, not a probe: readiness is read by every scrape of
    // /readyz, /status and /metrics, and a probe row was an fsync on the order journal each time.
    const journalError = journal.lastWriteError;
    if (journalError !== undefined) reasons.push(`journal cannot write: ${journalError}`);
    const mode = modes.mode;
    if (mode !== 'trading') reasons.push(`trading ${mode}`);
    return reasons;
  }

  /** What the status line shows, plus open orders and the latest orders (JSON). */
  status(): BotStatus {
    const { executor, dispatcher, session, poller, journal, credentials, modes } = this.#options;
    const stats = executor.stats();
    const value = this.accountValue();
    const lastOrders = this.#options.config.control?.lastOrders ?? 20;
    const reasons = this.notReadyReasons();
    // One reading for `at` and the credentials' times: `newKeyAfter` at or before `at` means
    // due now, which a second, later reading would break by the milliseconds between them.
    const nowMs = this.#options.now();
    const keys = credentials.state();
    return {
      at: new Date(nowMs).toISOString(),
      mode: modes.mode,
      ready: reasons.length === 0,
      notReadyReasons: reasons,
      snapshots: this.#snapshots,
      stale: this.#last?.stale ?? null,
      lastGoodPollAt:
        poller.lastGoodAt === undefined ? null : new Date(poller.lastGoodAt).toISOString(),
      pollFailures: poller.failures,
      ...(this.#options.rateBudget === undefined ? {} : { rateBudget: this.#options.rateBudget() }),
      ...(this.#options.clock === undefined ? {} : { clock: clockJson(this.#options.clock()) }),
      inFlight: dispatcher.pending,
      unresolvedOrders: stats.unresolvedOrders,
      refused: stats.refusals,
      ordersByState: stats.ordersByState,
      realizedNet: formatX18(value.realizedNetX18),
      unrealized: formatX18(value.unrealizedX18),
      // Realized net + unrealized since the journal began: PnL, not the account's equity.
      netPnl: formatX18(value.netPnlX18),
      positions: value.positions
        .filter((p) => p.amountX18 !== 0n || p.realizedX18 !== 0n || p.feesX18 !== 0n)
        .map((p) => ({
          symbol: p.symbol,
          amount: formatX18(p.amountX18),
          avgEntryPrice: formatX18(p.avgEntryPriceX18),
          mark: p.markX18 === undefined ? null : formatX18(p.markX18),
          notional: formatX18(p.notionalX18),
          unrealizedPnl: formatX18(p.unrealizedX18),
          realizedPnl: formatX18(p.realizedX18),
          fees: formatX18(p.feesX18),
        })),
      strategies: session.strategyNames(),
      paused: session.pausedStrategies(),
      strategyTimeouts: session.strategyTimeouts(),
      strategyErrors: session.strategyErrors(),
      bars: Object.fromEntries(
        Object.entries(session.strategyBars()).map(([name, bars]) => [
          name,
          bars.slice(-STATUS_BARS).map((bar) => ({
            symbol: bar.symbol,
            timeframe: bar.timeframe,
            end: bar.end,
            open: bar.open,
            high: bar.high,
            low: bar.low,
            close: bar.close,
          })),
        ]),
      ),
      ...(this.#options.params === undefined
        ? {}
        : {
            params: jsonSafe(this.#options.params.current()),
            paramChanges: this.#options.params.audit().slice(-STATUS_PARAM_CHANGES).reverse(),
          }),
      credentialsExpireAt: new Date(keys.expiryTs).toISOString(),
      credentials: credentialsJson(keys, nowMs),
      openOrders: journal.inStates(OPEN_ORDER_STATES).map(orderJson),
      lastOrders: journal.latest(lastOrders).map(orderJson),
    };
  }

  /** The control server's view of this bot. */
  handlers(): ControlHandlers {
    const { modes, session } = this.#options;
    return {
      live: () => this.#running,
      notReadyReasons: () => this.notReadyReasons(),
      status: () => this.status(),
      metrics: async () =>
        this.#options.metrics === undefined
          ? { contentType: 'text/plain; version=0.0.4', body: '' }
          : this.#options.metrics(),
      halt: (mode) => modes.set(mode, 'control'),
      resume: (): TradingMode => modes.set('trading', 'control'),
      resumeStrategy: (name) => {
        const outcome = session.resumeStrategy(name);
        if (outcome === 'resumed') this.pushNow();
        return outcome;
      },
      params: () => {
        const params = this.#options.params;
        return params === undefined
          ? { params: {}, changes: [] }
          : { params: jsonSafe(params.current()), changes: params.audit() };
      },
      setParams: async (name, changes, by) => {
        const params = this.#options.params;
        if (params === undefined)
          return { ok: false, why: 'refused', error: 'live params are off', details: [] };
        const outcome = await params.change(name, changes, by);
        if (!outcome.ok) return outcome;
        this.pushNow();
        return { ...outcome, params: jsonSafe(outcome.params) };
      },
      watch: (listener) => {
        const feed = this.#options.feed;
        if (feed === undefined) return () => undefined;
        return feed.subscribe(listener, [
          ['history', realizedPnlHistory(this.#options.journal.all())],
          ['status', this.status()],
        ]);
      },
    };
  }
}
