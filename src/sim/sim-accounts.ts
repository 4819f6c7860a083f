import { AccountLedger } from './ledger.ts';
import type { SimAccount, SimPosition } from './types.ts';

/** Every account's ledger by id, each created on first use with the initial balance. */
export class SimAccounts {
  readonly #ledgers = new Map<string, AccountLedger>();
  readonly #initialBalanceX18: bigint;

  constructor(initialBalanceX18: bigint) {
    this.#initialBalanceX18 = initialBalanceX18;
  }

  /** The account's ledger, opened with the initial balance if it never traded. */
  ledger(accountId: string): AccountLedger {
    let ledger = this.#ledgers.get(accountId);
    if (ledger === undefined) {
      ledger = new AccountLedger(accountId, this.#initialBalanceX18);
      this.#ledgers.set(accountId, ledger);
    }
    return ledger;
  }

  /** Every opened ledger, oldest first. */
  values(): IterableIterator<AccountLedger> {
    return this.#ledgers.values();
  }

  /** The account's position in a market (flat when it never traded there); opens nothing. */
  position(accountId: string, marketId: number): SimPosition {
    const ledger = this.#ledgers.get(accountId);
    return ledger === undefined
      ? { marketId, amountX18: 0n, avgEntryPriceX18: 0n, realizedPnlX18: 0n }
      : ledger.position(marketId);
  }

  /** The account's balances (the initial balance if it never traded); opens nothing. */
  view(accountId: string): SimAccount {
    return (
      this.#ledgers.get(accountId) ?? new AccountLedger(accountId, this.#initialBalanceX18)
    ).view();
  }
}
