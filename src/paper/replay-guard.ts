/**
 * The set of order signatures already accepted (docs/conventions.md §4.3). Signatures are recorded only
 * for orders the venue accepted, so a refused order may be fixed and sent again; the verifier
 * admits only the canonical encoding of a signature, so one order cannot be replayed under a
 * second spelling.
 */
export class ReplayGuard {
  readonly #used = new Set<string>();

  /** True when `signature` (any hex letter case) was already accepted. */
  has(signature: string): boolean {
    return this.#used.has(signature.toLowerCase());
  }

  /** Records an accepted order's signature. */
  add(signature: string): void {
    this.#used.add(signature.toLowerCase());
  }
}
