/**
 * An injected clock for whole-bot tests over real HTTP: `now` and `sleep` are what the bot is
 * given; time moves only when the test calls {@link VirtualTime.advance}, straight to the next
 * sleeper's wake time, so a run of 40 s takes as long as its requests do. The test decides when
 * the bot is quiet (its requests answered) before moving time on.
 */
export interface VirtualTime {
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Sleepers waiting now. */
  sleepers(): number;
  /** Moves time to the earliest sleeper's wake time and wakes every sleeper due; false: none. */
  advance(): boolean;
}

interface Sleeper {
  readonly at: number;
  readonly wake: () => void;
}

export function virtualTime(start: number): VirtualTime {
  let now = start;
  const sleepers = new Set<Sleeper>();
  return {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason as Error);
        const sleeper: Sleeper = {
          at: now + Math.max(0, ms),
          wake: () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = (): void => {
          sleepers.delete(sleeper);
          reject(signal.reason as Error);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        sleepers.add(sleeper);
      }),
    sleepers: () => sleepers.size,
    advance: () => {
      if (sleepers.size === 0) return false;
      let next = Infinity;
      for (const sleeper of sleepers) next = Math.min(next, sleeper.at);
      now = Math.max(now, next);
      for (const sleeper of [...sleepers]) {
        if (sleeper.at > now) continue;
        sleepers.delete(sleeper);
        sleeper.wake();
      }
      return true;
    },
  };
}
