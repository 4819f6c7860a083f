import type { Dispatcher } from '../execution/dispatcher.ts';
import type { Executor } from '../execution/executor.ts';
import type { RateBudget } from '../execution/rate-budget/rate-budget.ts';
import type { TradingSession } from '../stack/trading-session.ts';
import type { Logger } from '../log/logger.ts';
import type { Poller } from '../market/poller.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { displayX18, formatX18, MONEY_DECIMALS } from '../money/index.ts';

const money = (valueX18: bigint): string => displayX18(valueX18, MONEY_DECIMALS, true);
import { valueAccount } from './control/position-values.ts';

/** Default spacing of status lines, in bot time. */
export const STATUS_EVERY_MS = 60_000;

/** What a status line reads. */
export interface StatusLineOptions {
  readonly now: () => number;
  readonly log: Logger;
  readonly everyMs?: number;
  readonly executor: Pick<Executor, 'positions' | 'stats'>;
  readonly poller: Pick<Poller, 'failures'>;
  readonly dispatcher: Pick<Dispatcher, 'pending'>;
  readonly session: Pick<TradingSession, 'pausedStrategies' | 'strategyTimeouts'>;
  /** When the order credentials expire (ms since the epoch), for a bot that has them. */
  readonly credentialsExpireAt?: () => number;
  /** The trading mode in effect. */
  readonly mode?: () => string;
  /** The rate budget (mode local/shared/fallback, skipped polls). */
  readonly budget?: Pick<RateBudget, 'status'>;
}

/**
 * A line a person watching a days-long run can read, every `everyMs` of bot time: is it
 * polling, is the data fresh, what does it hold. Counted from memory, not the journal, to stay
 * cheap.
 */
export class StatusLine {
  readonly #options: StatusLineOptions;
  #lastAt: number;

  constructor(options: StatusLineOptions) {
    this.#options = options;
    this.#lastAt = options.now();
  }

  /** Logs the line when `everyMs` passed since the last one (or the start). */
  maybeLog(snapshot: Snapshot, snapshots: number): void {
    const { now, everyMs = STATUS_EVERY_MS } = this.#options;
    if (now() - this.#lastAt < everyMs) return;
    this.#lastAt = now();
    this.log(snapshot, snapshots);
  }

  /** Logs the line now. */
  log(snapshot: Snapshot, snapshots: number): void {
    const { executor, poller, dispatcher, session, credentialsExpireAt, mode, budget } =
      this.#options;
    const positions = executor.positions
      .entries()
      .filter(([, p]) => p.amountX18 !== 0n)
      .map(
        ([marketId, p]) =>
          `${snapshot.markets.get(marketId)?.symbol ?? marketId} ${formatX18(p.amountX18)}`,
      );
    const stats = executor.stats();
    // Valued at this snapshot's marks (the one mark-price rule).
    const value = valueAccount(
      executor.positions.entries(),
      snapshot,
      (marketId) => snapshot.markets.get(marketId)?.symbol ?? String(marketId),
    );
    const notional = Object.fromEntries(
      value.positions
        .filter((p) => p.amountX18 !== 0n)
        .map((p) => [p.symbol, money(p.notionalX18)]),
    );
    this.#options.log.info(
      {
        ...(mode === undefined ? {} : { mode: mode() }),
        snapshots,
        stale: snapshot.stale,
        pollFailures: poller.failures,
        inFlight: dispatcher.pending,
        // Orders of unknown outcome: counted at full size against the limits until resolved.
        unresolved: stats.unresolvedOrders,
        refused: stats.refusals,
        // Money to the cent: a log line is read, the journal keeps the exact figures.
        realizedNet: money(executor.positions.realizedNetX18()),
        unrealized: money(value.unrealizedX18),
        // Realized net + unrealized since the journal began: PnL, not the account's equity.
        netPnl: money(value.netPnlX18),
        positions,
        notional,
        paused: session.pausedStrategies(),
        strategyTimeouts: session.strategyTimeouts(),
        ...(credentialsExpireAt === undefined
          ? {}
          : { credentialsExpireAt: new Date(credentialsExpireAt()).toISOString() }),
        ...(budget === undefined ? {} : { rateBudget: rateBudgetLine(budget) }),
      },
      'status',
    );
  }
}

/** The rate budget as the status line shows it: `shared 20/1000ms, 3 polls skipped`. */
function rateBudgetLine(budget: Pick<RateBudget, 'status'>): string {
  const status = budget.status();
  const paused = status.pausedForMs > 0 ? `, paused ${status.pausedForMs} ms` : '';
  return `${status.mode} ${status.requests}/${status.perMs}ms, ${status.skippedPolls} polls skipped${paused}`;
}
