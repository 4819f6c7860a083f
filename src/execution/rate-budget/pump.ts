/**
 * One loop that hands out permits: it runs `step` (grant what can be granted), then sleeps the
 * time `step` returns, or until {@link Pump.kick} (a slot was given back), and goes on until
 * `step` says nobody waits. One loop per budget, never one timer per slot: no timer is left
 * once nobody waits, and a slot is handed on at the moment it frees, not a timer's lag later.
 */
export class Pump {
  readonly #step: () => Promise<number | undefined> | number | undefined;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  #running = false;
  #wake: AbortController | undefined;
  /** A kick that came while `step` ran: the loop steps again instead of sleeping. */
  #kicked = false;
  #closed = false;

  /**
   * @param step - grants what it can; returns ms to wait before the next step (`Infinity`:
   *   until a kick), or `undefined` when nobody waits.
   * @param sleep - waits `ms` or until the signal aborts (injected: tests drive the clock).
   */
  constructor(
    step: () => Promise<number | undefined> | number | undefined,
    sleep: (ms: number, signal: AbortSignal) => Promise<void>,
  ) {
    this.#step = step;
    this.#sleep = sleep;
  }

  /** Runs the loop, or wakes it when it sleeps. */
  kick(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#kicked = true;
      this.#wake?.abort();
      return;
    }
    this.#running = true;
    void this.#loop();
  }

  /** Stops the loop for good. */
  close(): void {
    this.#closed = true;
    this.#wake?.abort();
  }

  async #loop(): Promise<void> {
    while (!this.#closed) {
      let waitMs: number | undefined;
      this.#kicked = false;
      try {
        waitMs = await this.#step();
      } catch {
        waitMs = 50; // the step logs its own failures; never a hot loop
      }
      if (this.#closed) break;
      if (this.#kicked) continue;
      if (waitMs === undefined) break;
      const wake = new AbortController();
      this.#wake = wake;
      try {
        if (waitMs === Infinity) {
          await new Promise<void>((resolve) =>
            wake.signal.addEventListener('abort', () => resolve(), { once: true }),
          );
        } else if (waitMs > 0) {
          await this.#sleep(waitMs, wake.signal);
        }
      } catch {
        // woken early: step again
      } finally {
        this.#wake = undefined;
      }
    }
    // Set here, in the same turn as the last step: a kick from now on starts a new loop.
    this.#running = false;
  }
}
