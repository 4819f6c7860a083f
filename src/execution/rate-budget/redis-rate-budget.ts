import { Redis } from 'ioredis';
import { summarizeError } from '../../errors/index.ts';
import type { Logger } from '../../log/logger.ts';
import { redisLabel } from './budget-key.ts';
import { Pump } from './pump.ts';
import {
  DEFAULT_GUARD_MS,
  freePermits,
  type Permit,
  type RateBudget,
  type RateBudgetStatus,
} from './rate-budget.ts';
import { ACQUIRE_LUA, HOLD_LUA, PAUSE_LUA } from './redis-scripts.ts';
import { Waiters } from './waiters.ts';
import { systemRandomHex } from '../../clock/entropy.ts';

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
  /** A monotonic clock in ms (see `LocalRateBudgetOptions.now`): local waits and holds only. */
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly log: Logger;
  /** The scripts' clock; default Redis's own `TIME` (tests inject one). */
  readonly redisNow?: () => number;
}

/** A waiter retries the shared window at least this often (a slot may free before the hint). */
const MAX_RETRY_MS = 50;
/** How long an order waiting anywhere keeps lookups and polls of every process back. */
const ORDERS_WAITING_MS = 250;

/** {granted, waitMs, paused, then for each granted slot the ms until it may be used}. */
type AcquireReply = [granted: number, waitMs: number, paused: number, ...delays: number[]];

interface Scripts {
  quantaRateAcquire(...args: (string | number)[]): Promise<AcquireReply>;
  quantaRateHold(...args: (string | number)[]): Promise<number>;
  quantaRatePause(...args: (string | number)[]): Promise<number>;
}

/** One of this process's slots, by its member name in the shared window. */
interface OwnSlot {
  freeAt: number;
}

/**
 * One rate budget for every process that trades with the same account (issue 15), kept in
 * Redis by atomic Lua scripts (see redis-scripts.ts for the window and why not GCRA). A 429
 * seen by any process pauses all of them for `Retry-After`. Waiters of this process line up
 * locally (orders first) and one loop asks Redis for as many slots as are waited for.
 *
 * Redis unreachable: the process keeps to `requests / expectedProcesses` on its own, counting
 * the slots it still holds, after one quiet `perMs` in which it takes none (the others' slots
 * of the shared window are still in the venue's), logs that once, shows `fallback` in status and metrics, tries Redis
 * again every `probeEveryMs`, and when it answers carries its held slots back into the shared
 * window before taking any new one, and keeps to its share for `perMs` + 3 probes more (the
 * others may not be back yet). Never unlimited, never stopped.
 *
 * A process that falls back alone (its Redis unreachable, the others' not) adds up to its share
 * beside the shared window: `expectedProcesses` should leave that room under the venue's limit.
 */
export class RedisRateBudget implements RateBudget {
  readonly #options: RedisRateBudgetOptions;
  readonly #redis: Redis;
  readonly #scripts: Scripts;
  readonly #keys: { slots: string; pause: string; waiting: string };
  readonly #holdMs: number;
  readonly #leaseMs: number;
  readonly #share: number;
  readonly #label: string;
  readonly #token = systemRandomHex(6);
  readonly #own = new Map<string, OwnSlot>();
  readonly #waiters = new Waiters();
  readonly #pump: Pump;
  readonly #stop = new AbortController();
  #mode: 'shared' | 'fallback' = 'shared';
  #calls = 0;
  #pausedUntil = 0;
  #skippedPolls = 0;
  #fallbacks = 0;
  #maintaining: Promise<void> | undefined;
  /**
   * Back from a fallback: until then this process still keeps to its share (now counted in
   * Redis too), because the others may still be in fallback with slots Redis does not know.
   */
  #settleUntil = 0;
  /** Reserved slots on their way to waiters (see `#handOverIn`). */
  #promised = 0;
  /**
   * Just fallen back from the shared window: until then this process takes no new slot (see
   * `#enterFallback`).
   */
  #quietUntil = 0;
  /** A failed probe of a connected Redis was logged in this fallback (see `#tryShared`). */
  #probeFailureLogged = false;

  private constructor(options: RedisRateBudgetOptions) {
    this.#options = options;
    this.#holdMs = options.perMs + (options.guardMs ?? DEFAULT_GUARD_MS);
    this.#leaseMs = options.perMs + (options.leaseMarginMs ?? 1000);
    this.#share = Math.max(1, Math.floor(options.requests / options.expectedProcesses));
    this.#label = redisLabel(options.url);
    this.#keys = {
      slots: `${options.key}:slots`,
      pause: `${options.key}:pause`,
      waiting: `${options.key}:orders-waiting`,
    };
    this.#redis = new Redis(options.url, {
      lazyConnect: true,
      // Fail at once while disconnected: the fallback share applies, nothing waits on Redis.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // Long enough that a busy machine does not look like an outage (a process that falls
      // back alone adds its share beside the others' shared window); a Redis that is down
      // refuses at once anyway.
      commandTimeout: 2000,
      connectTimeout: options.connectTimeoutMs ?? 1000,
      retryStrategy: () => options.probeEveryMs ?? 500,
    });
    // Connection errors are seen (and logged once) where commands fail; not as stray events.
    this.#redis.on('error', () => undefined);
    this.#redis.defineCommand('quantaRateAcquire', { numberOfKeys: 3, lua: ACQUIRE_LUA });
    this.#redis.defineCommand('quantaRateHold', { numberOfKeys: 1, lua: HOLD_LUA });
    this.#redis.defineCommand('quantaRatePause', { numberOfKeys: 1, lua: PAUSE_LUA });
    this.#scripts = this.#redis as unknown as Scripts;
    this.#pump = new Pump(() => this.#step(), options.sleep);
  }

  /**
   * Connects (waiting up to `connectTimeoutMs`) and starts the lease and probe loop. Redis not
   * there yet: starts on the fallback share and joins the shared budget when it answers.
   */
  static async open(options: RedisRateBudgetOptions): Promise<RedisRateBudget> {
    const budget = new RedisRateBudget(options);
    try {
      await budget.#redis.connect();
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
    if (this.#options.countPolls === false) return freePermits(count);
    const now = this.#options.now();
    if (this.#stop.signal.aborted || this.#waiters.size > 0 || now < this.#pausedUntil) {
      return this.#skipped();
    }
    if (this.#mode === 'shared') {
      if (now < this.#settleUntil && this.#ownFree() < count) return this.#skipped();
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
    if (this.#mode !== 'shared') return;
    this.#scripts
      .quantaRatePause(this.#keys.pause, this.#redisNowArg(), ms)
      .catch((error: unknown) => this.#enterFallback(error));
  }

  estimatedWaitMs(queued: number): number {
    const paused = Math.max(0, this.#pausedUntil - this.#options.now());
    return paused + Math.floor(queued / this.#requestsNow()) * this.#holdMs;
  }

  status(): RateBudgetStatus {
    return {
      mode: this.#mode,
      requests: this.#requestsNow(),
      perMs: this.#options.perMs,
      skippedPolls: this.#skippedPolls,
      fallbacks: this.#fallbacks,
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
    this.#redis.disconnect();
  }

  #requestsNow(): number {
    const settling = this.#options.now() < this.#settleUntil;
    return this.#mode === 'shared' && !settling ? this.#options.requests : this.#share;
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

  #redisNowArg(): string {
    return this.#options.redisNow === undefined ? '' : String(this.#options.redisNow());
  }

  #acquire(
    kind: 'order' | 'lookup' | 'poll',
    prefix: string,
    count: number,
    allOrNothing: boolean,
  ): Promise<AcquireReply> {
    const keys = this.#keys;
    return this.#scripts.quantaRateAcquire(
      keys.slots,
      keys.pause,
      keys.waiting,
      this.#redisNowArg(),
      this.#options.requests,
      this.#leaseMs,
      prefix,
      count,
      allOrNothing ? 1 : 0,
      kind,
      ORDERS_WAITING_MS,
      this.#token,
      // Orders may reserve slots that free within half a window (only answered requests'
      // slots free that soon; in-flight leases end later).
      Math.floor(this.#options.perMs / 2),
    );
  }

  /** Slots this process holds now (in flight or held after their answer). */
  #ownUsed(): number {
    const now = this.#options.now();
    for (const [member, slot] of this.#own) if (slot.freeAt <= now) this.#own.delete(member);
    return this.#own.size;
  }

  #ownFree(): number {
    const now = this.#options.now();
    if (now < this.#pausedUntil) return 0;
    if (this.#mode === 'fallback' && now < this.#quietUntil) return 0;
    return this.#share - this.#ownUsed();
  }

  #nextOwnFreeAt(): number {
    let next = Infinity;
    for (const slot of this.#own.values()) next = Math.min(next, slot.freeAt);
    return next;
  }

  /** A permit for `member`, already counted in the shared window when the mode is shared. */
  #permit(member: string): Permit {
    const slot: OwnSlot = { freeAt: Infinity };
    this.#own.set(member, slot);
    let released = false;
    return {
      release: (sent = true) => {
        if (released) return;
        released = true;
        if (sent) slot.freeAt = this.#options.now() + this.#holdMs;
        else this.#own.delete(member);
        if (this.#mode === 'shared') {
          const written = sent
            ? this.#scripts.quantaRateHold(
                this.#keys.slots,
                this.#redisNowArg(),
                member,
                this.#holdMs,
              )
            : this.#redis.zrem(this.#keys.slots, member);
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
    if (this.#mode === 'fallback') {
      while (this.#waiters.size > 0 && this.#ownFree() > 0) {
        const permit = this.#permit(this.#localMember());
        if (!this.#waiters.grant(permit)) permit.release(false);
      }
      if (this.#waiters.size === 0) return undefined;
      if (now < this.#quietUntil) return this.#quietUntil - now;
      // The probe kicks the loop when Redis answers again.
      const next = this.#nextOwnFreeAt();
      return next === Infinity ? Infinity : Math.max(1, next - now);
    }
    // Waiters that a reserved slot is already coming for are not asked for again.
    let wanted = this.#waiters.size - this.#promised;
    if (wanted <= 0) return Infinity;
    if (now < this.#settleUntil) {
      wanted = Math.min(wanted, this.#ownFree());
      if (wanted <= 0) return Math.max(1, Math.min(this.#settleUntil, this.#nextOwnFreeAt()) - now);
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

  /**
   * Keeps to this process's share from now on. `wasShared`: leaving the shared window, whose
   * slots were spread over the processes as their waiters came, not by shares: one holding
   * fewer than its share at this moment would add the difference on top of the others' many
   * (up to R + R / expectedProcesses in the venue's window, over 1.25 R with three). So no new
   * slot until `perMs` + guard from now, when every slot answered under the shared window has
   * freed (Redis went away before we noticed, so nobody takes one after this); from then on,
   * each process's share adds only to its own requests still in flight, which it counts.
   */
  #enterFallback(error: unknown, wasShared = true): void {
    if (this.#mode === 'fallback' || this.#stop.signal.aborted) return;
    this.#mode = 'fallback';
    this.#fallbacks += 1;
    this.#probeFailureLogged = false;
    if (wasShared) this.#quietUntil = this.#options.now() + this.#holdMs;
    this.#options.log.warn(
      {
        rateBudget: 'fallback',
        redis: this.#label,
        requests: this.#share,
        perMs: this.#options.perMs,
        expectedProcesses: this.#options.expectedProcesses,
        err: summarizeError(error),
      },
      "shared rate budget unreachable: keeping to this process's share until Redis answers",
    );
    this.#pump.kick();
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
      if (this.#mode === 'fallback') await this.#tryShared();
      else await this.#renewLeases();
    }
  }

  async #renewLeases(): Promise<void> {
    const args: (string | number)[] = [];
    for (const [member, slot] of this.#own) {
      if (slot.freeAt === Infinity) args.push(member, this.#leaseMs);
    }
    if (args.length === 0) return;
    try {
      await this.#scripts.quantaRateHold(this.#keys.slots, this.#redisNowArg(), ...args);
    } catch (error) {
      this.#enterFallback(error);
    }
  }

  /** Back to the shared window, carrying the slots this process still holds into it. */
  async #tryShared(): Promise<void> {
    if (this.#redis.status !== 'ready') return;
    const now = this.#options.now();
    const args: (string | number)[] = [];
    this.#ownUsed();
    for (const [member, slot] of this.#own) {
      // Whole ms, rounded up (held no shorter than here): the clock is `performance.now()`, and
      // a fraction made HOLD_LUA's PEXPIRE fail ('value is not an integer'), so every probe
      // failed while an answered slot was held and the process stayed on its share for tens
      // of seconds after Redis was back.
      args.push(member, slot.freeAt === Infinity ? this.#leaseMs : Math.ceil(slot.freeAt - now));
    }
    try {
      if (args.length > 0) {
        await this.#scripts.quantaRateHold(this.#keys.slots, this.#redisNowArg(), ...args);
      } else {
        await this.#redis.ping();
      }
    } catch (error) {
      // The connection was ready, so this is no plain outage: said once per fallback (the next
      // probe tries again), where a silent retry hid such a failure for tens of seconds.
      if (!this.#probeFailureLogged) {
        this.#probeFailureLogged = true;
        this.#options.log.warn(
          { rateBudget: 'fallback', redis: this.#label, err: summarizeError(error) },
          "shared rate budget: Redis is connected but the probe failed; keeping to this process's share",
        );
      }
      return;
    }
    this.#mode = 'shared';
    // Every other process probes as often: by then those alive are back and their slots in.
    this.#settleUntil = now + this.#options.perMs + 3 * (this.#options.probeEveryMs ?? 500);
    this.#options.log.info(
      { rateBudget: 'shared', redis: this.#label, requests: this.#options.requests },
      'shared rate budget reachable again',
    );
    this.#pump.kick();
  }
}
