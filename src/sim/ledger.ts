import { absX18, X18_SCALE } from '../money/index.ts';
import type { OrderSide } from '../domain/index.ts';
// Floors toward −∞ (bigint division truncates toward zero), so negative cash is not overstated.
import { floorDiv } from '../domain/account/index.ts';
import type { SimAccount, SimPosition } from './types.ts';

interface PositionState {
  amountX18: bigint;
  /** What the open amount cost, |amount| × entry price, exact at x36. */
  openCostX36: bigint;
  realizedPnlX36: bigint;
}

/**
 * One account's money: cash, fees and a signed position per market. Cash and PnL are kept at
 * x36 (amount × price, unrounded) so no fill ever loses a unit to rounding; views floor to x18.
 * Margin and liquidation are judged outside, by the account model (sim-margin.ts).
 */
export class AccountLedger {
  readonly accountId: string;
  #cashX36: bigint;
  #feesPaidX18 = 0n;
  readonly #positions = new Map<number, PositionState>();
  #version = 0;
  // `openPositions` as of `#openAt` (a version): the margin check of every order and the
  // liquidation watch after every fill read it, and it changes only with a fill.
  #open: readonly SimPosition[] = [];
  #openAt = 0;

  constructor(accountId: string, initialBalanceX18: bigint) {
    this.accountId = accountId;
    this.#cashX36 = initialBalanceX18 * X18_SCALE;
  }

  /** Counts the fills booked: what depends only on the ledger holds while it stays. */
  get version(): number {
    return this.#version;
  }

  /** The signed position in a market, x18 (0 when never traded). */
  positionAmountX18(marketId: number): bigint {
    return this.#positions.get(marketId)?.amountX18 ?? 0n;
  }

  /**
   * How much an order on `side` may fill without growing the position or flipping it: the
   * size of the opposite position, or 0.
   */
  reducibleX18(marketId: number, side: OrderSide): bigint {
    const amount = this.positionAmountX18(marketId);
    if (side === 'BUY') return amount < 0n ? -amount : 0n;
    return amount > 0n ? amount : 0n;
  }

  /**
   * Books one fill: moves the position, pays or receives the notional, pays the fee, and
   * realises PnL (average-cost method) on the part that reduces the position.
   */
  applyFill(
    marketId: number,
    side: OrderSide,
    amountX18: bigint,
    priceX18: bigint,
    feeX18: bigint,
  ): void {
    const position = this.#positions.get(marketId) ?? {
      amountX18: 0n,
      openCostX36: 0n,
      realizedPnlX36: 0n,
    };
    this.#positions.set(marketId, position);
    this.#version += 1;

    const signed = side === 'BUY' ? amountX18 : -amountX18;
    const notionalX36 = amountX18 * priceX18;
    this.#cashX36 += side === 'BUY' ? -notionalX36 : notionalX36;
    this.#cashX36 -= feeX18 * X18_SCALE;
    this.#feesPaidX18 += feeX18;

    const held = position.amountX18;
    if (held === 0n || held > 0n === signed > 0n) {
      position.openCostX36 += notionalX36;
      position.amountX18 = held + signed;
      return;
    }
    const closed = absX18(signed) < absX18(held) ? absX18(signed) : absX18(held);
    const closedCostX36 = (position.openCostX36 * closed) / absX18(held);
    const closedValueX36 = closed * priceX18;
    position.realizedPnlX36 +=
      held > 0n ? closedValueX36 - closedCostX36 : closedCostX36 - closedValueX36;
    position.openCostX36 -= closedCostX36;
    position.amountX18 = held + signed;
    const opened = absX18(signed) - closed;
    if (opened > 0n) position.openCostX36 = opened * priceX18;
  }

  /**
   * The deposit plus PnL realised minus fees, floored to x18: the cash with what the open
   * positions cost added back (the account model's balance, docs/margin.md).
   */
  balanceX18(): bigint {
    let openX36 = 0n;
    for (const state of this.#positions.values())
      openX36 += state.amountX18 < 0n ? -state.openCostX36 : state.openCostX36;
    return floorDiv(this.#cashX36 + openX36, X18_SCALE);
  }

  /** The positions that are not flat, by market id ascending: one list, kept until the next fill. */
  openPositions(): readonly SimPosition[] {
    if (this.#openAt === this.#version) return this.#open;
    const ids: number[] = [];
    for (const [id, state] of this.#positions) if (state.amountX18 !== 0n) ids.push(id);
    this.#open = ids.sort((a, b) => a - b).map((id) => this.position(id));
    this.#openAt = this.#version;
    return this.#open;
  }

  /** A copy of the position in `marketId` (flat when never traded). */
  position(marketId: number): SimPosition {
    const state = this.#positions.get(marketId);
    if (state === undefined) {
      return { marketId, amountX18: 0n, avgEntryPriceX18: 0n, realizedPnlX18: 0n };
    }
    return {
      marketId,
      amountX18: state.amountX18,
      avgEntryPriceX18: state.amountX18 === 0n ? 0n : state.openCostX36 / absX18(state.amountX18),
      realizedPnlX18: floorDiv(state.realizedPnlX36, X18_SCALE),
    };
  }

  /** A copy of the balances and every traded position, by market id. */
  view(): SimAccount {
    const ids = [...this.#positions.keys()].sort((a, b) => a - b);
    let realizedX36 = 0n;
    for (const state of this.#positions.values()) realizedX36 += state.realizedPnlX36;
    return {
      accountId: this.accountId,
      cashX18: floorDiv(this.#cashX36, X18_SCALE),
      feesPaidX18: this.#feesPaidX18,
      realizedPnlX18: floorDiv(realizedX36, X18_SCALE),
      positions: ids.map((id) => this.position(id)),
    };
  }
}
