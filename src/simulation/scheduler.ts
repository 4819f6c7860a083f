/**
 * Virtual time for a whole-bot simulation: one monotonic clock that moves only when nothing is
 * left to run at the current instant, a timer queue ordered by (due time, creation order), and
 * owners, so that a crash forgets every timer of the process that died (its pending promises
 * then never settle, as in a process that was killed).
 */

import { microtasksDrained, nextMacrotask } from '../clock/timers.ts';

/** Whoever started a timer: one simulated process (or the simulator itself). */
export type Owner = number;

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly owner: Owner;
  readonly fire: () => void;
  cancelled: boolean;
}

/** The timers and clocks one simulated process is given. */
export interface ProcessTime {
  readonly monotonic: () => number;
  readonly startTimer: (ms: number, onFire: () => void) => () => void;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A signal that aborts (TimeoutError) after `ms` virtual milliseconds. */
  readonly timeoutSignal: (ms: number) => AbortSignal;
}

/**
 * How often a drain takes a turn of the event loop instead of only emptying the microtask
 * queue. Node looks for rejected promises that nobody handled only when its tick queue is empty,
 * which the microtask drain never lets it be: without a turn now and then, a bot that handles a
 * rejection a step late (a crash in a live bot, where every timer is a turn of the loop) would
 * go unnoticed until the schedule ends. With a turn every 8 drains, a handler 8 or more steps
 * late is always caught, a nearer one at some seeds (test/unit/simulation/scheduler-rejections.test.ts).
 */
export const TURN_EVERY_DRAINS = 8;

/** The virtual clock and timer queue of one schedule. */
export class VirtualScheduler {
  #now = 0;
  #seq = 0;
  // A binary heap on (at, seq).
  readonly #heap: Timer[] = [];
  #live = 0;
  /** Promises doing real asynchronous work that virtual time must wait for (see {@link hold}). */
  #held = 0;
  /** Owners whose process crashed: a timer they start after it never fires (see {@link dropOwner}). */
  readonly #dead = new Set<Owner>();
  /** Drains so far (see {@link TURN_EVERY_DRAINS}). */
  #drains = 0;

  /** Virtual ms since the schedule started. */
  readonly monotonic = (): number => this.#now;

  /** Timers waiting (cancelled ones excluded). */
  get pending(): number {
    return this.#live;
  }

  /** Starts a timer of `owner`; returns its cancel function. */
  startTimer(owner: Owner, ms: number, fire: () => void): () => void {
    if (this.#dead.has(owner)) return () => undefined;
    const timer: Timer = {
      at: this.#now + Math.max(0, Number.isFinite(ms) ? ms : 0),
      seq: this.#seq++,
      owner,
      fire,
      cancelled: false,
    };
    this.#push(timer);
    this.#live += 1;
    return () => {
      if (timer.cancelled) return;
      timer.cancelled = true;
      this.#live -= 1;
    };
  }

  /**
   * Virtual time does not move until `work` settles: for the venue's answers, which could await
   * work outside the microtask queue (a module imported at run time, a real wait), so that how
   * long that takes never changes what the schedule does.
   */
  hold<T>(work: Promise<T>): Promise<T> {
    this.#held += 1;
    return work.finally(() => {
      this.#held -= 1;
    });
  }

  /**
   * Lets the promise chains that can move at this instant move: the microtask queue emptied
   * (`microtasksDrained`), or, every {@link TURN_EVERY_DRAINS}th time, a turn of the event loop;
   * then, while held work is unsettled, turns of the event loop until it settles. Nothing else
   * in a schedule waits for the event loop: the bot's waits, timeouts and timers are this
   * scheduler's, its journal is synchronous SQLite, and the answers it reads are strings or
   * undici bodies, read through promise reactions. A chain that passes through
   * `process.nextTick` would not be waited for by the microtask drain (none does today).
   */
  async #drain(): Promise<void> {
    this.#drains += 1;
    if (this.#drains % TURN_EVERY_DRAINS === 0) await nextMacrotask();
    else await microtasksDrained();
    while (this.#held > 0) await nextMacrotask();
  }

  /**
   * Forgets every timer of `owner` (its process crashed), and every timer it starts from now on:
   * promise chains of the dead process that were already settling still run their synchronous
   * code, but nothing of theirs waits, sends or answers any more (a request it had already sent
   * is on the network's timer, not its own, and may still reach the venue: sim-network.ts).
   */
  dropOwner(owner: Owner): void {
    this.#dead.add(owner);
    for (const timer of this.#heap) {
      if (timer.owner === owner && !timer.cancelled) {
        timer.cancelled = true;
        this.#live -= 1;
      }
    }
  }

  /** Whether `owner`'s process still lives (see {@link dropOwner}). */
  alive(owner: Owner): boolean {
    return !this.#dead.has(owner);
  }

  /** What one process is given: its timers are its own (see {@link dropOwner}). */
  processTime(owner: Owner): ProcessTime {
    const startTimer = (ms: number, onFire: () => void): (() => void) =>
      this.startTimer(owner, ms, onFire);
    return {
      monotonic: this.monotonic,
      startTimer,
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          if (signal.aborted) {
            reject(signal.reason as Error);
            return;
          }
          const onAbort = (): void => {
            cancel();
            reject(signal.reason as Error);
          };
          const cancel = startTimer(ms, () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          });
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      timeoutSignal: (ms) => {
        const controller = new AbortController();
        startTimer(ms, () =>
          controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError')),
        );
        return controller.signal;
      },
    };
  }

  /**
   * Runs until virtual time `until`: lets every promise settle, fires the earliest due timer
   * (moving time to it), and again, calling `afterStep` after each timer. Time ends at `until`.
   * @returns the timers fired.
   */
  async runUntil(until: number, afterStep: () => void): Promise<number> {
    let steps = 0;
    for (;;) {
      await this.#drain();
      const next = this.#peekLive();
      if (next === undefined || next.at > until) break;
      this.#pop();
      this.#live -= 1;
      next.cancelled = true;
      this.#now = Math.max(this.#now, next.at);
      next.fire();
      steps += 1;
      afterStep();
    }
    await this.#drain();
    this.#now = Math.max(this.#now, until);
    return steps;
  }

  #peekLive(): Timer | undefined {
    for (;;) {
      const top = this.#heap[0];
      if (top === undefined || !top.cancelled) return top;
      this.#pop();
    }
  }

  #less(a: Timer, b: Timer): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  #push(timer: Timer): void {
    const heap = this.#heap;
    heap.push(timer);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && this.#less(heap[left]!, heap[smallest]!)) smallest = left;
      if (right < heap.length && this.#less(heap[right]!, heap[smallest]!)) smallest = right;
      if (smallest === i) return;
      [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
      i = smallest;
    }
  }
}
