import { systemTimer, type StartTimer } from '../clock/timers.ts';

/**
 * Runs `task` with a signal that aborts when `parent` aborts or `timeoutMs` passes, whichever
 * comes first, and lets go of both when the task ends: the listener on `parent` is removed and
 * the timer cleared. For calls made now and then under a long-lived signal (the run's), where
 * `AbortSignal.any([parent, AbortSignal.timeout(ms)])` would leave each combined signal retained
 * by `parent` for as long as the run lasts (Node 20).
 */
export async function withDeadline<T>(
  parent: AbortSignal,
  timeoutMs: number,
  task: (signal: AbortSignal) => Promise<T>,
  /** Starts the deadline's timer; default the real one (clock/timers.ts); the simulator injects its virtual clock's. */
  startTimer: StartTimer = systemTimer,
): Promise<T> {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  const cancel = startTimer(timeoutMs, () =>
    controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError')),
  );
  try {
    return await task(controller.signal);
  } finally {
    cancel();
    parent.removeEventListener('abort', onAbort);
  }
}
