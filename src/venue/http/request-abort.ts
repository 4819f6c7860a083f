/** Which of the caller, the timeout or the response cap ended a request. */
export type AbortWhy = 'caller' | 'timeout' | 'cap';

/** Starts a timer: calls `onFire` after `ms` unless the returned function is called first. */
export type StartTimer = (ms: number, onFire: () => void) => () => void;

/**
 * One request's single abort, remembering which of caller, timeout or cap fired first. One
 * controller with a remembered reason instead of AbortSignal.any: we must know which fired, and
 * a long-lived caller signal must not collect listeners (`release` removes this one).
 */
export class RequestAbort {
  readonly #controller = new AbortController();
  #why: AbortWhy | undefined;
  readonly #callerSignal: AbortSignal | undefined;
  readonly #cancelTimer: () => void;

  /** Listens to the caller's signal and starts the timeout (`timeoutMs` for the whole exchange). */
  constructor(callerSignal: AbortSignal | undefined, timeoutMs: number, startTimer: StartTimer) {
    this.#callerSignal = callerSignal;
    // This object is the listener (`handleEvent`): no closure made and named per request.
    callerSignal?.addEventListener('abort', this, { once: true });
    this.#cancelTimer = startTimer(timeoutMs, () => this.abort('timeout'));
  }

  /** The caller's signal fired. */
  handleEvent(): void {
    this.abort('caller');
  }

  /** The signal the fetch and the body read follow. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** What aborted the request, if anything has. */
  get why(): AbortWhy | undefined {
    return this.#why;
  }

  /** Aborts for `reason`, unless something already did. */
  abort(reason: AbortWhy): void {
    if (this.#why !== undefined) return;
    this.#why = reason;
    this.#controller.abort();
  }

  /** Stops the timer and stops listening to the caller (the request is over). */
  release(): void {
    this.#cancelTimer();
    this.#callerSignal?.removeEventListener('abort', this);
  }
}
