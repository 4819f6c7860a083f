import type { StartTimer } from '../clock/timers.ts';

/** What {@link raceDeadline} resolves to when the deadline came first. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/**
 * Waits for `work` or for `ms` to pass, whichever comes first; the timer is cleared either way.
 * `work` is not cancelled (a promise cannot be): the caller decides what to do when it settles.
 */
export async function raceDeadline<T>(
  work: Promise<T>,
  ms: number,
  startTimer: StartTimer,
): Promise<T | typeof TIMED_OUT> {
  let cancel: (() => void) | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    cancel = startTimer(ms, () => resolve(TIMED_OUT));
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    cancel?.();
  }
}
