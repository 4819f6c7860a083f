/** The outcome of a registration attempt's nonce check. */
export type NonceCheck =
  | { readonly ok: true; readonly newSigningKey: boolean }
  | { readonly ok: false; readonly expected: number };

interface SubaccountState {
  counter: number;
  readonly signingKeys: Set<string>;
}

/**
 * Registration counters per subaccount (docs/conventions.md §3): the counter starts at 0 and goes up by
 * one with each new signing key. A request's nonce must equal the current counter; registering
 * a known signing key again (a re-login) is accepted at the current counter and does not move
 * it.
 */
export class SubaccountRegistry {
  readonly #subaccounts = new Map<string, SubaccountState>();

  /** The nonce the next registration of `accountId` must carry. */
  expectedNonce(accountId: string): number {
    return this.#subaccounts.get(accountId)?.counter ?? 0;
  }

  /**
   * Checks `nonce` and, when it is right, records `signingKey` (compared case-insensitively).
   *
   * @param accountId - the subaccount, in a form that is the same for every spelling of it.
   */
  register(accountId: string, signingKey: string, nonce: number): NonceCheck {
    let state = this.#subaccounts.get(accountId);
    const expected = state?.counter ?? 0;
    if (nonce !== expected) return { ok: false, expected };
    if (state === undefined) {
      state = { counter: 0, signingKeys: new Set() };
      this.#subaccounts.set(accountId, state);
    }
    const key = signingKey.toLowerCase();
    if (state.signingKeys.has(key)) return { ok: true, newSigningKey: false };
    state.signingKeys.add(key);
    state.counter += 1;
    return { ok: true, newSigningKey: true };
  }
}
