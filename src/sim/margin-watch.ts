import { X18_SCALE } from '../money/index.ts';
import type { Market } from '../domain/index.ts';
import type { AccountLedger } from './ledger.ts';

const X36 = X18_SCALE * X18_SCALE;

/**
 * The liquidation rule of one ledger state, as a linear form in the marks. `isLiquidatable`
 * (domain/account/margin-account.ts) compares, exactly,
 *
 *   balance·10^36 + Σ q·(m − e)·10^18  <  Σ |q|·m·f
 *
 * which is `Σ m·(q·10^18 − |q|·f) + balance·10^36 − Σ q·e·10^18 < 0`: the slopes and the
 * constant change only with a fill, so a price change costs one product per open position.
 */
interface MaintenanceForm {
  /** The ledger's `version` the form was made at. */
  readonly version: number;
  /** The open positions' markets, by id ascending (the order the account model reads them). */
  readonly marketIds: readonly number[];
  /** `q·10^18 − |q|·f` per position (x36). */
  readonly slopes: readonly bigint[];
  /** `balance·10^36 − Σ q·e·10^18` (x54). */
  readonly constant: bigint;
  /** Whether a position is PERPETUAL: only those are liquidated. */
  readonly perpetual: boolean;
  /** False when a held market is unknown: the margin cannot be judged then. */
  readonly known: boolean;
}

/**
 * Whether each account is below its maintenance margin now (the simulation's liquidation rule,
 * docs/margin.md), asked after every price change. The same answer as building the account
 * model's input (`ledgerAccount`) and asking `isLiquidatable` of it, with the same marks read in
 * the same order, but the part that depends only on the ledger is kept until its next fill.
 */
export class MarginWatch {
  readonly #forms = new Map<string, MaintenanceForm>();
  readonly #marketOf: (marketId: number) => Market | undefined;
  readonly #markOf: (marketId: number) => bigint | undefined;

  constructor(
    marketOf: (marketId: number) => Market | undefined,
    markOf: (marketId: number) => bigint | undefined,
  ) {
    this.#marketOf = marketOf;
    this.#markOf = markOf;
  }

  /**
   * True when the ledger holds a PERPETUAL position and its equity at the current marks is below
   * its maintenance margin; false as well when a held market has no mark (nothing is judged).
   */
  liquidatable(ledger: AccountLedger): boolean {
    const form = this.#formOf(ledger);
    if (form.marketIds.length === 0) return false;
    let sum = form.constant;
    for (let i = 0; i < form.marketIds.length; i++) {
      const mark = this.#markOf(form.marketIds[i] as number);
      if (mark === undefined) return false;
      sum += (form.slopes[i] as bigint) * mark;
    }
    return form.known && form.perpetual && sum < 0n;
  }

  #formOf(ledger: AccountLedger): MaintenanceForm {
    const kept = this.#forms.get(ledger.accountId);
    if (kept !== undefined && kept.version === ledger.version) return kept;
    const marketIds: number[] = [];
    const slopes: bigint[] = [];
    let constant = ledger.balanceX18() * X36;
    let perpetual = false;
    let known = true;
    for (const position of ledger.openPositions()) {
      const market = this.#marketOf(position.marketId);
      // The account model stops at an unknown market, having read the marks before it.
      if (market === undefined) {
        known = false;
        break;
      }
      const q = position.amountX18;
      const size = q < 0n ? -q : q;
      marketIds.push(market.id);
      slopes.push(q * X18_SCALE - size * market.maintenanceMarginX18);
      constant -= q * position.avgEntryPriceX18 * X18_SCALE;
      if (market.type === 'PERPETUAL') perpetual = true;
    }
    const form = { version: ledger.version, marketIds, slopes, constant, perpetual, known };
    this.#forms.set(ledger.accountId, form);
    return form;
  }
}
