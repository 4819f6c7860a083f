import type { Logger } from '../log/logger.ts';
import type { Snapshot } from '../market/snapshot.ts';
import type { MarginAccountView } from '../domain/account/index.ts';
import type { Strategy, StrategyStore } from './define-strategy.ts';
import type { ExitSpec, OpenOrder } from '../domain/index.ts';
import type { StartTimer } from '../clock/timers.ts';

/** What a host needs to run one strategy instance; everything outside comes in as functions. */
export interface StrategyHostOptions {
  readonly strategy: Strategy;
  readonly name: string;
  /** Params already parsed by the strategy's schema. */
  readonly params: unknown;
  readonly symbols: readonly string[];
  readonly now: () => number;
  readonly log: Logger;
  readonly store: StrategyStore;
  readonly positionOf: (marketId: number) => bigint;
  readonly openOrders: () => readonly OpenOrder[];
  /**
   * Told about every returned value that is not a valid intent (counted and logged by the
   * caller, throttled); without it each one is logged here.
   */
  readonly onInvalidIntent?: (detail: string, candidate: unknown) => void;
  /**
   * Told about every intent returned before the strategy's warm-up ended (refused: counted and
   * logged by the caller as `WARMING_UP`); without it each one is logged here.
   */
  readonly onWarmingUp?: (detail: string) => void;
  /** Failures in a row after which the strategy is paused (default 5). */
  readonly maxConsecutiveFailures?: number;
  /**
   * How long one `onSnapshot` may keep its promise pending before that snapshot is abandoned
   * (`strategies[].timeoutMs`); without it the host waits as long as the strategy takes.
   */
  readonly timeoutMs?: number | undefined;
  /** Starts the deadline timer; default the real one (clock/timers.ts). */
  readonly startTimer?: StartTimer | undefined;
  /** Timeouts in a row after which the strategy is paused (default 3). */
  readonly maxConsecutiveTimeouts?: number | undefined;
  /** What `ctx.entryPrice`, `ctx.unrealizedPnl` and `ctx.equity` read; absent: they are undefined. */
  readonly facts?: PositionFacts | undefined;
  /** Where `ctx.setExits` and `ctx.exits` go; absent: they do nothing / say undefined. */
  readonly exits?:
    | {
        get(marketId: number): ExitSpec | undefined;
        set(marketId: number, exits: ExitSpec | null): void;
      }
    | undefined;
  /** Told about every `ctx.plot` point (value as a decimal string), with the time it was drawn. */
  readonly onPlot?: ((name: string, value: string, at: number) => void) | undefined;
  /** Told when the strategy is paused (a strategy in a worker thread has its worker ended). */
  readonly onPause?: (() => Promise<void>) | undefined;
  /** Why its params cannot change while it runs (`isolate: worker`); absent: they can. */
  readonly paramsFixed?: string | undefined;
  /**
   * Keep the candles of its first declared timeframe and its indicators' values per bar, bounded
   * (`BarChartRecorder`), for the backtest report; absent or false: nothing is kept.
   */
  readonly chartBars?: boolean | undefined;
}

/** A strategy's position facts as the executor knows them (x18). */
export interface PositionFacts {
  /** Average entry price of the strategy's position (0 when flat). */
  entryPriceX18(marketId: number): bigint;
  /** The strategy's unrealized PnL at the marks of `snapshot` (undefined without a mark). */
  unrealizedPnlX18(marketId: number, snapshot: Snapshot): bigint | undefined;
  /** The account's equity at the marks of `snapshot` (undefined where not known). */
  equityX18(snapshot: Snapshot): bigint | undefined;
  /**
   * The account model's view at the marks of `snapshot` (free margin, liquidation prices), or
   * undefined where the account is not known; absent: `ctx.freeMargin` and
   * `ctx.liquidationPrice` are undefined.
   */
  accountX18?(snapshot: Snapshot): MarginAccountView | undefined;
}
