/** What start-up opened and shutdown (or a failed start) must close, newest first. */
export class CleanupStack {
  #steps: (() => Promise<void> | void)[] = [];

  /** Remembers a step to run on {@link close}. */
  push(step: () => Promise<void> | void): void {
    this.#steps.push(step);
  }

  /** Runs every step, last pushed first, once. */
  async close(): Promise<void> {
    const steps = this.#steps.reverse();
    this.#steps = [];
    for (const step of steps) await step();
  }
}
