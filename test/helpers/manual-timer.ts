import type { StartTimer } from '../../src/clock/timers.ts';

/** A deadline timer the test fires by hand: `start` is what the code under test is given. */
export interface ManualTimer {
  readonly start: StartTimer;
  /** Durations of the timers armed and neither fired nor cancelled, in arming order. */
  armed(): number[];
  /** Durations of every timer ever armed (fired, cancelled or live), in arming order. */
  started(): number[];
  /** Fires every armed timer. */
  fireAll(): void;
}

export function manualTimer(): ManualTimer {
  const timers: { ms: number; fire: () => void; done: boolean }[] = [];
  const live = () => timers.filter((timer) => !timer.done);
  return {
    start: (ms, fire) => {
      const timer = { ms, fire, done: false };
      timers.push(timer);
      return () => {
        timer.done = true;
      };
    },
    armed: () => live().map((timer) => timer.ms),
    started: () => timers.map((timer) => timer.ms),
    fireAll: () => {
      for (const timer of live()) {
        timer.done = true;
        timer.fire();
      }
    },
  };
}

/** Lets every pending promise job and I/O callback run (one turn of the event loop). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
