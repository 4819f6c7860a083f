/**
 * The pre-trade stage (docs/design.md §4 rules 1 and 2): what an intent must pass before it is
 * signed, journaled and sent. {@link admitIntent} is its one entry: it takes an intent and
 * returns a sized order to sign, or a typed refusal (`refusal.ts`, the one registry of reasons).
 * The rules are the files of this folder, in the order the entry applies them:
 *
 * - `strategy-shares.ts`: a strategy's share of the rate budget (`STRATEGY_THROTTLED`);
 * - `risk.ts`: the kill switch and trading mode, the daily loss baseline, the account's equity;
 * - `evaluate-intent.ts`: market lookup, then `sizing.ts`, then `checks.ts` (notional and
 *   position limits, `margin-check.ts` over `margin-facts.ts`);
 * - then the host clock's skew (`CLOCK_SKEW`), a credential that can carry the order
 *   (`CREDENTIALS`) and the send backlog (`SEND_BACKLOG`).
 *
 * `risk-limits.ts` reads the limits from the config's `risk:` section.
 */
import type { Market, OrderIntent } from '../../domain/index.ts';
import type { Snapshot } from '../../market/snapshot.ts';
import type { Dispatcher } from '../dispatcher.ts';
import type { Portfolio } from '../portfolio.ts';
import { refuse, type Refusal } from '../refusal.ts';
import type { RiskEngine } from './risk.ts';
import type { SizedOrder } from './sizing.ts';
import type { StrategyShares } from './strategy-shares.ts';

export { referencePriceX18, type RiskLimits } from './checks.ts';
export { RiskEngine, UNKNOWN_ACCOUNT, type RiskStore } from './risk.ts';
export { riskLimitsOf, capitalOf, type RiskSettings } from './risk-limits.ts';
export { marginFactsOf } from './margin-facts.ts';
export { accountViewOf } from './account-view.ts';
export type { MarginFacts } from './margin-check.ts';
export type { SizedOrder } from './sizing.ts';
export { StrategyShares } from './strategy-shares.ts';

/** What the pre-trade stage needs to judge an intent. */
export interface AdmissionContext {
  readonly risk: RiskEngine;
  readonly portfolio: Portfolio;
  /**
   * The signed amount pending in a market on a side (in flight, unknown outcomes at full size,
   * resting orders' unfilled rest: `ExposureBook.pendingX18`).
   */
  readonly pendingX18: (marketId: number, side: OrderIntent['side']) => bigint;
  readonly dispatcher: Pick<Dispatcher, 'estimatedWaitMs' | 'expiryMarginMs' | 'pending'>;
  /** Default validity of an order (`execution.orderTtlMs`). */
  readonly orderTtlMs: number;
  /** Each strategy's share of the order budget; absent (backtests): no share. */
  readonly shares?: StrategyShares | undefined;
  /** Why this host's clock must not sign an order valid for `ttlMs` now, or undefined. */
  readonly clockRefusal?: ((ttlMs: number) => string | undefined) | undefined;
  /** Why no credential can carry an order to the venue after `queuedMs` in the queue, or undefined. */
  readonly credentialRefusal?: ((queuedMs: number) => string | undefined) | undefined;
}

/**
 * The pre-trade stage's answer: an order sized and checked, in its market (sign it), or a typed
 * refusal (count it; `withIntent` when the refusal log should show the intent).
 */
export type Admission =
  | { readonly order: SizedOrder; readonly market: Market }
  | { readonly refusal: Refusal; readonly withIntent: boolean };

/**
 * The one entry of the pre-trade stage: share of the rate budget, sizing and the risk checks
 * (against the account plus what is pending on the intent's side), the host clock's skew, and
 * load shedding (an order the send backlog would carry past its expiry).
 * @param ahead - orders of this batch accepted before it (not yet handed to the dispatcher).
 */
export function admitIntent(
  context: AdmissionContext,
  strategy: string,
  intent: OrderIntent,
  snapshot: Snapshot,
  ahead: number,
): Admission {
  const { shares, dispatcher } = context;
  // First and cheap: a flooding strategy's intents past its share cost no checks or signing.
  if (shares !== undefined && !shares.allows(strategy)) {
    const refusal = refuse(
      'STRATEGY_THROTTLED',
      `more orders than this strategy's share of the rate budget (${shares.perStrategy} per window)`,
    );
    return { refusal, withIntent: false };
  }
  const evaluated = context.risk.evaluate(intent, snapshot, context.portfolio, (marketId) =>
    context.pendingX18(marketId, intent.side),
  );
  if ('refused' in evaluated) return { refusal: evaluated, withIntent: true };
  const market = snapshot.markets.get(evaluated.marketId);
  if (market === undefined) throw new Error('unreachable: evaluated order without market');
  const ttlMs = intent.expiresInMs ?? context.orderTtlMs;
  // An expiry signed on a clock that is off the venue's would not mean what it says there.
  const clockRefusal = context.clockRefusal?.(ttlMs);
  if (clockRefusal !== undefined)
    return { refusal: refuse('CLOCK_SKEW', clockRefusal), withIntent: true };
  const waitMs = dispatcher.estimatedWaitMs(ahead);
  // Signed with a key that cannot reach the venue (refused, or expiring before the order leaves
  // the queue), it would be journaled and never sent.
  const credentialRefusal = context.credentialRefusal?.(waitMs);
  if (credentialRefusal !== undefined)
    return { refusal: refuse('CREDENTIALS', credentialRefusal), withIntent: true };
  // Shed load knowingly: an order the send backlog would carry past its expiry is refused now,
  // counted, instead of being signed, queued and left to die in the queue.
  if (waitMs + dispatcher.expiryMarginMs >= ttlMs) {
    const refusal = refuse(
      'SEND_BACKLOG',
      `${dispatcher.pending + ahead} orders are waiting to be sent (about ${waitMs} ms at the rate limit), longer than this order's ${ttlMs} ms validity: not queued`,
    );
    return { refusal, withIntent: true };
  }
  return { order: evaluated, market };
}
