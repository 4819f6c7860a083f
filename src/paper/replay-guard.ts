/**
 * The order signatures already accepted (docs/conventions.md §4.3), each with the id of the
 * order it created (what `GET /api/v1/order?signature=` answers, §6). Signatures are recorded
 * only for orders the venue accepted, so a refused order may be fixed and sent again; the
 * verifier admits only the canonical encoding of a signature, so one order cannot be replayed
 * under a second spelling.
 */
export class ReplayGuard {
  readonly #used = new Map<string, number>();

  /** True when `signature` (any hex letter case) was already accepted. */
  has(signature: string): boolean {
    return this.#used.has(signature.toLowerCase());
  }

  /** Records an accepted order's signature and the id of the order it created. */
  add(signature: string, orderId: number): void {
    this.#used.set(signature.toLowerCase(), orderId);
  }

  /** The id of the order `signature` created, or undefined when it was never accepted. */
  orderIdOf(signature: string): number | undefined {
    return this.#used.get(signature.toLowerCase());
  }
}
