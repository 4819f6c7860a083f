import type { OrderIntent } from '../../domain/index.ts';
import { bestPriceX18 } from '../../market/best-price.ts';
import type { Snapshot } from '../../market/snapshot.ts';
import { checkOrder, type RiskLimits } from './checks.ts';
import type { MarginFacts, UnknownAccount } from './margin-check.ts';
import { refuse, type Refusal } from '../refusal.ts';
import { sizeIntent, type SizedOrder } from './sizing.ts';
import type { TradingMode } from '../trading-mode.ts';

/** Everything the pre-send pipeline needs to decide, as plain values. */
export interface EvaluationContext {
  readonly snapshot: Snapshot;
  readonly positionX18: (marketId: number) => bigint;
  readonly limits: RiskLimits;
  readonly dailyPnlX18: bigint;
  readonly killSwitchOn: boolean;
  /** The account's equity, for `risk` sizing; undefined where it is not known. */
  readonly equityX18?: bigint | undefined;
  /** The trading mode (default `trading`): `halt` refuses all, the others all but reduce-only. */
  readonly mode?: TradingMode;
  /**
   * The bot's estimate of its account for the margin check, or why it has none (opening orders
   * are refused `MARGIN_UNKNOWN`); undefined: not checked.
   */
  readonly margin?: MarginFacts | UnknownAccount | undefined;
}

/**
 * Intent → sized order, or the reason it must not be sent: kill switch, market lookup, sizing
 * (rule 1), then the checks (rule 2). Pure: the same inputs give the same answer in live,
 * paper and backtest.
 */
export function evaluateIntent(
  intent: OrderIntent,
  context: EvaluationContext,
): SizedOrder | Refusal {
  if (context.killSwitchOn) return refuse('KILL_SWITCH', 'kill switch is on: no order is sent');
  const mode = context.mode ?? 'trading';
  if (mode === 'halt') return refuse('HALTED', 'trading is halted: no order is sent');
  if (mode !== 'trading' && intent.reduceOnly !== true)
    return refuse('ENTRIES_HALTED', `trading mode ${mode}: only reduce-only orders are sent`);
  const market = context.snapshot.markets.get(intent.marketId);
  if (market === undefined) {
    return refuse('MARKET_NOT_FOUND', `market ${intent.marketId} is not listed by the venue`);
  }
  const quote = context.snapshot.quotes?.get(market.id);
  const positionX18 = context.positionX18(market.id);
  const sized = sizeIntent(intent, market, {
    // Read only when the amount is to be computed from it.
    marketPriceX18:
      intent.amount === undefined && intent.type === 'MARKET'
        ? bestPriceX18(quote, intent.side === 'BUY' ? 'asks' : 'bids')
        : undefined,
    equityX18: context.equityX18,
    positionX18,
  });
  if ('refused' in sized) return sized;
  return (
    checkOrder(sized, {
      market,
      quote,
      positionX18,
      limits: context.limits,
      dailyPnlX18: context.dailyPnlX18,
      margin: context.margin,
    }) ?? sized
  );
}
