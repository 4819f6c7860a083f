/**
 * The sleep a whole-bot test injects with a virtual clock: the poll loop's sleeps (on the run's
 * signal) move the clock, after `onPoll` (settle the orders, count the polls); a sleep of a poll
 * interval or more beside the polls (the credential renewal's check every 5 s) waits until the
 * polls move the clock past its end, as it would on a real clock, instead of jumping the clock
 * and running ahead of the polls; a shorter one (an order's backoff) moves the clock itself, so
 * an order's settle never waits on the polls.
 */
export function pollDrivenSleep(options: {
  readonly clock: { now: number };
  /** The signal the bot runs on: its poll loop's sleeps carry it. */
  readonly runSignal: AbortSignal;
  readonly pollIntervalMs: number;
  /** Runs before each poll's sleep moves the clock. */
  readonly onPoll: () => Promise<void>;
}): (ms: number, signal: AbortSignal) => Promise<void> {
  const { clock, runSignal, pollIntervalMs } = options;
  const waiting = new Set<{ readonly at: number; readonly wake: () => void }>();
  const waitForClock = (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const waiter = {
        at: clock.now + ms,
        wake: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        waiting.delete(waiter);
        reject(new Error('aborted'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      waiting.add(waiter);
    });
  return async (ms, signal) => {
    if (signal.aborted) throw new Error('aborted');
    if (signal !== runSignal && ms >= pollIntervalMs) return waitForClock(ms, signal);
    if (signal === runSignal) await options.onPoll();
    clock.now += ms;
    for (const waiter of [...waiting])
      if (waiter.at <= clock.now) {
        waiting.delete(waiter);
        waiter.wake();
      }
    if (signal.aborted) throw new Error('aborted');
  };
}
