import type { Dispatcher } from '../execution/dispatcher.ts';
import type { Executor, ExecutorStats } from '../execution/executor.ts';
import type { TradingSession } from '../stack/trading-session.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { formatX18 } from '../money/index.ts';
import { valueAccount } from './control/position-values.ts';

/** What a finished run reports. */
export interface RunSummary {
  readonly snapshots: number;
  readonly stats: ExecutorStats;
  readonly positions: {
    symbol: string;
    amount: string;
    realizedPnl: string;
    fees: string;
    /** |amount| × mark at the last snapshot (0 without a mark). */
    notional: string;
    unrealizedPnl: string;
  }[];
  /**
   * Net PnL since the journal began: realized net of fees + unrealized at the last snapshot's
   * marks (not equity: the account's capital is the venue's to tell).
   */
  readonly netPnl: string;
  readonly unrealizedPnl: string;
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
  /** The last snapshot traded on: its marks value the open positions. */
  readonly lastSnapshot?: Snapshot | undefined;
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
  const value = valueAccount(executor.positions.entries(), options.lastSnapshot, options.symbolOf);
  return {
    snapshots: options.snapshots,
    stats: executor.stats(),
    positions: value.positions.map((p) => ({
      symbol: p.symbol,
      amount: formatX18(p.amountX18),
      realizedPnl: formatX18(p.realizedX18),
      fees: formatX18(p.feesX18),
      notional: formatX18(p.notionalX18),
      unrealizedPnl: formatX18(p.unrealizedX18),
    })),
    netPnl: formatX18(value.netPnlX18),
    unrealizedPnl: formatX18(value.unrealizedX18),
    pausedStrategies: session.pausedStrategies(),
    drained,
  };
}
