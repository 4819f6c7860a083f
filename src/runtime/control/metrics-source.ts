import type { ClockReport } from '../../clock/venue-clock.ts';
import type { ExecutorStats } from '../../execution/executor.ts';
import type { RateBudgetStatus } from '../../execution/rate-budget/rate-budget.ts';
import type { TradingMode } from '../../execution/trading-mode.ts';
import type { AccountValue } from './position-values.ts';

/** What the metrics read at scrape time (nothing is computed per snapshot for them). */
export interface MetricsSource {
  readonly stats: () => ExecutorStats;
  readonly account: () => AccountValue;
  readonly queueDepth: () => number;
  readonly pollFailuresInRow: () => number;
  /** Ms since the last good poll, on the monotonic clock (undefined before the first). */
  readonly lastGoodPollAgeMs: () => number | undefined;
  readonly credentialsExpireAt: () => number;
  /** Whether an order can be signed now (no refusal by the venue, not too close to the expiry). */
  readonly credentialsCanSign: () => boolean;
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
