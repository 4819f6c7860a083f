import { absX18, X18_SCALE } from '../../money/index.ts';
import type { MarketType } from '../market.ts';

/**
 * One open position as the account model sees it. The mark is the one mark-price rule's value
 * (`markPriceX18` in market/mark-price.ts, the mid of `midPriceX18`): the caller reads it, the
 * model never computes a price of its own.
 */
export interface MarginPosition {
  readonly marketId: number;
  readonly type: MarketType;
  /** Signed base amount x18: negative is short (a SPOT market never holds a negative amount). */
  readonly amountX18: bigint;
  /** Average entry price of the open amount, x18. */
  readonly entryPriceX18: bigint;
  /** The mark price, x18. */
  readonly markX18: bigint;
  /** The listing's `InitialMarginFractionx18` (or a stricter one from a leverage cap). */
  readonly initialFractionX18: bigint;
  /** The listing's `MaintenanceMarginFractionx18`. */
  readonly maintenanceFractionX18: bigint;
}

/**
 * One account (one subaccount) in its quote asset: `balanceX18` is what it holds before the open
 * positions are valued, i.e. the deposit (`paper.balance`, `backtest.startingCapital`,
 * `risk.capital`) plus every PnL realised minus every fee paid.
 */
export interface MarginAccountInput {
  readonly balanceX18: bigint;
  readonly positions: readonly MarginPosition[];
}

/** One position's figures. Margins are rounded up, PnL down (toward −∞): never flattering. */
export interface PositionMargin {
  readonly marketId: number;
  readonly type: MarketType;
  readonly amountX18: bigint;
  /** `|amount| × mark`, rounded up. */
  readonly notionalX18: bigint;
  /** `amount × (mark − entry)`, rounded down. */
  readonly unrealizedPnlX18: bigint;
  /** `|amount| × mark × IMF`, rounded up. */
  readonly initialMarginX18: bigint;
  /** `|amount| × mark × MMF`, rounded up. */
  readonly maintenanceMarginX18: bigint;
  /**
   * The mark at which the account is liquidated, the other marks staying where they are: a long
   * is liquidated at this price or below, a short at this price or above (see
   * {@link liquidationPriceX18}). Undefined when no price liquidates it (a SPOT holding, a long
   * the balance covers down to 0).
   */
  readonly liquidationPriceX18: bigint | undefined;
}

/** The account's figures at the positions' marks. */
export interface MarginAccountView {
  readonly balanceX18: bigint;
  readonly unrealizedPnlX18: bigint;
  /** `balance + Σ unrealized PnL`, each position's rounded down ({@link unrealizedPnlX18}). */
  readonly equityX18: bigint;
  readonly initialMarginX18: bigint;
  readonly maintenanceMarginX18: bigint;
  /** `equity − initial margin`: what a new position may still take (negative: none). */
  readonly freeMarginX18: bigint;
  /** `Σ notional / equity`, x18 (0 with no position; undefined when equity ≤ 0). */
  readonly leverageX18: bigint | undefined;
  /** True when `equity < maintenance margin`, compared exactly (see {@link isLiquidatable}). */
  readonly liquidatable: boolean;
  readonly positions: readonly PositionMargin[];
}

const X36 = X18_SCALE * X18_SCALE;

/** `numerator / denominator` rounded toward −∞ (bigint division truncates toward 0). */
export function floorDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return quotient * denominator !== numerator && numerator < 0n !== denominator < 0n
    ? quotient - 1n
    : quotient;
}

/** `numerator / denominator` rounded toward +∞. */
export function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  return -floorDiv(-numerator, denominator);
}

/** Unrealised PnL at x36, exact. */
function unrealizedX36(position: MarginPosition): bigint {
  return position.amountX18 * (position.markX18 - position.entryPriceX18);
}

/**
 * The one unrealised-PnL rule (docs/margin.md): `amount × (mark − entry)` in quote x18, rounded
 * down (toward −∞, never flattering). The account model sums it per position into equity, and
 * the bot's books (`ctx.unrealizedPnl`, `ctx.equity`, the backtest's equity curve) use the same
 * function, so they agree to the last unit.
 *
 * @example
 * // short 1 ETH from 3000, mark 3000.000000000000000001: −10^-18
 * unrealizedPnlX18(-(10n ** 18n), 3000n * 10n ** 18n, 3000n * 10n ** 18n + 1n) // -1n
 */
export function unrealizedPnlX18(
  amountX18: bigint,
  entryPriceX18: bigint,
  markX18: bigint,
): bigint {
  return floorDiv(amountX18 * (markX18 - entryPriceX18), X18_SCALE);
}

/** Maintenance margin at x54, exact. */
function maintenanceX54(position: MarginPosition): bigint {
  return absX18(position.amountX18) * position.markX18 * position.maintenanceFractionX18;
}

/**
 * `|amount| × price × fraction` in x18, rounded up: the margin a position (or an order) of that
 * size needs at that price. Exact up to the last unit.
 *
 * @example
 * // 1 ETH at 3000 with the 5 % initial margin of ETH-USD: 150
 * marginX18(10n ** 18n, 3000n * 10n ** 18n, 5n * 10n ** 16n) // 150n * 10n ** 18n
 */
export function marginX18(amountX18: bigint, priceX18: bigint, fractionX18: bigint): bigint {
  return ceilDiv(absX18(amountX18) * priceX18 * fractionX18, X36);
}

/**
 * True when the account's equity is below its maintenance margin: the liquidation rule, compared
 * exactly (equity at x36 against margin at x54, nothing rounded). Equal is not liquidated.
 */
export function isLiquidatable(account: MarginAccountInput): boolean {
  let equityX54 = account.balanceX18 * X36;
  let maintenance = 0n;
  for (const position of account.positions) {
    equityX54 += unrealizedX36(position) * X18_SCALE;
    maintenance += maintenanceX54(position);
  }
  return equityX54 < maintenance;
}

/**
 * The mark of position `index` at which the account is liquidated, the other positions' marks
 * held: for a long the highest mark that liquidates (every lower one does too), for a short the
 * lowest (every higher one does too). Cross margin: the whole balance and every other position's
 * PnL and margin count. Exact: one unit (10^-18) better than the result is not liquidated.
 *
 * Long `q` at entry `e`, maintenance fraction `f`, the rest of the account `C` (balance plus the
 * others' PnL) and `M` (their maintenance margin): liquidated when `C + q(p − e) < M + q·p·f`,
 * i.e. `p < (M − C + q·e) / (q(1 − f))`. Short `s = −q`: when `p > (C + s·e − M) / (s(1 + f))`.
 *
 * Undefined for a flat position, a SPOT holding (bought outright, never liquidated), a long with
 * `f ≥ 1`, or a long no positive price liquidates.
 *
 * @example
 * // 1000 USDC, long 1 ETH-USD at 3000 (MMF 2 %): p < 2000 / 0.98 = 2040.8163265306122448979…
 * liquidationPriceX18({ balanceX18: 1000n * 10n ** 18n, positions: [{ marketId: 1,
 *   type: 'PERPETUAL', amountX18: 10n ** 18n, entryPriceX18: 3000n * 10n ** 18n,
 *   markX18: 3000n * 10n ** 18n, initialFractionX18: 5n * 10n ** 16n,
 *   maintenanceFractionX18: 2n * 10n ** 16n }] }, 0)
 * // 2040816326530612244897n
 */
export function liquidationPriceX18(
  account: MarginAccountInput,
  index: number,
): bigint | undefined {
  const position = account.positions[index];
  if (position === undefined || position.amountX18 === 0n || position.type === 'SPOT')
    return undefined;
  // The rest of the account at x54.
  let restX54 = account.balanceX18 * X36;
  let restMaintenanceX54 = 0n;
  account.positions.forEach((other, i) => {
    if (i === index) return;
    restX54 += unrealizedX36(other) * X18_SCALE;
    restMaintenanceX54 += maintenanceX54(other);
  });
  const f = position.maintenanceFractionX18;
  const entryX54 = position.entryPriceX18 * X18_SCALE; // × |q| (x18) below gives x54
  if (position.amountX18 > 0n) {
    const q = position.amountX18;
    const slope = q * (X18_SCALE - f); // x36
    if (slope <= 0n) return undefined;
    const bound = restMaintenanceX54 - restX54 + q * entryX54; // x54
    const highest = ceilDiv(bound, slope) - 1n; // p < bound / slope
    return highest > 0n ? highest : undefined;
  }
  const s = -position.amountX18;
  const slope = s * (X18_SCALE + f);
  const bound = restX54 + s * entryX54 - restMaintenanceX54;
  const lowest = floorDiv(bound, slope) + 1n; // p > bound / slope
  return lowest > 0n ? lowest : 0n;
}

/**
 * The account's free margin (equity − initial margin of its positions at their marks), the one
 * definition `marginAccount(account).freeMarginX18` also gives, without the rest of the view (each position's
 * liquidation price reads every other position). The pre-trade checks, the bot's and the
 * simulation's, ask only this, on every order.
 */
export function freeMarginX18(account: MarginAccountInput): bigint {
  let free = account.balanceX18;
  for (const position of account.positions) {
    free +=
      unrealizedPnlX18(position.amountX18, position.entryPriceX18, position.markX18) -
      marginX18(position.amountX18, position.markX18, position.initialFractionX18);
  }
  return free;
}

/**
 * The account's equity, margins, free margin, leverage and each position's liquidation price at
 * the positions' marks. Pure; all bigint x18.
 *
 * @example
 * const view = marginAccount({ balanceX18: 1000n * 10n ** 18n, positions: [ethLong] });
 * view.freeMarginX18; // 850n * 10n ** 18n for 1 ETH at 3000 with IMF 5 %
 */
export function marginAccount(account: MarginAccountInput): MarginAccountView {
  let unrealizedSum = 0n;
  let initial = 0n;
  let maintenance = 0n;
  let notionalSum = 0n;
  const positions = account.positions.map((position, index): PositionMargin => {
    const pnlX18 = unrealizedPnlX18(position.amountX18, position.entryPriceX18, position.markX18);
    unrealizedSum += pnlX18;
    const notionalX18 = ceilDiv(absX18(position.amountX18) * position.markX18, X18_SCALE);
    const initialMarginX18 = marginX18(
      position.amountX18,
      position.markX18,
      position.initialFractionX18,
    );
    const maintenanceMarginX18 = marginX18(
      position.amountX18,
      position.markX18,
      position.maintenanceFractionX18,
    );
    initial += initialMarginX18;
    maintenance += maintenanceMarginX18;
    notionalSum += notionalX18;
    return {
      marketId: position.marketId,
      type: position.type,
      amountX18: position.amountX18,
      notionalX18,
      unrealizedPnlX18: pnlX18,
      initialMarginX18,
      maintenanceMarginX18,
      liquidationPriceX18: liquidationPriceX18(account, index),
    };
  });
  const equityX18 = account.balanceX18 + unrealizedSum;
  return {
    balanceX18: account.balanceX18,
    unrealizedPnlX18: unrealizedSum,
    equityX18,
    initialMarginX18: initial,
    maintenanceMarginX18: maintenance,
    // The one definition of free margin (equity − initial margin), which the pre-trade checks
    // read alone.
    freeMarginX18: freeMarginX18(account),
    leverageX18:
      notionalSum === 0n ? 0n : equityX18 <= 0n ? undefined : (notionalSum * X18_SCALE) / equityX18,
    liquidatable: isLiquidatable(account),
    positions,
  };
}
