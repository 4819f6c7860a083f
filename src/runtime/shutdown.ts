import type { Dispatcher } from '../execution/dispatcher.ts';
import type { Executor, ExecutorStats } from '../execution/executor.ts';
import type { TradingSession } from '../execution/trading-session.ts';
import { formatX18 } from '../money/index.ts';

/** What a finished run reports. */
export interface RunSummary {
  readonly snapshots: number;
  readonly stats: ExecutorStats;
  readonly positions: { symbol: string; amount: string; realizedPnl: string; fees: string }[];
  readonly pausedStrategies: string[];
  readonly drained: boolean;
}

/** What {@link stopTrading} winds down. */
export interface StopTradingOptions {
  readonly dispatcher: Pick<Dispatcher, 'drain'>;
  readonly executor: Pick<Executor, 'settle' | 'stats' | 'positions'>;
  readonly session: Pick<TradingSession, 'stop' | 'pausedStrategies'>;
  /** How long in-flight orders may take (`execution.drainTimeoutMs`). */
  readonly drainTimeoutMs: number;
  /** A market's symbol for the summary. */
  readonly symbolOf: (marketId: number) => string;
  readonly snapshots: number;
}

/**
 * Drains in-flight orders (bounded: what is left stays SENT in the journal and is resent
 * byte-identical on the next start), lets their outcomes settle, stops the strategies and
 * reports the run. Closing the journal and the venue is the caller's.
 */
export async function stopTrading(options: StopTradingOptions): Promise<RunSummary> {
  const { executor, session } = options;
  const drained = await options.dispatcher.drain(options.drainTimeoutMs);
  await executor.settle();
  await session.stop();
  return {
    snapshots: options.snapshots,
    stats: executor.stats(),
    positions: executor.positions.entries().map(([marketId, p]) => ({
      symbol: options.symbolOf(marketId),
      amount: formatX18(p.amountX18),
      realizedPnl: formatX18(p.realizedPnlX18),
      fees: formatX18(p.feesX18),
    })),
    pausedStrategies: session.pausedStrategies(),
    drained,
  };
}
