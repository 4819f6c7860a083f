import { fillFeeX18 } from '../money/index.ts';
import type { OrderSide } from '../domain/index.ts';
import {
  marginAccount,
  type MarginAccountView,
  type MarginPosition,
} from '../domain/account/index.ts';
import { takeLiquidity } from './book-level.ts';
import type { AccountLedger } from './ledger.ts';
import { MarginWatch } from './margin-watch.ts';
import type { RestingOrders } from './resting-orders.ts';
import type { SimAccounts } from './sim-accounts.ts';
import type { SimMarginRules, SimLiquidation } from './sim-margin.ts';
import type { SimMarkets } from './sim-markets.ts';

/**
 * The liquidation rule (docs/margin.md): an account whose equity is below its maintenance
 * margin has its resting orders cancelled and every PERPETUAL position closed against the
 * book as a MARKET order would be, each fill charged the liquidation fee. Keeps every
 * liquidation, and which accounts were liquidated.
 */
export class Liquidator {
  readonly #liquidations: SimLiquidation[] = [];
  readonly #liquidated = new Set<string>();
  readonly #rules: SimMarginRules;
  readonly #markets: SimMarkets;
  readonly #accounts: SimAccounts;
  readonly #resting: RestingOrders;
  readonly #marginWatch: MarginWatch;

  constructor(
    rules: SimMarginRules,
    markets: SimMarkets,
    accounts: SimAccounts,
    resting: RestingOrders,
  ) {
    this.#rules = rules;
    this.#markets = markets;
    this.#accounts = accounts;
    this.#resting = resting;
    this.#marginWatch = new MarginWatch(
      (marketId) => markets.market(marketId),
      (marketId) => markets.markOf(marketId),
    );
  }

  /** Whether the account was ever liquidated. */
  liquidated(accountId: string): boolean {
    return this.#liquidated.has(accountId);
  }

  /** The liquidations so far (of one account, or all), oldest first. */
  list(accountId?: string): SimLiquidation[] {
    // A loop, not a filter with a closure: the backtest asks after every replayed snapshot.
    const found: SimLiquidation[] = [];
    for (const l of this.#liquidations)
      if (accountId === undefined || l.accountId === accountId) found.push(l);
    return found;
  }

  /** Liquidates every account below its maintenance margin now (`at`, after a price change). */
  liquidateDue(at: number): void {
    for (const ledger of this.#accounts.values()) {
      if (!this.#marginWatch.liquidatable(ledger)) continue;
      const input = this.#markets.marginInput(ledger);
      if (input === undefined) continue;
      const view = marginAccount(input);
      this.#resting.cancelAccount(ledger.accountId, at);
      for (const position of input.positions) {
        if (position.type !== 'PERPETUAL') continue;
        this.#close(ledger, position, view, at);
      }
      this.#liquidated.add(ledger.accountId);
    }
  }

  /** Closes one position against the book, as a MARKET order would, and notes the liquidation. */
  #close(
    ledger: AccountLedger,
    position: MarginPosition,
    view: MarginAccountView,
    at: number,
  ): void {
    const sim = this.#markets.get(position.marketId);
    if (sim === undefined) return;
    const side: OrderSide = position.amountX18 > 0n ? 'SELL' : 'BUY';
    const want = position.amountX18 > 0n ? position.amountX18 : -position.amountX18;
    let amountX18 = 0n;
    let notionalX36 = 0n;
    let feeX18 = 0n;
    for (const take of takeLiquidity(this.#markets.bookOf(sim), side, want, null)) {
      const fee = fillFeeX18(take.amountX18, take.priceX18, this.#rules.liquidationFeeX18);
      ledger.applyFill(sim.market.id, side, take.amountX18, take.priceX18, fee);
      amountX18 += take.amountX18;
      notionalX36 += take.amountX18 * take.priceX18;
      feeX18 += fee;
    }
    if (amountX18 === 0n) return;
    this.#liquidations.push({
      accountId: ledger.accountId,
      at,
      marketId: sim.market.id,
      side,
      amountX18,
      priceX18: notionalX36 / amountX18,
      markX18: position.markX18,
      feeX18,
      equityX18: view.equityX18,
      maintenanceMarginX18: view.maintenanceMarginX18,
    });
  }
}
