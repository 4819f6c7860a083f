import type { CredentialState } from '../../account/credential-manager.ts';
import type { ClockReport, ClockState } from '../../clock/venue-clock.ts';
import type { RefusalReason } from '../../execution/refusal.ts';
import type { OrderRecord } from '../../execution/order-record.ts';
import type { RateBudgetStatus } from '../../execution/rate-budget/rate-budget.ts';
import type { TradingMode } from '../../execution/trading-mode.ts';
import type { Bar } from '../../strategy/bars/bar.ts';
import { formatX18 } from '../../money/index.ts';
import type { ParamsChangeRecord } from '../live-params.ts';

/** One order in `GET /status`: amounts and prices as decimal strings, times as ISO 8601. */
export interface OrderJson {
  readonly id: OrderRecord['id'];
  readonly strategy: string;
  readonly tag: string | null;
  readonly symbol: string;
  readonly side: OrderRecord['side'];
  readonly type: OrderRecord['type'];
  readonly amount: string;
  readonly price: string;
  readonly reduceOnly: boolean;
  readonly state: OrderRecord['state'];
  readonly venueOrderId: OrderRecord['venueOrderId'];
  readonly filled: string;
  readonly avgFillPrice: string | null;
  readonly fees: string | null;
  readonly attempts: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly error: OrderRecord['error'];
}

/** The clocks in `GET /status`: why orders are refused `CLOCK_SKEW`, if they are. */
export interface ClockJson {
  readonly state: ClockState;
  readonly detail: string;
  /** Venue − this host's wall clock, ms, as bounds; null until measured. */
  readonly skewMs: { readonly low: number; readonly high: number } | null;
  readonly wallSteps: number;
}

/** One position in `GET /status` (decimal strings; `mark` null when no price is known). */
export interface PositionJson {
  readonly symbol: string;
  readonly amount: string;
  readonly avgEntryPrice: string;
  readonly mark: string | null;
  readonly notional: string;
  readonly unrealizedPnl: string;
  readonly realizedPnl: string;
  readonly fees: string;
}

/** One of a strategy's latest bars in `GET /status` (the live page's chart); mids as decimals. */
export type BarJson = Pick<Bar, 'symbol' | 'timeframe' | 'end' | 'open' | 'high' | 'low' | 'close'>;

/**
 * What `GET /status` answers and `Bot.status()` returns: the status line's content plus open
 * and latest orders. JSON-safe: money as decimal strings, times as ISO 8601.
 */
export interface BotStatus {
  readonly at: string;
  readonly mode: TradingMode;
  readonly ready: boolean;
  readonly notReadyReasons: readonly string[];
  readonly snapshots: number;
  /** Whether the last traded snapshot was stale; null before the first. */
  readonly stale: boolean | null;
  readonly lastGoodPollAt: string | null;
  readonly pollFailures: number;
  readonly rateBudget?: RateBudgetStatus;
  readonly clock?: ClockJson;
  readonly inFlight: number;
  readonly unresolvedOrders: number;
  readonly refused: Readonly<Partial<Record<RefusalReason, number>>>;
  readonly ordersByState: Readonly<Record<string, number>>;
  readonly realizedNet: string;
  readonly unrealized: string;
  /** Realized net + unrealized since the journal began: PnL, not the account's equity. */
  readonly netPnl: string;
  readonly positions: readonly PositionJson[];
  readonly strategies: readonly string[];
  readonly paused: readonly string[];
  readonly strategyTimeouts: Readonly<Record<string, number>>;
  readonly strategyErrors: Readonly<Record<string, number>>;
  readonly bars: Readonly<Record<string, readonly BarJson[]>>;
  /** Each strategy's params in effect, when params can change live. */
  readonly params?: unknown;
  readonly paramChanges?: readonly ParamsChangeRecord[];
  readonly credentialsExpireAt: string;
  readonly credentials: CredentialsJson;
  readonly openOrders: readonly OrderJson[];
  readonly lastOrders: readonly OrderJson[];
}

/** The order credentials in `GET /status`: addresses and times, never a secret. */
export interface CredentialsJson {
  /** The newest signing key's address. */
  readonly signer: string;
  readonly expiresAt: string;
  /** Whether an order can be signed now. */
  readonly canSign: boolean;
  /** Why not (refused by the venue, or expiring too soon), or null. */
  readonly refusal: string | null;
  /** Keys of this subaccount the venue refused. */
  readonly refusedKeys: number;
  /**
   * Null unless the newest key was refused; then when a new one may be registered, at the next
   * poll from then (at or before `at`: due now).
   */
  readonly newKeyAfter: string | null;
}

/** The JSON shape of `state` (the credential manager's) at `now`. */
export function credentialsJson(state: CredentialState, now: number): CredentialsJson {
  return {
    signer: state.signer,
    expiresAt: new Date(state.expiryTs).toISOString(),
    canSign: state.canSign,
    refusal: state.signingRefusal ?? null,
    refusedKeys: state.refusedKeys,
    newKeyAfter:
      state.newKeyInMs === undefined ? null : new Date(now + state.newKeyInMs).toISOString(),
  };
}

/** The JSON shape of the clocks in `GET /status`. */
export function clockJson({ verdict, wallSteps }: ClockReport): ClockJson {
  return {
    state: verdict.state,
    detail: verdict.detail,
    skewMs: verdict.skew === undefined ? null : { low: verdict.skew.low, high: verdict.skew.high },
    wallSteps,
  };
}

/** The JSON shape of one order in `GET /status`. */
export function orderJson(record: OrderRecord): OrderJson {
  return {
    id: record.id,
    strategy: record.strategy,
    tag: record.tag,
    symbol: record.symbol,
    side: record.side,
    type: record.type,
    amount: formatX18(record.amountX18),
    price: formatX18(record.priceX18),
    reduceOnly: record.reduceOnly,
    state: record.state,
    venueOrderId: record.venueOrderId,
    filled: formatX18(record.filledX18),
    avgFillPrice: record.avgFillPriceX18 === null ? null : formatX18(record.avgFillPriceX18),
    fees: record.feesX18 === null ? null : formatX18(record.feesX18),
    attempts: record.attempts,
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
    error: record.error,
  };
}
