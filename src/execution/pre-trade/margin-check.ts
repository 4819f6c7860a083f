import { fillFeeX18, formatX18 } from '../../money/index.ts';
import type { Market } from '../../domain/index.ts';
import {
  effectiveInitialFractionX18,
  freeMarginX18,
  openingAmountX18,
  orderInitialMarginX18,
  type MarginPosition,
} from '../../domain/account/index.ts';
import { refuse, type Refusal } from '../refusal.ts';
import type { SizedOrder } from './sizing.ts';

/** One open position as the bot knows it from its fills (and its orders in flight). */
export interface HeldPosition {
  readonly amountX18: bigint;
  readonly entryPriceX18: bigint;
}

/**
 * What the margin check reads: the bot's own estimate of its account, since the venue reports no
 * balance (docs/margin.md). Everything x18.
 */
export interface MarginFacts {
  /** The deposit (`risk.capital`, a backtest's starting capital) plus PnL realised minus fees. */
  readonly balanceX18: bigint;
  /** Every market with a position, by id (the order's own market included when held). */
  readonly positions: ReadonlyMap<number, HeldPosition>;
  /** The listed markets (their margin fractions). */
  readonly markets: ReadonlyMap<number, Market>;
  /** The mark of a market by the one mark-price rule, undefined when it has none. */
  readonly markOf: (marketId: number) => bigint | undefined;
  /** `risk.maxLeverage` by symbol (x18), when configured. */
  readonly maxLeverageX18?: ReadonlyMap<string, bigint> | undefined;
}

/**
 * The account is not known (a live bot on a real venue without `risk.capital`: the venue reports
 * no balance): every order that adds exposure is refused `MARGIN_UNKNOWN` with this reason.
 */
export interface UnknownAccount {
  /** Why, naming what to set (a config key path). */
  readonly unknown: string;
}

/** A held position with its listing and mark, ready to value. */
export interface HeldMark {
  readonly market: Market;
  readonly amountX18: bigint;
  readonly entryPriceX18: bigint;
  readonly markX18: bigint;
}

/**
 * SPOT: a sell may not take the holding below zero (nothing is borrowed on a spot market).
 * `positionX18` is what the bot holds by its fills, orders in flight counted.
 */
export function checkSpotHolding(
  order: SizedOrder,
  market: Market,
  positionX18: bigint,
): Refusal | undefined {
  if (market.type !== 'SPOT' || order.side !== 'SELL') return undefined;
  if (order.amountX18 <= positionX18) return undefined;
  return refuse(
    'SPOT_OVERSELL',
    `sell of ${formatX18(order.amountX18)} ${market.symbol} is more than the ${formatX18(positionX18 > 0n ? positionX18 : 0n)} ${market.baseAsset} held: a SPOT market sells only what is held`,
  );
}

/**
 * Every held position with its listing and mark, or the refusal that says the account's margin
 * is not known (a held market not listed, or without a mark): fail closed.
 */
export function heldMarks(facts: MarginFacts): HeldMark[] | Refusal {
  const held: HeldMark[] = [];
  for (const [marketId, position] of facts.positions) {
    if (position.amountX18 === 0n) continue;
    const market = facts.markets.get(marketId);
    if (market === undefined) {
      return refuse(
        'MARGIN_UNKNOWN',
        `the position in market ${marketId} is not in the venue's listing: the account's margin is not known, so no order that adds exposure is sent`,
      );
    }
    const markX18 = facts.markOf(marketId);
    if (markX18 === undefined) {
      return refuse(
        'MARGIN_UNKNOWN',
        `no mark price for ${market.symbol} (no two-sided quote): the account's margin is not known, so no order that adds exposure is sent`,
      );
    }
    held.push({ market, ...position, markX18 });
  }
  return held;
}

/** The held positions as the account model takes them, at `fractionOf`'s initial fractions. */
export function marginPositions(
  held: readonly HeldMark[],
  fractionOf: (market: Market) => bigint,
): MarginPosition[] {
  return held.map((p) => ({
    marketId: p.market.id,
    type: p.market.type,
    amountX18: p.amountX18,
    entryPriceX18: p.entryPriceX18,
    markX18: p.markX18,
    initialFractionX18: fractionOf(p.market),
    maintenanceFractionX18: p.market.maintenanceMarginX18,
  }));
}

/** What an order needs (initial margin of its opening part and its fee) against what is free. */
interface MarginVerdict {
  readonly needX18: bigint;
  readonly freeX18: bigint;
}

/** A market's initial fraction as listed: one function for every check, no closure per order. */
const listedFraction = (m: Market): bigint => m.initialMarginX18;

/** A market's initial fraction with `risk.maxLeverage` applied. */
function cappedFractions(facts: MarginFacts): (m: Market) => bigint {
  return (m) =>
    effectiveInitialFractionX18(m.initialMarginX18, facts.maxLeverageX18?.get(m.symbol));
}

/** The order against the account, at the listings' fractions or (capped) `risk.maxLeverage`'s. */
function marginVerdict(
  order: { readonly market: Market; readonly signedX18: bigint; readonly priceX18: bigint },
  positionX18: bigint,
  held: readonly HeldMark[],
  facts: MarginFacts,
  capped: boolean,
): MarginVerdict {
  const fractionOf = capped ? cappedFractions(facts) : listedFraction;
  const freeX18 = freeMarginX18({
    balanceX18: facts.balanceX18,
    positions: marginPositions(held, fractionOf),
  });
  const amountX18 = order.signedX18 < 0n ? -order.signedX18 : order.signedX18;
  const feeX18 = fillFeeX18(amountX18, order.priceX18, order.market.takerFeeX18);
  const marginX18 = orderInitialMarginX18(
    positionX18,
    order.signedX18,
    order.priceX18,
    fractionOf(order.market),
  );
  return { needX18: marginX18 + feeX18, freeX18 };
}

/** True when `risk.maxLeverage` names the order's market or a market held. */
function leverageCapApplies(
  market: Market,
  held: readonly HeldMark[],
  facts: MarginFacts,
): boolean {
  const caps = facts.maxLeverageX18;
  if (caps === undefined) return false;
  return caps.has(market.symbol) || held.some((p) => caps.has(p.market.symbol));
}

/**
 * The initial margin an order adds (its opening part at `priceX18`, see `openingAmountX18`) plus
 * its taker fee must fit in the account's free margin (equity − initial margin of the open
 * positions at their marks), first with the listings' fractions (`INSUFFICIENT_MARGIN`), then
 * with `risk.maxLeverage` applied (`ABOVE_MAX_LEVERAGE`). An order that only reduces is never
 * refused here. Fails closed (`MARGIN_UNKNOWN`): with no estimate of the account at all
 * ({@link UnknownAccount}), or a position whose market is not listed or has no mark, every
 * opening order is refused. Pure.
 */
export function checkMargin(
  order: SizedOrder,
  market: Market,
  priceX18: bigint,
  positionX18: bigint,
  facts: MarginFacts | UnknownAccount,
): Refusal | undefined {
  const signedX18 = order.side === 'BUY' ? order.amountX18 : -order.amountX18;
  if (openingAmountX18(positionX18, signedX18) === 0n) return undefined;
  if ('unknown' in facts) return refuse('MARGIN_UNKNOWN', facts.unknown);
  const held = heldMarks(facts);
  if ('refused' in held) return held;
  const priced = { market, signedX18, priceX18 };
  const listing = marginVerdict(priced, positionX18, held, facts, false);
  if (listing.needX18 > listing.freeX18) {
    return refuse(
      'INSUFFICIENT_MARGIN',
      `${order.side} ${formatX18(order.amountX18)} ${market.symbol} at ${formatX18(priceX18)} needs ${formatX18(listing.needX18)} of initial margin and fee (initial margin fraction ${formatX18(market.initialMarginX18)}) but the account's free margin is ${formatX18(listing.freeX18)}`,
    );
  }
  if (!leverageCapApplies(market, held, facts)) return undefined;
  const capped = marginVerdict(priced, positionX18, held, facts, true);
  if (capped.needX18 <= capped.freeX18) return undefined;
  const leverage = facts.maxLeverageX18?.get(market.symbol);
  return refuse(
    'ABOVE_MAX_LEVERAGE',
    `${order.side} ${formatX18(order.amountX18)} ${market.symbol} at ${formatX18(priceX18)} needs ${formatX18(capped.needX18)} of margin and fee at ${leverage === undefined ? 'the configured risk.maxLeverage of the markets held' : `risk.maxLeverage ${formatX18(leverage)} for ${market.symbol}`} but the account's free margin at those leverages is ${formatX18(capped.freeX18)}`,
  );
}
