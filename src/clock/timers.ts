/**
 * The process's timers: the one module of src/ that starts real ones (test/unit/architecture/
 * clock-reads.test.ts holds every other file to that). Like `systemClock` in clock.ts, each is the
 * default a part is given when nothing else is injected; the whole-bot simulation injects its
 * virtual timers instead (src/simulation/scheduler.ts), and tests their own.
 */

/**
 * Starts a timer that calls `onFire` after `ms` milliseconds unless the returned function is
 * called first. Injected so tests and the simulation decide when a deadline passes.
 */
export type StartTimer = (ms: number, onFire: () => void) => () => void;

/** Waits `ms`, or until `signal` (when given) aborts: then rejects with the abort reason. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A real timer (`setTimeout`); it keeps the process alive until it fires or is cancelled. */
export const systemTimer: StartTimer = (ms, onFire) => {
  const handle = setTimeout(onFire, ms);
  return () => clearTimeout(handle);
};

/**
 * A real timer that does not keep the process alive on its own: for a deadline on work that
 * already holds the process (a drain at shutdown, a request body being read).
 */
export const systemBackgroundTimer: StartTimer = (ms, onFire) => {
  const handle = setTimeout(onFire, ms);
  handle.unref();
  return () => clearTimeout(handle);
};

/** A real wait of `ms`, or until `signal` (when given) aborts: then rejects with the abort reason. */
export const systemSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** A signal that aborts with a `TimeoutError` after `ms` real milliseconds. */
export function systemTimeoutSignal(ms: number): AbortSignal {
  return AbortSignal.timeout(ms);
}

/**
 * One macrotask boundary (`setImmediate`): every promise chain that can move at this instant has
 * moved, and Node has looked for rejected promises nobody handled. The simulator's one real
 * timer: a boundary, never a wait (virtual time does not move there).
 */
export function nextMacrotask(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * The end of the microtask queue, without a turn of the event loop: resolves once every promise
 * reaction queued before the call, and every one those queue in turn, has run. A tick queued
 * from inside a promise reaction runs only when V8 has emptied the microtask queue (Node runs
 * its tick queue between microtask drains); the first `await` puts the caller inside one, so
 * this holds wherever it is called from. Nothing that waits for the event loop (I/O, a real
 * timer, `setImmediate`) is waited for: see {@link nextMacrotask} for that; nor is a chain that
 * passes through another tick (all ticks queued by then run before this one's continuation,
 * and a reaction that tick queues runs after it), and Node does not look for unhandled
 * rejections in between. Cheaper than a macrotask boundary, which takes a turn of the event
 * loop and its poll for I/O: the simulator drains after every step of virtual time, thousands
 * of times a schedule.
 */
export async function microtasksDrained(): Promise<void> {
  await Promise.resolve();
  await new Promise<void>((resolve) => process.nextTick(resolve));
}
