import type { Logger } from '../../log/logger.ts';
import { systemRandomHex } from '../../clock/entropy.ts';
import { redisLabel } from './budget-key.ts';
import { Fallback } from './fallback.ts';
import { OwnSlots } from './own-slots.ts';
import { Pump } from './pump.ts';
import {
  DEFAULT_GUARD_MS,
  freePermits,
  type Permit,
  type RateBudget,
  type RateBudgetStatus,
  type RequestKind,
} from './rate-budget.ts';
import { SharedWindow, type AcquireReply } from './shared-window.ts';
import { Waiters } from './waiters.ts';

/** Options of {@link RedisRateBudget.open}. */
export interface RedisRateBudgetOptions {
  /** `redis://[user:password@]host:port[/db]` (`execution.rateBudget`). */
  readonly url: string;
  /** Key prefix of the account's budget ({@link budgetKey}). */
  readonly key: string;
  /** Requests per window for all processes together (`execution.rateLimit.requests`). */
  readonly requests: number;
  readonly perMs: number;
  /** Added to `perMs` after an answer. Default 2. */
  readonly guardMs?: number;
  /** A killed process's in-flight slots free within `perMs` + this. Default 1000. */
  readonly leaseMarginMs?: number;
  /** Redis unreachable: this process keeps to `floor(requests / expectedProcesses)` (≥ 1). */
  readonly expectedProcesses: number;
  /** Polls take permits (default true). */
  readonly countPolls?: boolean;
  /** How often an unreachable Redis is tried again. Default 500. */
  readonly probeEveryMs?: number;
  /** How long {@link RedisRateBudget.open} waits for a first connection. Default 1000. */
  readonly connectTimeoutMs?: number;
  /**
   * How long Redis may take to answer before this process falls back. Default 2000: long
   * enough that a busy machine does not look like an outage (a process that falls back alone
   * adds its share beside the others' shared window); a Redis that is down refuses at once.
   */
  readonly commandTimeoutMs?: number;
  /** A monotonic clock in ms (see `LocalRateBudgetOptions.now`): local waits and holds only. */
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly log: Logger;
  /** The scripts' clock; default Redis's own `TIME` (tests inject one). */
  readonly redisNow?: () => number;
}

/** A waiter retries the shared window at least this often (a slot may free before the hint). */
const MAX_RETRY_MS = 50;

/**
 * One rate budget for every process that trades with the same account (issue 15), kept in
 * Redis by atomic Lua scripts (see redis-scripts.ts for the window and why not GCRA). A 429
 * seen by any process pauses all of them for `Retry-After`. Waiters of this process line up
 * locally (orders first) and one loop asks Redis for as many slots as are waited for.
 *
 * Redis unreachable: the process keeps to `requests / expectedProcesses` on its own, counting
 * the slots it still holds, after one quiet `perMs` in which it takes none (the others' slots
 * of the shared window are still in the venue's), logs that once, shows `fallback` in status
 * and metrics, tries Redis again every `probeEveryMs`, and when it answers carries its held
 * slots back into the shared window before taking any new one, and keeps to its share for
 * `perMs` + 3 probes more (the others may not be back yet). Never unlimited, never stopped.
 * The parts: shared-window.ts (Redis and the scripts), own-slots.ts (the slots this process
 * holds), fallback.ts (the two modes and the moves between them); this class hands out permits.
 *
 * A process that falls back alone (its Redis unreachable, the others' not) adds up to its share
 * beside the shared window: `expectedProcesses` should leave that room under the venue's limit.
 */
export class RedisRateBudget implements RateBudget {
  readonly #options: RedisRateBudgetOptions;
  readonly #window: SharedWindow;
  readonly #fallback: Fallback;
  readonly #holdMs: number;
  readonly #leaseMs: number;
  readonly #token = systemRandomHex(6);
  readonly #own = new OwnSlots();
  readonly #waiters = new Waiters();
  readonly #pump: Pump;
  readonly #stop = new AbortController();
  #calls = 0;
  #pausedUntil = 0;
  #skippedPolls = 0;
  #maintaining: Promise<void> | undefined;
  /** Reserved slots on their way to waiters (see `#handOverIn`). */
  #promised = 0;

  private constructor(options: RedisRateBudgetOptions) {
    this.#options = options;
    this.#holdMs = options.perMs + (options.guardMs ?? DEFAULT_GUARD_MS);
    this.#leaseMs = options.perMs + (options.leaseMarginMs ?? 1000);
    const probeEveryMs = options.probeEveryMs ?? 500;
    this.#window = new SharedWindow({
      url: options.url,
      key: options.key,
      requests: options.requests,
      perMs: options.perMs,
      leaseMs: this.#leaseMs,
      reconnectEveryMs: probeEveryMs,
      connectTimeoutMs: options.connectTimeoutMs ?? 1000,
      commandTimeoutMs: options.commandTimeoutMs ?? 2000,
      sleep: options.sleep,
      ...(options.redisNow === undefined ? {} : { redisNow: options.redisNow }),
    });
    this.#fallback = new Fallback({
      requests: options.requests,
      perMs: options.perMs,
      holdMs: this.#holdMs,
      leaseMs: this.#leaseMs,
      expectedProcesses: options.expectedProcesses,
      probeEveryMs,
      label: redisLabel(options.url),
      now: options.now,
      log: options.log,
    });
    this.#pump = new Pump(() => this.#step(), options.sleep);
  }

  /**
   * Connects (waiting up to `connectTimeoutMs`) and starts the lease and probe loop. Redis not
   * there yet: starts on the fallback share and joins the shared budget when it answers.
   */
  static async open(options: RedisRateBudgetOptions): Promise<RedisRateBudget> {
    const budget = new RedisRateBudget(options);
    try {
      await budget.#window.connect();
    } catch (error) {
      // Never in the shared window: there is nothing of it to wait out.
      budget.#enterFallback(error, false);
    }
    budget.#maintaining = budget.#maintain();
    return budget;
  }

  take(kind: 'order' | 'lookup', signal: AbortSignal): Promise<Permit> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    if (this.#stop.signal.aborted) return Promise.reject(new Error('rate budget closed'));
    const waiting = this.#waiters.enqueue(kind, signal);
    this.#pump.kick();
    return waiting;
  }

  async tryTake(kind: 'poll', count: number): Promise<Permit[] | undefined> {
    const now = this.#options.now();
    // Uncounted polls still keep a 429's pause: the venue asked every request to wait.
    if (this.#options.countPolls === false)
      return now < this.#pausedUntil ? this.#skipped() : freePermits(count);
    if (this.#stop.signal.aborted || this.#waiters.size > 0 || now < this.#pausedUntil) {
      return this.#skipped();
    }
    if (this.#fallback.mode === 'shared') {
      if (now < this.#fallback.settleUntil && this.#ownFree() < count) return this.#skipped();
      try {
        const prefix = this.#prefix();
        const [granted, waitMs, paused] = await this.#acquire(kind, prefix, count, true);
        if (paused === 1) this.#pausedUntil = Math.max(this.#pausedUntil, now + waitMs);
        if (granted < count) return this.#skipped();
        return Array.from({ length: count }, (_, i) => this.#permit(`${prefix}:${i + 1}`));
      } catch (error) {
        this.#enterFallback(error);
      }
    }
    if (this.#ownFree() < count) return this.#skipped();
    return Array.from({ length: count }, () => this.#permit(this.#localMember()));
  }

  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#options.now() + ms);
    if (this.#fallback.mode !== 'shared') return;
    this.#window.pause(ms).catch((error: unknown) => this.#enterFallback(error));
  }

  estimatedWaitMs(queued: number): number {
    const paused = Math.max(0, this.#pausedUntil - this.#options.now());
    return paused + Math.floor(queued / this.#fallback.requestsNow()) * this.#holdMs;
  }

  status(): RateBudgetStatus {
    return {
      mode: this.#fallback.mode,
      requests: this.#fallback.requestsNow(),
      perMs: this.#options.perMs,
      skippedPolls: this.#skippedPolls,
      fallbacks: this.#fallback.fallbacks,
      pausedForMs: Math.max(0, this.#pausedUntil - this.#options.now()),
    };
  }

  async close(): Promise<void> {
    if (this.#stop.signal.aborted) return;
    this.#stop.abort();
    this.#pump.close();
    this.#waiters.rejectAll(new Error('rate budget closed'));
    await this.#maintaining;
    // Held slots stay in Redis until they free: the venue may still count those requests.
    this.#window.disconnect();
  }

  #skipped(): undefined {
    this.#skippedPolls += 1;
    return undefined;
  }

  #prefix(): string {
    this.#calls += 1;
    return `${this.#token}:${this.#calls}`;
  }

  #localMember(): string {
    return `${this.#prefix()}:0`;
  }

  #acquire(
    kind: RequestKind,
    prefix: string,
    count: number,
    allOrNothing: boolean,
  ): Promise<AcquireReply> {
    return this.#window.acquire(kind, prefix, count, allOrNothing, this.#token);
  }

  #ownFree(): number {
    const now = this.#options.now();
    if (now < this.#pausedUntil) return 0;
    if (this.#fallback.quiet(now)) return 0;
    return this.#fallback.share - this.#own.used(now);
  }

  /** A permit for `member`, already counted in the shared window when the mode is shared. */
  #permit(member: string): Permit {
    const slot = this.#own.add(member);
    let released = false;
    return {
      release: (sent = true) => {
        if (released) return;
        released = true;
        if (sent) slot.freeAt = this.#options.now() + this.#holdMs;
        else this.#own.remove(member);
        if (this.#fallback.mode === 'shared') {
          const written = sent
            ? this.#window.hold([member, this.#holdMs])
            : this.#window.remove(member);
          written.catch((error: unknown) => this.#enterFallback(error));
        }
        if (this.#waiters.size > 0) this.#pump.kick();
      },
    };
  }

  async #step(): Promise<number | undefined> {
    if (this.#waiters.size === 0) return undefined;
    const now = this.#options.now();
    if (now < this.#pausedUntil) return this.#pausedUntil - now;
    if (this.#fallback.mode === 'fallback') return this.#stepOnShare(now);
    // Waiters that a reserved slot is already coming for are not asked for again.
    let wanted = this.#waiters.size - this.#promised;
    if (wanted <= 0) return Infinity;
    const settleUntil = this.#fallback.settleUntil;
    if (now < settleUntil) {
      wanted = Math.min(wanted, this.#ownFree());
      if (wanted <= 0) return Math.max(1, Math.min(settleUntil, this.#own.nextFreeAt()) - now);
    }
    const kind = this.#waiters.headKind ?? 'order';
    const prefix = this.#prefix();
    let reply: AcquireReply;
    try {
      reply = await this.#acquire(kind, prefix, wanted, false);
    } catch (error) {
      this.#enterFallback(error);
      return 0;
    }
    const [granted, waitMs, paused, ...delays] = reply;
    for (let i = 1; i <= granted; i++) {
      const permit = this.#permit(`${prefix}:${i}`);
      const delayMs = delays[i - 1] ?? 0;
      if (delayMs > 0) {
        this.#handOverIn(permit, delayMs);
        continue;
      }
      // The waiter left (aborted) while Redis answered: the slot goes back at once.
      if (!this.#waiters.grant(permit)) permit.release(false);
    }
    if (paused === 1) {
      this.#pausedUntil = Math.max(this.#pausedUntil, this.#options.now() + waitMs);
      return waitMs;
    }
    if (granted > 0) return 0;
    return Math.min(waitMs, MAX_RETRY_MS);
  }

  /** A step in a fallback: waiters served from this process's share alone. */
  #stepOnShare(now: number): number | undefined {
    while (this.#waiters.size > 0 && this.#ownFree() > 0) {
      const permit = this.#permit(this.#localMember());
      if (!this.#waiters.grant(permit)) permit.release(false);
    }
    if (this.#waiters.size === 0) return undefined;
    const quietUntil = this.#fallback.quietUntil;
    if (now < quietUntil) return quietUntil - now;
    // The probe kicks the loop when Redis answers again.
    const next = this.#own.nextFreeAt();
    return next === Infinity ? Infinity : Math.max(1, next - now);
  }

  /**
   * A reserved slot: someone else's, held until `delayMs` from now, then ours. Handed to the
   * first waiter by a local timer at that moment, with no Redis round trip on the way.
   */
  #handOverIn(permit: Permit, delayMs: number): void {
    this.#promised += 1;
    void this.#options
      .sleep(delayMs, this.#stop.signal)
      .then(
        () => true,
        () => false,
      )
      .then((due) => {
        this.#promised -= 1;
        if (!due || !this.#waiters.grant(permit)) permit.release(false);
      });
  }

  /** Keeps to this process's share from now on (see `Fallback.enter`). */
  #enterFallback(error: unknown, wasShared = true): void {
    if (this.#stop.signal.aborted) return;
    if (this.#fallback.enter(error, wasShared)) this.#pump.kick();
  }

  /** Renews the leases of in-flight slots and, in fallback, tries Redis again. */
  async #maintain(): Promise<void> {
    const everyMs = Math.min(this.#options.probeEveryMs ?? 500, Math.floor(this.#leaseMs / 3));
    while (!this.#stop.signal.aborted) {
      try {
        await this.#options.sleep(everyMs, this.#stop.signal);
      } catch {
        return;
      }
      if (this.#fallback.mode === 'shared') await this.#renewLeases();
      else if (await this.#fallback.probe(this.#window, this.#own)) this.#pump.kick();
    }
  }

  async #renewLeases(): Promise<void> {
    const pairs = this.#own.leases(this.#leaseMs);
    if (pairs.length === 0) return;
    try {
      await this.#window.hold(pairs);
    } catch (error) {
      this.#enterFallback(error);
    }
  }
}
