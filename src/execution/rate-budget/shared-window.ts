import { Redis } from 'ioredis';
import type { RequestKind } from './rate-budget.ts';
import { ACQUIRE_LUA, HOLD_LUA, PAUSE_LUA } from './redis-scripts.ts';

/** A call's timeout is counted in turns of this timer (see `SharedWindow.#answered`). */
const TIMEOUT_TURN_MS = 100;

/** How long an order waiting anywhere keeps lookups and polls of every process back. */
const ORDERS_WAITING_MS = 250;

/** {granted, waitMs, paused, then for each granted slot the ms until it may be used}. */
export type AcquireReply = [granted: number, waitMs: number, paused: number, ...delays: number[]];

interface Scripts {
  quantaRateAcquire(...args: (string | number)[]): Promise<AcquireReply>;
  quantaRateHold(...args: (string | number)[]): Promise<number>;
  quantaRatePause(...args: (string | number)[]): Promise<number>;
}

/** Options of {@link SharedWindow}. */
export interface SharedWindowOptions {
  /** `redis://[user:password@]host:port[/db]`. */
  readonly url: string;
  /** Key prefix of the account's budget (`budgetKey`). */
  readonly key: string;
  /** Slots in the window for all processes together. */
  readonly requests: number;
  readonly perMs: number;
  /** How long a slot taken for a request in flight is held unless renewed. */
  readonly leaseMs: number;
  /** How often ioredis tries a lost connection again. */
  readonly reconnectEveryMs: number;
  /** How long a connection attempt may take. */
  readonly connectTimeoutMs: number;
  /** How long Redis may take to answer a call before it counts as unreachable. */
  readonly commandTimeoutMs: number;
  /** Waits `ms` or until the signal aborts: the calls' timeouts. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The scripts' clock; default Redis's own `TIME` (tests inject one). */
  readonly redisNow?: () => number;
}

/**
 * One account's shared window in Redis (the scripts of redis-scripts.ts on the budget's keys)
 * and the connection to it. Every call fails at once while disconnected, with nothing queued
 * and nothing retried: the budget then keeps to its fallback share, and ioredis reconnects on
 * its own every `reconnectEveryMs`.
 */
export class SharedWindow {
  readonly #options: SharedWindowOptions;
  readonly #redis: Redis;
  readonly #scripts: Scripts;
  readonly #keys: { slots: string; pause: string; waiting: string };

  constructor(options: SharedWindowOptions) {
    this.#options = options;
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
      // No commandTimeout: each call has its own (see `#answered`), which a stall of this
      // process or of the machine does not trip.
      connectTimeout: options.connectTimeoutMs,
      retryStrategy: () => options.reconnectEveryMs,
    });
    // Connection errors are seen (and logged once) where commands fail; not as stray events.
    this.#redis.on('error', () => undefined);
    this.#redis.defineCommand('quantaRateAcquire', { numberOfKeys: 3, lua: ACQUIRE_LUA });
    this.#redis.defineCommand('quantaRateHold', { numberOfKeys: 1, lua: HOLD_LUA });
    this.#redis.defineCommand('quantaRatePause', { numberOfKeys: 1, lua: PAUSE_LUA });
    this.#scripts = this.#redis as unknown as Scripts;
  }

  /** The first connection; rejects when Redis does not answer within `connectTimeoutMs`. */
  connect(): Promise<void> {
    return this.#redis.connect();
  }

  /** Connected and past ioredis's ready check: a probe may be sent. */
  get ready(): boolean {
    return this.#redis.status === 'ready';
  }

  /**
   * Takes up to `count` slots (all or none when `allOrNothing`), named `prefix:1` … in Redis;
   * `token` names this process in the orders-waiting mark.
   */
  acquire(
    kind: RequestKind,
    prefix: string,
    count: number,
    allOrNothing: boolean,
    token: string,
  ): Promise<AcquireReply> {
    const keys = this.#keys;
    const reply = this.#scripts.quantaRateAcquire(
      keys.slots,
      keys.pause,
      keys.waiting,
      this.#redisNowArg(),
      this.#options.requests,
      this.#options.leaseMs,
      prefix,
      count,
      allOrNothing ? 1 : 0,
      kind,
      ORDERS_WAITING_MS,
      token,
      // Orders may reserve slots that free within half a window (only answered requests'
      // slots free that soon; in-flight leases end later).
      Math.floor(this.#options.perMs / 2),
    );
    return this.#answered(reply);
  }

  /** Holds each member for its ms from now (`member, ms` pairs; whole ms: PEXPIRE refuses a fraction). */
  hold(pairs: readonly (string | number)[]): Promise<number> {
    return this.#answered(
      this.#scripts.quantaRateHold(this.#keys.slots, this.#redisNowArg(), ...pairs),
    );
  }

  /** Frees a slot whose request never left. */
  remove(member: string): Promise<number> {
    return this.#answered(this.#redis.zrem(this.#keys.slots, member));
  }

  /** A 429's pause for every process: no slot granted for `ms`. */
  pause(ms: number): Promise<number> {
    return this.#answered(this.#scripts.quantaRatePause(this.#keys.pause, this.#redisNowArg(), ms));
  }

  ping(): Promise<string> {
    return this.#answered(this.#redis.ping());
  }

  disconnect(): void {
    this.#redis.disconnect();
  }

  /**
   * `call`, or a rejection when Redis has not answered it within `commandTimeoutMs`, counted in
   * turns of a {@link TIMEOUT_TURN_MS} timer. A stall of this process (CPU starved, a long
   * synchronous task) or of the whole machine, Redis with it, is one late turn, not an outage:
   * ioredis's own `commandTimeout` ran its expired timer before it read the reply that came
   * meanwhile, or before a starved Redis could answer, and the budget fell back with Redis up
   * (measured in the shared-budget runtime test at load 16 on 2 cores: bots stalled 2-4 s, all
   * three at once). A Redis that hangs while this process runs still fails the call in about
   * `commandTimeoutMs`.
   */
  #answered<T>(call: Promise<T>): Promise<T> {
    const ms = this.#options.commandTimeoutMs;
    const done = new AbortController();
    const late = (async (): Promise<never> => {
      for (let waited = 0; waited < ms; waited += TIMEOUT_TURN_MS) {
        await this.#options.sleep(Math.min(TIMEOUT_TURN_MS, ms - waited), done.signal);
      }
      // A new timer fires after the I/O of this turn: a reply already here is read first.
      await this.#options.sleep(0, done.signal);
      throw new Error(`Redis did not answer within ${String(ms)} ms`);
    })();
    late.catch(() => undefined); // aborted once the call settles
    return Promise.race([call, late]).finally(() => done.abort());
  }

  #redisNowArg(): string {
    return this.#options.redisNow === undefined ? '' : String(this.#options.redisNow());
  }
}
